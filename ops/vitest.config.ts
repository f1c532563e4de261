import { defineProject } from 'vitest/config';
import { sharedModuleGraph } from '@site/testing/isolation';

// The operator's commands, against fake and local stages; the local stack's tests start Chromium-free stacks.
export default defineProject({
  test: {
    name: 'ops',
    root: import.meta.dirname,
    environment: 'node',
    // One module graph for all its files (@site/testing/isolation).
    ...sharedModuleGraph(import.meta.dirname, ['test/**/*.test.ts']),
    // One DynamoDB and one SES for the whole run; each file gets a table and an outbox of its own.
    globalSetup: ['@site/testing/stand-ins'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
