import { defineConfig } from 'vitest/config';

// The README's deploy guide run with the real CDK CLI against moto's AWS API server
// (`npm run test:deploy`, not part of `npm test`). One file whose tests are the guide's steps in
// order; each CDK command synthesizes the app, hence the timeouts.
export default defineConfig({
  test: {
    name: 'deploy',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
