import { defineConfig } from 'vitest/config';

// The whole local stack in the system Chromium: form → handler → DynamoDB and SES.
export default defineConfig({
  test: {
    name: 'local-e2e',
    root: import.meta.dirname,
    include: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A browser on a busy CI machine can take seconds for what takes a frame here; a poll
    // still fails fast on a wrong value, it only waits longer for a slow right one.
    expect: { poll: { timeout: 10_000 } },
  },
});
