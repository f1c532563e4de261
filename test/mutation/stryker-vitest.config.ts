/**
 * The tests Stryker runs against each mutant: the lambda tests, as the root config's `unit`
 * project runs them, with the run's global setup (the stand-ins, and the roles the IAM gates
 * enforce) and one difference. Stryker works in a copy of the repository (its sandbox) whose
 * node_modules is a link to the original's, so one workspace's import of another (the local
 * stack's `@site/lambda/config`, which configures every handler under test) would resolve
 * through node_modules' links to the original tree, which holds no mutants: a mutant reached
 * only that way would survive every test. Here such an import resolves to the same file in
 * the sandbox. Outside a sandbox nothing changes.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '../..');
const original = path.dirname(realpathSync(path.join(root, 'node_modules')));

function workspacesInSandbox(): Plugin {
  return {
    name: 'workspaces-in-sandbox',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.startsWith('@site/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.id.startsWith(root + path.sep) || !resolved.id.startsWith(original + path.sep)) return resolved;
      return { ...resolved, id: path.join(root, path.relative(original, resolved.id)) };
    },
  };
}

export default defineConfig({
  plugins: root === original ? [] : [workspacesInSandbox()],
  test: {
    root,
    globalSetup: ['./test/setup/stand-ins.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'lambda',
          environment: 'node',
          include: ['lambda/test/**/*.test.ts'],
          // The injected-clock simulations (the waves of spam-wave.test.ts and the networks' shares, the held page's wave of a
          // thousand) take a minute or more each, and one covers nearly every mutant of the spam
          // defence: an hour or two a run. The rules they exercise have tests of their own
          // (mail-budget.test.ts, stamp.test.ts, spam-signals.test.ts). The bundle's size test bundles
          // the sandbox's code, every mutant compiled in: 434 KB against the shipped bundle's
          // 415 KB, over its budget before any mutant runs.
          exclude: [
            'lambda/test/spam-wave.test.ts',
            'lambda/test/network-share-day.test.ts',
            'lambda/test/wider-network-share.test.ts',
            'lambda/test/held-page.test.ts',
            'lambda/test/bundle.test.ts',
          ],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
