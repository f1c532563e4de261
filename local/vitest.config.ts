import { defineConfig } from 'vitest/config';

// The local stand-in of the stack: edge, emulators, `npm start`, and the full-stack browser test.
export default defineConfig({
  test: {
    name: 'local-stack',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
