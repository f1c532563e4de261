import { defineConfig } from 'vitest/config';
import { sharedModuleGraph } from '@site/testing/isolation';

// The CDK app's tests. Each file synthesizes once (esbuild bundles both functions), hence the timeouts.
// The dashboard's test runs the functions on the run's stand-ins, to read the metrics they write.
export default defineConfig({
  test: {
    name: 'infra',
    root: import.meta.dirname,
    // One module graph for all its files (@site/testing/isolation): aws-cdk-lib loaded once,
    // not once per file, took the project from 48 s to 17 s. Each synth builds an App of its own.
    ...sharedModuleGraph(import.meta.dirname, ['test/**/*.test.ts']),
    environment: 'node',
    globalSetup: ['@site/testing/stand-ins'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
