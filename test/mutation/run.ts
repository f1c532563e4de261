/**
 * `npm run test:mutation`: Stryker over the modules of floors.ts (or only those named with
 * `-- --module origin-verify`), then results.json and results.md brought up to date for the
 * modules it measured. Exits 1 when a measured module is below its floor or has mutants the
 * runner could not judge.
 *
 *   --module <name>  a module of floors.ts by its file name (origin-verify); repeatable
 *   --force          judge every mutant again, instead of reusing the results of Stryker's
 *                    incremental file for mutants whose code and tests have not changed
 *   --concurrency n  test runners at once (default 1; a whole run takes about an hour on two
 *                    quiet cores)
 *   --summary        run nothing: render results.md again from results.json (after recording
 *                    an equivalent mutant in equivalent-mutants.json)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { schema } from '@stryker-mutator/api/core';
import { MUTATED_MODULES, type MutatedModule } from './floors.ts';
import { JSON_REPORT } from './stryker.config.ts';
import { judge, renderResults, resultsOf, type EquivalentMutants, type Results } from './summary.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const here = (name: string) => path.join(import.meta.dirname, name);
const RESULTS_JSON = here('results.json');
const RESULTS_MD = here('results.md');
const EQUIVALENTS = here('equivalent-mutants.json');

const readJson = <T>(file: string, absent: T): T => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : absent);

/** The commit being measured, marked when the code differs from it (the committed results themselves do not count). */
function measuredCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const results = ['results.json', 'results.md', 'equivalent-mutants.json'].map((name) => `:!test/mutation/${name}`);
  const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ...results) !== '';
  const commit = git('rev-parse', '--short', 'HEAD');
  return dirty ? `${commit} (with uncommitted changes)` : commit;
}

function modulesNamed(names: readonly string[]): MutatedModule[] {
  if (names.length === 0) return MUTATED_MODULES;
  return names.map((name) => {
    const module = MUTATED_MODULES.find((candidate) => path.basename(candidate, '.ts') === name || candidate === name);
    if (!module)
      throw new Error(
        `No module "${name}" in test/mutation/floors.ts; there are: ${MUTATED_MODULES.map((m) => path.basename(m, '.ts')).join(', ')}.`,
      );
    return module;
  });
}

function mutate(modules: readonly MutatedModule[], options: { force: boolean; concurrency?: string }): { commit: string; date: string } {
  const run = { commit: measuredCommit(), date: new Date().toISOString() };
  const stryker = spawnSync(
    path.join(ROOT, 'node_modules/.bin/stryker'),
    [
      'run',
      'test/mutation/stryker.config.ts',
      '--mutate',
      modules.join(','),
      ...(options.force ? ['--force'] : []),
      ...(options.concurrency ? ['--concurrency', options.concurrency] : []),
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (stryker.status !== 0) {
    console.error(`Stryker ended with ${stryker.status ?? stryker.signal}; results.md is left as it was.`);
    process.exit(stryker.status ?? 1);
  }
  return run;
}

const { values } = parseArgs({
  options: {
    module: { type: 'string', multiple: true, default: [] },
    force: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    summary: { type: 'boolean', default: false },
  },
});

let results = readJson<Results>(RESULTS_JSON, {});
if (!values.summary) {
  const modules = modulesNamed(values.module);
  const run = mutate(modules, values);
  const measured = resultsOf(JSON.parse(readFileSync(path.join(ROOT, JSON_REPORT), 'utf8')) as schema.MutationTestResult, run);
  const merged: Results = { ...results, ...measured };
  // In floors.ts's order, so a run of one module changes only its own entry.
  results = Object.fromEntries(MUTATED_MODULES.flatMap((module) => (merged[module] ? [[module, merged[module]]] : [])));
  writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, 2)}\n`);
}
const equivalents = readJson<EquivalentMutants>(EQUIVALENTS, {});
const judgements = judge(results, equivalents);
writeFileSync(RESULTS_MD, renderResults(judgements, equivalents));
for (const { module, score, floor, passed } of judgements)
  console.log(`${passed ? 'pass' : 'FAIL'}  ${module}: ${score.toFixed(1)} % (floor ${floor} %)`);
console.log(`Summary: ${path.relative(ROOT, RESULTS_MD)}`);
process.exit(judgements.every((judgement) => judgement.passed) ? 0 : 1);
