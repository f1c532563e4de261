/**
 * Cold import of the Lambda bundle: each sample is a fresh Node process that times
 * `await import(bundle)` with process.hrtime, which is what a Lambda cold start pays for
 * the code before the first request (the handler creates its SDK clients at import).
 * An empty ES module is timed the same way in the same run, and the budget is the ratio,
 * so the machine's speed cancels out. Samples alternate between the two so drift hits both.
 *
 * The whole process (spawn to exit) is timed too, as context: Node's own start-up is
 * the same for both and dominates it.
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

export interface ColdImport {
  samples: number;
  bundle: { importMs: number; processMs: number };
  empty: { importMs: number; processMs: number };
  /** Median import time of the bundle ÷ that of the empty module. */
  ratio: number;
  processRatio: number;
  raw: { bundle: ColdImportSamples; empty: ColdImportSamples };
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
export function measureColdImport(bundlePath: string, workDir: string, env: NodeJS.ProcessEnv, samples = 20): ColdImport {
  const emptyPath = join(workDir, 'empty.mjs');
  writeFileSync(emptyPath, 'export {};\n');
  const childEnv = { ...env };
  delete childEnv.NODE_OPTIONS;
  const bundleUrl = pathToFileURL(bundlePath).href;
  const emptyUrl = pathToFileURL(emptyPath).href;

  // One untimed round each, so the first timed sample does not also pay for a cold disk cache.
  sample(bundleUrl, childEnv);
  sample(emptyUrl, childEnv);

  const raw = { bundle: { importMs: [] as number[], processMs: [] as number[] }, empty: { importMs: [] as number[], processMs: [] as number[] } };
  for (let i = 0; i < samples; i++) {
    for (const [name, url] of [['bundle', bundleUrl], ['empty', emptyUrl]] as const) {
      const { importMs, processMs } = sample(url, childEnv);
      raw[name].importMs.push(importMs);
      raw[name].processMs.push(processMs);
    }
  }
  const bundle = { importMs: median(raw.bundle.importMs), processMs: median(raw.bundle.processMs) };
  const empty = { importMs: median(raw.empty.importMs), processMs: median(raw.empty.processMs) };
  return { samples, bundle, empty, ratio: bundle.importMs / empty.importMs, processRatio: bundle.processMs / empty.processMs, raw };
}
