/**
 * `npm run bench`: every budget of the design measured on this machine against the local
 * production stack, one part after another (none measures another's load), written to
 * bench/results.md and results.json and printed; exits non-zero when a budget is missed or a
 * part could not be measured.
 *
 *   npm run bench -- --only <part> [--only <part> …] [--runs N] [--site <built site>]
 *
 * `--only` runs the parts named (and what they need), prints their rows and writes
 * bench/.work/results-partial.json, leaving the committed report alone. `--runs`: Lighthouse's
 * counted runs a page (7). `--site`: a build to measure in place of frontend/dist, such as a
 * copy with a slower start when choosing a margin (docs/development.md, "Performance").
 */
import { execFile } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { firstLoadOf } from '@site/frontend/first-load';
import { DEFAULT_SITE_DIR, EPHEMERAL_STACK, REPO_ROOT, startLocalStack, type LocalStack } from '@site/local/stack';
import { LATENCY_REQUESTS, LATENCY_WARMUP } from './budgets';
import { captureHandlerLogs, measureHandlerLatency, measureIamGate } from './handler';
import { measureHostileBodies } from './hostile-bodies';
import { buildLambdaBundle, measureColdStart } from './lambda';
import { runLighthouse } from './lighthouse';
import { buildReactOnlyPage, buildReleasePage, startStaticSite, stripScripts, stripTypeface, writeChangedSite } from './pages';
import { buildRows, newResults, renderText, writeReports, type BenchResults, type PageName } from './report';
import { judgeLighthouse } from './side-by-side';
import { measureNearCopies } from './near-copies';
import { measureSpamWave } from './spam-wave';
import { measureStampSolves } from './stamp-solve';
import { measureTapToPaint } from './tap-to-paint';

const PARTS = [
  'firstLoadJs',
  'lambdaBundle',
  'coldStart',
  'handlerLatency',
  'spamWave',
  'nearCopies',
  'hostileBodies',
  'iamGate',
  'lighthouse',
  'stampSolves',
  'tapToPaint',
] as const;
type Part = (typeof PARTS)[number];
const NEEDS_BUNDLE: Part[] = ['lambdaBundle', 'coldStart', 'handlerLatency', 'hostileBodies', 'iamGate'];

const { values } = parseArgs({
  options: { only: { type: 'string', multiple: true }, runs: { type: 'string', default: '7' }, site: { type: 'string' } },
});
const only = values.only as Part[] | undefined;
const unknown = only?.filter((name) => !PARTS.includes(name));
const runs = Number(values.runs);
if (unknown?.length || !Number.isInteger(runs) || runs < 1 || (values.site && (!only || only.includes('firstLoadJs')))) {
  console.error(
    `usage: npm run bench -- [--only <part> …] [--runs N ≥ 1] [--site <built site>, with --only and without firstLoadJs: size-limit reads frontend/dist]\nparts: ${PARTS.join(', ')}`,
  );
  process.exit(2);
}
const wanted = (part: Part) =>
  !only || only.includes(part) || (part === 'lambdaBundle' && NEEDS_BUNDLE.some((needing) => only.includes(needing)));

const BENCH_DIR = import.meta.dirname;
const WORK_DIR = join(BENCH_DIR, '.work');
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const results: BenchResults = newResults();
const sampler = setInterval(() => (results.environment.load.max = Math.max(results.environment.load.max, loadavg()[0]!)), 2000);

/** Runs one part if wanted; a part that throws is recorded as not measured, which fails the run, and the rest go on. */
async function part<Name extends Part>(name: Name, label: string, measure: () => Promise<BenchResults[Name]>, quietLogs = false) {
  if (!wanted(name)) return;
  const at = performance.now();
  console.log(`▸ ${label}`);
  const restore = quietLogs ? captureHandlerLogs(join(WORK_DIR, 'handler.log')) : undefined;
  try {
    results[name] = await measure();
  } catch (error) {
    results.errors[name] = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  } finally {
    if (restore) results.outcomes[name] = await restore();
  }
  console.log(results.errors[name] ? `  failed: ${results.errors[name]}` : `  ${seconds(at)}`);
}

// The build measured, copied once: everything below is the same build even if frontend/dist is rebuilt meanwhile.
const SITE_DIR = join(WORK_DIR, 'site');
rmSync(SITE_DIR, { recursive: true, force: true });
cpSync(values.site ?? DEFAULT_SITE_DIR, SITE_DIR, { recursive: true });

await part('firstLoadJs', 'First-load JavaScript (size-limit, .size-limit.mjs)', async () => {
  // size-limit exits 1 when a check is over its limit, with its figures on stdout all the same.
  const { stdout } = await promisify(execFile)(join(REPO_ROOT, 'node_modules/.bin/size-limit'), ['--json'], { cwd: REPO_ROOT }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }),
  );
  const check = (JSON.parse(stdout) as { name: string; size?: number }[]).find(({ name }) => name.startsWith('First-load JavaScript'));
  if (check?.size === undefined) throw new Error(`size-limit gave no first-load figure: ${stdout.slice(0, 200)}`);
  return { bytes: check.size };
});

let stack: LocalStack | undefined;
let stackError = '';
/** The local stack, for a part that needs it; a part run without it fails, saying why. */
const local = (): LocalStack => {
  if (!stack) throw new Error(`needs the local stack, which did not start: ${stackError}`);
  return stack;
};
let ungated: LocalStack | undefined;
let unlimited: LocalStack | undefined;
/**
 * A second local stack, without the IAM gate. The gate evaluates each call of a role against
 * its policies, a millisecond or more of this machine's CPU a call that the function does not
 * pay in AWS, and the bare round trips, signed by the administrator, do not pay here: the
 * handler's latency is measured without it, and the gate's cost is a part of its own.
 */
const withoutGate = async () => (ungated ??= await startLocalStack({ ...EPHEMERAL_STACK, siteDir: SITE_DIR, iam: false }));
try {
  if (PARTS.some((name) => name !== 'firstLoadJs' && name !== 'lambdaBundle' && wanted(name)))
    stack = await startLocalStack({ ...EPHEMERAL_STACK, siteDir: SITE_DIR }).catch(
      (error: Error) => ((stackError = error.message), undefined),
    );
  // The Lambda parts first: they time processes and calls in milliseconds, and the machine is quietest before Chromium has run.
  await part('lambdaBundle', 'The Lambda bundle (lambda/bundle.ts)', () => buildLambdaBundle(join(WORK_DIR, 'lambda')));
  const bundle = results.lambdaBundle?.outfile;
  const withBundle =
    <T>(measure: (outfile: string) => Promise<T>) =>
    () =>
      bundle ? measure(bundle) : Promise.reject(new Error(`needs the Lambda bundle: ${results.errors.lambdaBundle}`));
  await part(
    'coldStart',
    'Cold start in fresh processes, 40 samples each',
    withBundle((outfile) => measureColdStart(join(WORK_DIR, 'lambda'), outfile, { ...process.env, ...local().lambdaEnv })),
  );
  await part(
    'handlerLatency',
    'The handler against the bare round trips at 1, 10 and 50 concurrent',
    withBundle(async (outfile) => measureHandlerLatency(await withoutGate(), outfile, LATENCY_REQUESTS, LATENCY_WARMUP)),
    true,
  );
  await part('spamWave', 'A spam wave of 1,000 messages in an hour', () => measureSpamWave(local()), true);
  await part('nearCopies', 'Near-copy false positives on ordinary Dutch messages', () => Promise.resolve(measureNearCopies()));
  await part(
    'hostileBodies',
    'The heaviest bodies against a message, 200 calls each',
    withBundle((outfile) => measureHostileBodies(local(), outfile)),
    true,
  );
  await part(
    'iamGate',
    'The handler with the IAM gate against a stack without it, 1,000 calls each',
    withBundle(async (outfile) => measureIamGate(local(), await withoutGate(), outfile, 1000, LATENCY_WARMUP)),
    true,
  );

  await part('lighthouse', `Lighthouse: the site and the pages beside it, 1 uncounted and ${runs} counted runs each`, async () => {
    const reactOnly = join(WORK_DIR, 'react-only');
    await buildReactOnlyPage(reactOnly);
    const release = await buildReleasePage(WORK_DIR);
    writeChangedSite(SITE_DIR, join(WORK_DIR, 'no-script'), 'script', stripScripts);
    writeChangedSite(SITE_DIR, join(WORK_DIR, 'no-font'), 'typeface', stripTypeface);
    const servers = await Promise.all([join(WORK_DIR, 'no-script'), join(WORK_DIR, 'no-font'), release, reactOnly].map(startStaticSite));
    try {
      const [noScript, noFont, releaseUrl, reactOnlyUrl] = servers.map((server) => `${server.url}/`);
      const session = await runLighthouse<PageName>(
        { site: `${local().urls.site}/`, noScript: noScript!, noFont: noFont!, release: releaseUrl!, reactOnly: reactOnlyUrl! },
        {
          runs,
          onRun: (name, run, lhr) => {
            console.log(
              `  ${name}: Performance ${run.scores.performance}, LCP ${Math.round(run.metrics.lcp)} ms, TBT ${Math.round(run.metrics.tbt)} ms, longest task ${run.longestTask} ms, load ${loadavg()[0]!.toFixed(2)}, ${seconds(started)}`,
            );
            // The last report of each page, for digging into a miss (bench/.work is not committed).
            writeFileSync(join(WORK_DIR, `lighthouse-${name}.json`), JSON.stringify(lhr));
          },
        },
      );
      // A run that ended before the page hydrated has measured no hydration, and would pass TBT and the longest task on nothing.
      const unhydrated = (['site', 'noFont', 'release', 'reactOnly'] as const).filter((page) =>
        session.runs[page].some((run) => !run.hydrated),
      );
      if (unhydrated.length)
        throw new Error(`Lighthouse stopped recording before ${unhydrated.join(', ')} had hydrated (no "hydrated" mark).`);
      return { ...session, sideBySide: judgeLighthouse(session.runs.site, session.runs) };
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
  if (results.firstLoadJs && results.lighthouse) {
    const counted = firstLoadOf(SITE_DIR).files.map((file) => `/${file}`);
    const fetched = new Set(results.lighthouse.runs.site.flatMap((run) => run.scripts));
    results.firstLoadJs.uncounted = [...fetched].filter((path) => !counted.includes(path));
  }

  // One page asks for every challenge, more than the visitor limit gives one visitor (decision
  // 0043): on a stack with the limit off, as `VISITOR_LIMIT=0 npm start` runs.
  await part(
    'stampSolves',
    "The proof-of-work stamp on a phone's CPU, 60 solves",
    async () => {
      unlimited = await startLocalStack({ ...EPHEMERAL_STACK, siteDir: SITE_DIR, visitorLimit: 0 });
      return measureStampSolves(unlimited.urls.site, SITE_DIR);
    },
    true,
  );
  await part('tapToPaint', "A tap on the phone's menu to the next paint, at the first paint and after hydration, 7 loads", () =>
    measureTapToPaint(local().urls.site),
  );
} finally {
  await Promise.all([stack?.close(), ungated?.close(), unlimited?.close()]);
}

clearInterval(sampler);
results.environment.load.end = loadavg()[0]!;
results.durationSeconds = (performance.now() - started) / 1000;
const rows = buildRows(results, only !== undefined);
if (only) writeFileSync(join(WORK_DIR, 'results-partial.json'), `${JSON.stringify({ rows, ...results }, null, 2)}\n`);
else writeReports(BENCH_DIR, results, rows);
console.log(
  `\n${renderText(rows)}\n\n${only ? 'bench/.work/results-partial.json' : 'bench/results.md and results.json'} written in ${seconds(started)}.`,
);
// Exit explicitly: the SDK's keep-alive agents would otherwise hold the process open a while.
process.exit(rows.some((row) => row.verdict !== 'pass') ? 1 : 0);
