/**
 * The contact function's bundle as the stack ships it (lambda/bundle.ts, the one definition of
 * its esbuild options) and its cold start: fresh Node processes, each importing one module and
 * exiting, timed spawn to exit, rotating between the bundle, the same handler with the AWS SDK
 * from node_modules (the budget's anchor) and an empty module (Node itself). A benchmark tool
 * such as hyperfine runs each command's samples in a row; rotating lets drift on a shared
 * machine fall on all three alike.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleHandler, HANDLER_ENTRIES } from '@site/lambda/bundle';
import { median } from './stats';

const ENTRY = HANDLER_ENTRIES['send-contact-email'];

export interface LambdaBundle {
  outfile: string;
  /** Minified bytes: what the budget is about (parse and compile time scale with it). */
  bytes: number;
  gzipBytes: number;
}

export async function buildLambdaBundle(outDir: string): Promise<LambdaBundle> {
  const { outfile, bytes } = await bundleHandler(ENTRY, join(outDir, 'send-contact-email.mjs'));
  return { outfile, bytes, gzipBytes: gzipSync(readFileSync(outfile)).length };
}

export interface ColdStart {
  samples: number;
  /** Median spawn-to-exit times, ms. */
  bundle: number;
  sdkFromNodeModules: number;
  empty: number;
  /** bundle ÷ sdkFromNodeModules: the budget. */
  ratio: number;
}

/**
 * `env`: the function's environment, as Lambda gives it at import (its clients are made then).
 * 40 samples each: with 20 the ratio moved from 0.67 to 0.78 between runs, with 40 within 0.64 to 0.66.
 */
export async function measureColdStart(outDir: string, bundle: string, env: NodeJS.ProcessEnv, samples = 40): Promise<ColdStart> {
  // Written under the repository, so that Node finds the SDK in its node_modules; without the bundle's cold-start substitutions.
  const anchor = await bundleHandler(ENTRY, join(outDir, 'send-contact-email.sdk-from-node_modules.mjs'), {
    external: ['@aws-sdk/*'],
    alias: {},
  });
  const empty = join(outDir, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  // No loader of the bench's own (tsx) inherited.
  const childEnv = { ...env, NODE_OPTIONS: '' };
  const modules = { bundle, sdkFromNodeModules: anchor.outfile, empty };
  const times = { bundle: [] as number[], sdkFromNodeModules: [] as number[], empty: [] as number[] };
  const time = (path: string) => {
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(path).href)})`], {
      env: childEnv,
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`Importing ${path} in a fresh process failed:\n${child.stderr}`);
    return performance.now() - started;
  };
  // One untimed round, so the first sample does not pay for a cold disk cache.
  for (const path of Object.values(modules)) time(path);
  for (let i = 0; i < samples; i++)
    for (const name of Object.keys(modules) as (keyof typeof modules)[]) times[name].push(time(modules[name]));
  const result = { bundle: median(times.bundle), sdkFromNodeModules: median(times.sdkFromNodeModules), empty: median(times.empty) };
  return { samples, ...result, ratio: result.bundle / result.sdkFromNodeModules };
}
