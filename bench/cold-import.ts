/**
 * Cold import of the Lambda bundle: each sample is a fresh Node process that imports one
 * module and exits. Two times are kept per sample: spawn to exit (what a cold start pays:
 * the runtime's own start-up, then reading, compiling and running the code, which creates
 * the SDK clients) and `await import(...)` alone, timed inside with process.hrtime.
 *
 * The budget is on the process, spawn to exit, as a ratio to the anchor measured in the
 * same run: the same handler with the SDK imported from node_modules. Both pay the same
 * Node start-up, so the ratio is about the code; an empty module is measured too, to show
 * how much of a cold start is Node itself.
 *
 * Samples rotate through the modules so drift on a shared machine hits all of them.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats';

const PROBE = [
  'const url = process.argv[1];',
  'const started = process.hrtime.bigint();',
  'await import(url);',
  'const ms = Number(process.hrtime.bigint() - started) / 1e6;',
  'process.stdout.write(String(ms));',
].join('\n');

export interface ColdImportSamples {
  importMs: number[];
  processMs: number[];
}

export interface ColdImportTimes {
  importMs: number;
  processMs: number;
}

export interface ColdImport {
  samples: number;
  bundle: ColdImportTimes;
  empty: ColdImportTimes;
  /** The same handler with the AWS SDK from node_modules: the budget's anchor. */
  sdkFromNodeModules: ColdImportTimes;
  /** Median spawn-to-exit time of the bundle ÷ that of the anchor: the budget. */
  anchorRatio: number;
  /** Median spawn-to-exit time of the bundle ÷ that of the empty module. */
  processRatio: number;
  /** Median import time alone, bundle ÷ empty module. */
  importRatio: number;
  sdkFromNodeModulesProcessRatio: number;
  raw: { bundle: ColdImportSamples; empty: ColdImportSamples; sdkFromNodeModules: ColdImportSamples };
}

function sample(moduleUrl: string, env: NodeJS.ProcessEnv): { importMs: number; processMs: number } {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, moduleUrl], { env, encoding: 'utf8' });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`Importing ${moduleUrl} in a fresh process failed:\n${child.stderr}`);
  const importMs = Number(child.stdout);
  if (!Number.isFinite(importMs)) throw new Error(`Unexpected output importing ${moduleUrl}: ${child.stdout}`);
  return { importMs, processMs };
}

/**
 * `env` is the function's environment (region, table, endpoints), as Lambda gives it at
 * import. NODE_OPTIONS is dropped so no loader of the benchmark's own (tsx) is inherited.
 */
export function measureColdImport(
  modules: { bundle: string; sdkFromNodeModules: string },
  workDir: string,
  env: NodeJS.ProcessEnv,
  samples = 20,
): ColdImport {
  const emptyPath = join(workDir, 'empty.mjs');
  writeFileSync(emptyPath, 'export {};\n');
  const childEnv = { ...env };
  delete childEnv.NODE_OPTIONS;
  const urls = {
    bundle: pathToFileURL(modules.bundle).href,
    empty: pathToFileURL(emptyPath).href,
    sdkFromNodeModules: pathToFileURL(modules.sdkFromNodeModules).href,
  };
  const names = Object.keys(urls) as (keyof typeof urls)[];

  // One untimed round each, so the first timed sample does not also pay for a cold disk cache.
  for (const name of names) sample(urls[name], childEnv);

  const raw = Object.fromEntries(names.map((name) => [name, { importMs: [] as number[], processMs: [] as number[] }])) as ColdImport['raw'];
  for (let i = 0; i < samples; i++) {
    for (const name of names) {
      const { importMs, processMs } = sample(urls[name], childEnv);
      raw[name].importMs.push(importMs);
      raw[name].processMs.push(processMs);
    }
  }
  const medians = (name: keyof typeof urls): ColdImportTimes => ({
    importMs: median(raw[name].importMs),
    processMs: median(raw[name].processMs),
  });
  const bundle = medians('bundle');
  const empty = medians('empty');
  const sdkFromNodeModules = medians('sdkFromNodeModules');
  return {
    samples,
    bundle,
    empty,
    sdkFromNodeModules,
    anchorRatio: bundle.processMs / sdkFromNodeModules.processMs,
    processRatio: bundle.processMs / empty.processMs,
    importRatio: bundle.importMs / empty.importMs,
    sdkFromNodeModulesProcessRatio: sdkFromNodeModules.processMs / empty.processMs,
    raw,
  };
}
