import { defineConfig } from 'vitest/config';

/**
 * The files whose tests send the form as a person does: each waits out FAST_FILL_SECONDS
 * before it sends, or its message is held as a bot's. Most of their time is that wait, so
 * `npm test` runs them (the project `browser-sending`) in the lane beside the browser tier,
 * where a wait costs the machine nothing (scripts/test-in-two-lanes.mjs).
 */
export const SENDING_AS_A_PERSON = ['full-stack.test.ts', 'spam-wave.test.ts'];

/** A project of the browser tier: the built site (frontend/dist) behind the local stack's edge and function, in the system Chromium. */
export function browserTier(name: string, files: { include: string[]; exclude?: string[] }) {
  return defineConfig({
    test: {
      name,
      root: import.meta.dirname,
      ...files,
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // A browser on a busy CI machine can take seconds for what takes a frame here; a poll
      // still fails fast on a wrong value, it only waits longer for a slow right one.
      expect: { poll: { timeout: 10_000 } },
    },
  });
}
