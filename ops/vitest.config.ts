import { defineProject } from 'vitest/config';

// The operator's commands, against fake and local stages; the local stack's tests start Chromium-free stacks.
export default defineProject({
  test: {
    name: 'ops',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // One DynamoDB and one SES for the whole run; each file gets a table and an outbox of its own.
    globalSetup: ['@site/testing/stand-ins'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
