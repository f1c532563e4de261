/**
 * Stryker's configuration for `npm run test:mutation` (run.ts starts it; docs/design.md,
 * "Mutation testing"). Everything Stryker writes (its sandbox, the incremental file, the
 * reports) goes under test/mutation/.work/, which git ignores; run.ts turns the JSON report
 * into the committed results.md.
 */
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { MUTATED_MODULES } from './floors.ts';

export const WORK = 'test/mutation/.work';
export const JSON_REPORT = `${WORK}/mutation.json`;

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/stryker-vitest.config.ts', related: true, pool: 'forks' },
  mutate: MUTATED_MODULES,
  coverageAnalysis: 'perTest',
  // Vitest strips types without checking them, so Stryker's `// @ts-nocheck` on every file is of no
  // use here; it would change the generated look-alike table, which a test compares with its source.
  disableTypeChecks: false,
  concurrency: 1,
  incremental: true,
  incrementalFile: `${WORK}/incremental.json`,
  tempDirName: `${WORK}/sandbox`,
  cleanTempDir: 'always',
  reporters: ['json', 'html', 'clear-text', 'progress'],
  // The survivors and the score table; not the list of every test.
  clearTextReporter: { reportTests: false, logTests: false },
  jsonReporter: { fileName: JSON_REPORT },
  htmlReporter: { fileName: `${WORK}/mutation.html` },
  // What the lambda tests never read; a copy of it would only slow each sandbox down. (The docs
  // stay: the global setup reads the operators' policies from the on-call guide.)
  ignorePatterns: ['/bench', '/frontend/dist', '/cdk.out', '/.data', '/test/robustness', '/test/deploy', '/test/repository'],
  // A mutant's time limit is this plus 1.5 times its covering tests' own time in the first run; the
  // files' set-up (a DynamoDB and an SES stand-in each) is not in the latter, and takes up to half a
  // minute for the files a handler mutant runs on a busy machine. Below that, survivors time out.
  timeoutMS: 60_000,
} satisfies PartialStrykerOptions;
