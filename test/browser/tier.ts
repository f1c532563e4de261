import { defineConfig } from 'vitest/config';

/**
 * The files whose tests send the form and wait on a clock as the function's rules make a person
 * wait: out FAST_FILL_SECONDS before a send, or its message is held as a bot's (full-stack,
 * spam-wave, stamp), or to the start of a visitor-limit window (visitor-limit). Much of their
 * time is that wait, so `npm test` runs them (the project `browser-sending`) in the lane beside
 * the browser tier, where a wait costs the machine nothing (scripts/test-in-two-lanes.mjs), and
 * the two lanes end within seconds of each other.
 */
export const SENDING_AS_A_PERSON = ['full-stack.test.ts', 'spam-wave.test.ts', 'stamp.test.ts', 'visitor-limit.test.ts'];

/** A project of the browser tier: the built site (frontend/dist) behind the local stack's edge and function, in the system Chromium. */
export function browserTier(name: string, files: { include: string[]; exclude?: string[] }) {
  return defineConfig({
    test: {
      name,
      root: import.meta.dirname,
      include: files.include,
      isolate: false,
      ...(files.exclude && { exclude: files.exclude }),
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // A browser on a busy CI machine can take seconds for what takes a frame here; a poll
      // still fails fast on a wrong value, it only waits longer for a slow right one.
      expect: { poll: { timeout: 10_000 } },
    },
  });
}
