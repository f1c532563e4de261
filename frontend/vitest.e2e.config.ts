import { defineConfig } from 'vitest/config';

// Browser tests: the built site (frontend/dist) behind the local edge, in the system Chromium.
export default defineConfig({
  test: {
    name: 'frontend-e2e',
    root: import.meta.dirname,
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A browser on a busy CI machine can take seconds for what takes a frame here; a poll
    // still fails fast on a wrong value, it only waits longer for a slow right one.
    expect: { poll: { timeout: 10_000 } },
  },
});
