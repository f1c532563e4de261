import { defineConfig } from 'vitest/config';

// The CDK app's tests. Each file synthesizes once (esbuild bundles both functions), hence the timeouts.
export default defineConfig({
  test: {
    name: 'infra',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
