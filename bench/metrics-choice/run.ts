/**
 * Powertools' Metrics utility, or a helper of our own? The contact function's bundle as the
 * stack ships it (lambda/bundle.ts) three ways: as it is (Powertools builds the metric lines);
 * with the helper of our own (by-hand.ts) in place of lambda/src/metrics.ts; and the base
 * commit's, before the function wrote any metric (the fixed anchor: by default where this branch
 * left main). Each is timed beside its own build with the SDK from node_modules (the cold-start
 * budget's anchor) by the bench's own cold-import part, in two rounds, and the worse round is the
 * figure (docs/decisions/0028-metrics-emf-powertools.md).
 *
 * `npx tsx --tsconfig bench/tsconfig.json bench/metrics-choice/run.ts [base-ref]`
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { HANDLER_BUNDLE } from '@site/lambda/bundle';
import { measureColdImport } from '../cold-import';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = join(ROOT, 'bench/.work/metrics-choice');
const ENTRY = 'lambda/src/handlers/send-contact-email.ts';
const SAMPLES = 40;
const ROUNDS = 2;

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** lambda/src/metrics.ts replaced by the helper of our own, wherever the function imports it. */
const byHand: Plugin = {
  name: 'metrics-by-hand',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/metrics$/ }, (args) =>
      args.resolveDir === join(ROOT, 'lambda/src') ? { path: join(ROOT, 'bench/metrics-choice/by-hand.ts') } : undefined,
    );
  },
};

/** The shipped options, with the SDK left in node_modules for the budget's anchor. */
async function bundle(root: string, outfile: string, options: { sdkFromNodeModules?: boolean; plugins?: Plugin[] }): Promise<string> {
  const { banner, mainFields, external, alias, ...shipped } = HANDLER_BUNDLE;
  await build({
    ...shipped,
    mainFields: [...mainFields],
    banner: { js: banner },
    external: options.sdkFromNodeModules ? ['@aws-sdk/*'] : [...external],
    alias: options.sdkFromNodeModules ? {} : alias,
    plugins: options.plugins,
    entryPoints: [join(root, ENTRY)],
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** The base commit's core and lambda, resolving each other and everything else from this checkout's node_modules. */
function checkOut(ref: string): { root: string; commit: string } {
  const commit = git('rev-parse', '--short', ref);
  const root = join(WORK, `base-${commit}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'node_modules/@site'), { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} core lambda tsconfig.base.json | tar -x -C "${root}"`], { cwd: ROOT });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== '@site') symlinkSync(join(ROOT, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  for (const workspace of ['core', 'lambda']) symlinkSync(join(root, workspace), join(root, 'node_modules/@site', workspace));
  return { root, commit };
}

const base = checkOut(process.argv[2] ?? git('merge-base', 'HEAD', 'main'));
mkdirSync(WORK, { recursive: true });
const variants = {
  powertools: { root: ROOT, out: join(WORK, 'powertools'), plugins: [] },
  'by hand': { root: ROOT, out: join(WORK, 'by-hand'), plugins: [byHand] },
  [`base ${base.commit}`]: { root: base.root, out: join(base.root, 'out'), plugins: [] },
};
const built = await Promise.all(
  Object.entries(variants).map(async ([name, variant]) => {
    mkdirSync(variant.out, { recursive: true });
    const shipped = await bundle(variant.root, join(variant.out, 'send-contact-email.mjs'), { plugins: variant.plugins });
    const anchor = await bundle(variant.root, join(variant.out, 'send-contact-email.sdk-from-node_modules.mjs'), {
      sdkFromNodeModules: true,
      plugins: variant.plugins,
    });
    const code = readFileSync(shipped);
    return { name, shipped, anchor, bytes: code.length, gzip: gzipSync(code).length };
  }),
);

const worst = new Map<string, { processMs: number; importMs: number; ratio: number }>();
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const variant of built) {
    const measured = measureColdImport({ bundle: variant.shipped, sdkFromNodeModules: variant.anchor }, WORK, { ...process.env }, SAMPLES);
    const figures = { processMs: measured.bundle.processMs, importMs: measured.bundle.importMs, ratio: measured.anchorRatio };
    console.log(
      `round ${round}  ${variant.name.padEnd(16)} ${figures.processMs.toFixed(0)} ms spawn to exit (import ${figures.importMs.toFixed(0)} ms), ` +
        `${figures.ratio.toFixed(3)}× its SDK-from-node_modules build`,
    );
    const before = worst.get(variant.name);
    worst.set(variant.name, {
      processMs: Math.max(before?.processMs ?? 0, figures.processMs),
      importMs: Math.max(before?.importMs ?? 0, figures.importMs),
      ratio: Math.max(before?.ratio ?? 0, figures.ratio),
    });
  }
}
console.log('\nThe worse of the rounds (budget: ≤ 0.75× the anchor, bundle ≤ 400 KB):');
for (const variant of built) {
  const figures = worst.get(variant.name)!;
  console.log(
    `  ${variant.name.padEnd(16)} ${(variant.bytes / 1000).toFixed(1)} KB (${(variant.gzip / 1000).toFixed(1)} KB gzip), ` +
      `${figures.processMs.toFixed(0)} ms spawn to exit, import ${figures.importMs.toFixed(0)} ms, ${figures.ratio.toFixed(2)}× the anchor`,
  );
}
rmSync(base.root, { recursive: true, force: true });
