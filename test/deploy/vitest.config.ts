import { defineConfig } from 'vitest/config';

// The first-deploy and on-call guides run with the real CDK CLI against moto's AWS API server
// (`npm run test:deploy`, not part of `npm test`). Each file's tests are a guide's steps in order;
// each CDK command synthesizes the app, hence the timeouts.
export default defineConfig({
  test: {
    name: 'deploy',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.test.ts'],
    // One guide at a time: each runs a moto server and the CDK CLI, and the machine is shared.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
