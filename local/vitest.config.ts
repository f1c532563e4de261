import { defineConfig } from 'vitest/config';

// The local stand-in of the stack: edge, API Gateway translation, emulators, `npm start`.
export default defineConfig({
  test: {
    name: 'local',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    // One DynamoDB and one SES for the whole run; each stack gets a table and an outbox of its own.
    globalSetup: ['@site/testing/stand-ins'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
