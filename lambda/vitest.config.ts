import { defineProject } from 'vitest/config';
import { isolationPart } from '@site/testing/isolation';

/** `part`: the files that share one module graph, or those that replace a module, each isolated (@site/testing/isolation). */
export function lambdaProject(part: 'shared' | 'isolated') {
  return defineProject({
    test: {
      name: part === 'shared' ? 'lambda' : 'lambda-isolated',
      environment: 'node',
      ...isolationPart(import.meta.dirname, ['test/**/*.test.ts'], part),
      // One DynamoDB and one SES for the whole run; each file gets a table and an outbox of its own.
      globalSetup: ['@site/testing/stand-ins'],
      // Outage tests wait for the SDK's own timeouts (2 attempts x 2 s).
      testTimeout: 20_000,
      hookTimeout: 20_000,
    },
  });
}

export default lambdaProject('shared');
