import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'lambda',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // One DynamoDB and one SES for the whole run; each file gets a table and an outbox of its own.
    globalSetup: ['@site/testing/stand-ins'],
    // Outage tests wait for the SDK's own timeouts (2 attempts x 2 s).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
