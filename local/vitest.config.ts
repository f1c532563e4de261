import { defineConfig } from 'vitest/config';

// The local stand-in of the stack: edge, API Gateway translation, emulators, `npm start`.
export default defineConfig({
  test: {
    name: 'local',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
