import { defineConfig } from 'vitest/config';

// The CDK app's tests. Each file synthesizes once (esbuild bundles both functions), hence the timeouts.
// The dashboard's test runs the functions on the run's stand-ins, to read the metrics they write.
export default defineConfig({
  test: {
    name: 'infra',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['@site/testing/stand-ins'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
