import { defineConfig } from 'vitest/config';

/**
 * Every Vitest test of the repository, as four projects of one run. The browser tier is
 * Playwright Test's (playwright.config.ts); the deploy suite against moto has a config of its own
 * (test/deploy), since it needs moto and the AWS CLI.
 *
 * One global setup for all of them (test/setup/stand-ins.ts): DynamoDB's and SES's stand-ins,
 * the roles the IAM gates in front of them enforce, and the record of every call they allowed.
 * Node projects share one module graph per worker (`isolate: false`), so aws-cdk-lib, the AWS SDK
 * and the stand-ins load once per worker rather than once per file: no test replaces a module
 * (ESLint refuses vi.mock, vi.doMock and vi.resetModules there); a test injects a dependency instead.
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/setup/stand-ins.ts'],
    // A worker per core, not Vitest's default of one fewer: most files wait on the stand-ins or
    // on a clock rather than compute, so on two cores a second worker uses the idle time.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            '{core,emulators,lambda,local,ops}/test/**/*.test.ts',
            'test/{repository,mutation}/*.test.ts',
            'bench/test/**/*.test.ts',
          ],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './frontend/vite.config.ts',
        test: {
          name: 'frontend',
          root: './frontend',
          // Its own, as this project extends the site's Vite config rather than this one: left
          // unset it was Vitest's default of one worker fewer than the cores, one on two.
          maxWorkers: '100%',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'build/*.test.ts'],
          setupFiles: ['test/setup.ts'],
          restoreMocks: true,
          unstubGlobals: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          environment: 'node',
          include: ['infra/test/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'grants',
          environment: 'node',
          include: ['test/grants/*.test.ts'],
          // After every other project: it reads the calls their tests made through the IAM gates.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
        },
      },
    ],
  },
});
