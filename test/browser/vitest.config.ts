import { defineConfig } from 'vitest/config';

// The browser tier: the built site (frontend/dist) behind the local stack's edge and function, in the system Chromium.
export default defineConfig({
  test: {
    name: 'browser',
    root: import.meta.dirname,
    include: ['*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A browser on a busy CI machine can take seconds for what takes a frame here; a poll
    // still fails fast on a wrong value, it only waits longer for a slow right one.
    expect: { poll: { timeout: 10_000 } },
  },
});
