/**
 * The evidence behind the side-by-side margins (budgets.ts, SIDE_BY_SIDE): the bench's
 * Lighthouse part (the site, the no-script, no-font, release and React-only pages, runs
 * interleaved) repeated in sets, printing for each budget how far the site's median sat from
 * its comparison page's in every set, and whether it passed. How far those differences spread
 * with nothing changed is the noise a margin must cover; a site made slower on purpose
 * shows whether the margin still catches a real cost.
 *
 *   npm run build && npx tsx --tsconfig bench/tsconfig.json bench/margins.ts [--sets 6] [--slower-start 30]
 *
 * --slower-start MS: every set is measured twice, once with the site as built and once with
 * its start made MS slower as Lighthouse simulates it (its CPU slowdown calibrated to this
 * host, see lighthouse.ts), so both meet the same load. The slower copy's entry module first
 * does a fixed amount of CPU work, MS ÷ that slowdown as it runs in this Chromium undisturbed
 * (both measured before the first set): a cost of the page, not a wait that a busy machine
 * would shorten. Results are written to bench/.work/margins/
 * after every set. Not part of `npm run bench`; each set takes a few minutes.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { launchChromium } from '@site/testing/chromium';
import { DEFAULT_SITE_DIR } from '@site/local/stack';
import { COMPARISON_PAGES, SIDE_BY_SIDE, sideBySideText, type SideBySideId } from './budgets';
import { assertHydrated, compareInLighthouse, type PageName } from './lighthouse-comparison';
import { calibratedSlowdown, WARM_UP_ROUNDS } from './lighthouse';
import { scriptsNamedIn } from './page-weight';
import { buildReactOnlyPage } from './react-floor';
import { buildReleasePage } from './release-page';
import { READ_FROM_RUN } from './side-by-side';
import { startStaticSite } from './static-site';
import { median, round } from './stats';

const RUNS_PER_SET = 5;
const WORK_DIR = join(dirname(fileURLToPath(import.meta.url)), '.work', 'margins');

const { values } = parseArgs({
  options: { sets: { type: 'string', default: '6' }, 'slower-start': { type: 'string', default: '0' } },
});
const sets = Number(values.sets);
const slowerStartMs = Number(values['slower-start']);
if (!Number.isInteger(sets) || sets < 1 || !(slowerStartMs >= 0)) {
  console.error('usage: margins.ts [--sets N (≥ 1)] [--slower-start MS (≥ 0, simulated)]');
  process.exit(2);
}

/** The added work: a loop the same in the calibration and in the page, returning its result so that none of it is left out. */
const WORK = 'let x=0;for(let i=0;i<n;i++)x=(Math.imul(x,31)+i)|0;return x;';

const CALIBRATION_ITERATIONS = 500_000;

/**
 * Iterations of WORK per millisecond in this Chromium (the fastest of many short tries, each
 * on a fresh function, as the page's runs cold), and the CPU slowdown Lighthouse's runs will
 * use on this host (from its own benchmark, as its uncounted round measures it).
 */
async function calibrate(): Promise<{ rate: number; slowdown: number }> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const benchmarkIndex = await page.evaluate<number>(`(${pageFunctions.computeBenchmarkIndex.toString()})()`);
    // As the page's own text, so that each try compiles the work afresh, as the page's module runs it once, cold.
    const fastest = await page.evaluate<number>(`(() => {
      let fastest = Infinity;
      for (let i = 0; i < 50; i++) {
        const run = new Function('n', ${JSON.stringify(WORK)});
        const start = performance.now();
        run(${CALIBRATION_ITERATIONS});
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    })()`);
    return { rate: CALIBRATION_ITERATIONS / fastest, slowdown: calibratedSlowdown(benchmarkIndex) };
  } finally {
    await browser.close();
  }
}

/** A copy of the build whose entry module first does work that takes `simulatedMs` in Lighthouse's simulation. */
function slowerCopy(simulatedMs: number, { rate, slowdown }: { rate: number; slowdown: number }): string {
  const dir = join(WORK_DIR, 'site-slower');
  rmSync(dir, { recursive: true, force: true });
  cpSync(DEFAULT_SITE_DIR, dir, { recursive: true });
  const [entry] = scriptsNamedIn(readFileSync(join(dir, 'index.html'), 'utf8'));
  if (!entry) throw new Error('The built index.html names no entry.');
  const path = join(dir, ...entry.split('/'));
  const iterations = Math.round((simulatedMs / slowdown) * rate);
  writeFileSync(path, `(n=>{${WORK}})(${iterations});\n${readFileSync(path, 'utf8')}`);
  return dir;
}

mkdirSync(WORK_DIR, { recursive: true });
const builtDir = join(WORK_DIR, 'site');
rmSync(builtDir, { recursive: true, force: true });
cpSync(DEFAULT_SITE_DIR, builtDir, { recursive: true });
const variants: { slowerStartMs: number; dir: string }[] = [{ slowerStartMs: 0, dir: builtDir }];
if (slowerStartMs > 0) {
  const calibration = await calibrate();
  console.log(
    `calibrated: ${Math.round(calibration.rate)} iterations per ms and a CPU slowdown of ${calibration.slowdown}×, so ${slowerStartMs} ms simulated is ${round(slowerStartMs / calibration.slowdown)} ms as it runs`,
  );
  variants.push({ slowerStartMs, dir: slowerCopy(slowerStartMs, calibration) });
}
const reactOnlyDir = join(WORK_DIR, 'react-only');
await buildReactOnlyPage(reactOnlyDir);
// Where the bench keeps it, so that neither builds it again for the other.
const releaseDir = await buildReleasePage(join(WORK_DIR, '..'));
const ids = Object.keys(SIDE_BY_SIDE) as SideBySideId[];
type Comparison = Awaited<ReturnType<typeof compareInLighthouse>>;
/** Each page's figures per run, so that other margins can be tried on the same runs. */
const figures = (summary: Comparison['site']) =>
  summary.runs.map((run) => ({
    ...Object.fromEntries(ids.map((id) => [id, READ_FROM_RUN[id](run)])),
    longestTaskLantern: run.longestTask.simulated,
    longestTaskAsItRan: run.longestTask.observed,
    longestTaskCpu: run.longestTask.cpu,
  }));
const file = join(WORK_DIR, `margins-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
const recorded: {
  set: number;
  slowerStartMs: number;
  load: number[];
  judged: Comparison['sideBySide'];
  runs: Record<PageName, ReturnType<typeof figures>>;
  /** Why the set does not count: a run ended before its page had hydrated (the bench fails such a run). */
  invalid?: string;
}[] = [];

/** Runs one set on one variant of the site, records it and prints a line. */
async function measureSet(set: number, variant: (typeof variants)[number]): Promise<void> {
  const load = [round(loadavg()[0]!, 2)];
  const site = await startStaticSite(variant.dir);
  let comparison: Comparison;
  try {
    comparison = await compareInLighthouse({
      siteUrl: `${site.url}/`,
      siteDir: variant.dir,
      reactOnlyDir,
      releaseDir,
      workDir: WORK_DIR,
      runs: RUNS_PER_SET,
      warmUp: WARM_UP_ROUNDS,
      onRun: () => load.push(round(loadavg()[0]!, 2)),
    });
  } finally {
    await site.close();
  }
  let invalid: string | undefined;
  try {
    assertHydrated(comparison);
  } catch (error) {
    invalid = error instanceof Error ? error.message : String(error);
  }
  recorded.push({
    set,
    slowerStartMs: variant.slowerStartMs,
    load,
    judged: comparison.sideBySide,
    runs: {
      site: figures(comparison.site),
      baseline: figures(comparison.baseline),
      noFont: figures(comparison.noFont),
      release: figures(comparison.release),
      reactOnly: figures(comparison.reactOnly),
    },
    ...(invalid ? { invalid } : {}),
  });
  // After every set, so a long series stopped early keeps what it measured.
  writeFileSync(file, `${JSON.stringify({ sets, runsPerSet: RUNS_PER_SET, recorded }, null, 2)}\n`);
  const line = ids.map((id) => {
    const { site: s, comparison: c, pass } = comparison.sideBySide[id];
    return `${id} ${round(s)} vs ${round(c)} (${s - c >= 0 ? '+' : ''}${round(s - c)}) ${pass ? 'pass' : 'FAIL'}`;
  });
  const name = variant.slowerStartMs ? `, start ${variant.slowerStartMs} ms slower` : '';
  console.log(
    `set ${set}/${sets}${name}, load ${Math.min(...load)}–${Math.max(...load)}: ${invalid ? `not counted: ${invalid}` : line.join('; ')}`,
  );
}

for (let set = 1; set <= sets; set++) {
  for (const variant of variants) await measureSet(set, variant);
}

for (const { slowerStartMs: slower } of variants) {
  const counted = recorded.filter((set) => !set.invalid && set.slowerStartMs === slower);
  console.log(
    `\n${counted.length} of ${sets} sets counted, ${RUNS_PER_SET} runs per page, ${slower ? `the site's start ${slower} ms slower (simulated)` : 'the site as built'}:`,
  );
  for (const id of ids) {
    const differences = counted.map(({ judged }) => round(judged[id].site - judged[id].comparison));
    const passed = counted.filter(({ judged }) => judged[id].pass).length;
    console.log(
      `  ${id} (${sideBySideText(SIDE_BY_SIDE[id])}): site − ${COMPARISON_PAGES[SIDE_BY_SIDE[id].against]}, medians: ` +
        `${differences.join(', ')} (median ${round(median(differences))}, ${Math.min(...differences)} to ${Math.max(...differences)}); passed ${passed} of ${counted.length}`,
    );
  }
}
console.log(`Written to ${file}.`);
