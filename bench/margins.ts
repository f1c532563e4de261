/**
 * The evidence behind the side-by-side margins (budgets.ts, SIDE_BY_SIDE): the bench's
 * Lighthouse part (the site, the no-script page and the React-only page, runs interleaved)
 * repeated in sets, printing for each budget how far the site's median sat from its
 * comparison page's in every set, and whether it passed. How far those differences spread
 * with nothing changed is the noise a margin must cover; a site made slower on purpose
 * shows whether the margin still catches a real cost.
 *
 *   npm run build && npx tsx --tsconfig bench/tsconfig.json bench/margins.ts [--sets 6] [--slower-start 30]
 *
 * --slower-start MS lengthens the app's start (the evaluation of its entry module, the
 * site's longest task after the first paint) by MS as Lighthouse simulates it: a busy wait
 * of MS ÷ the CPU slowdown (4×) as it runs, added to a copy of the build. Results are written
 * to bench/.work/margins/. Not part of `npm run bench`; it takes a few minutes a set.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { throttling } from 'lighthouse/core/config/constants.js';
import { DEFAULT_SITE_DIR } from '@site/local/stack';
import { COMPARISON_PAGES, SIDE_BY_SIDE, sideBySideText, type SideBySideId } from './budgets';
import { assertHydrated, compareInLighthouse, type PageName } from './lighthouse-comparison';
import { scriptsNamedIn } from './page-weight';
import { buildReactOnlyPage } from './react-floor';
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

/** A copy of the build whose entry module busy-waits first, so its evaluation takes `simulatedMs` longer in Lighthouse. */
function siteCopy(simulatedMs: number): string {
  const dir = join(WORK_DIR, 'site');
  rmSync(dir, { recursive: true, force: true });
  cpSync(DEFAULT_SITE_DIR, dir, { recursive: true });
  if (simulatedMs > 0) {
    const [entry] = scriptsNamedIn(readFileSync(join(dir, 'index.html'), 'utf8'));
    if (!entry) throw new Error('The built index.html names no entry.');
    const path = join(dir, ...entry.split('/'));
    const asRuns = simulatedMs / throttling.mobileSlow4G.cpuSlowdownMultiplier;
    writeFileSync(path, `{const until=performance.now()+${asRuns};while(performance.now()<until);}\n${readFileSync(path, 'utf8')}`);
  }
  return dir;
}

mkdirSync(WORK_DIR, { recursive: true });
const siteDir = siteCopy(slowerStartMs);
const reactOnlyDir = join(WORK_DIR, 'react-only');
await buildReactOnlyPage(reactOnlyDir);
const site = await startStaticSite(siteDir);
const ids = Object.keys(SIDE_BY_SIDE) as SideBySideId[];
type Comparison = Awaited<ReturnType<typeof compareInLighthouse>>;
/** Each page's figures per run, so that other margins can be tried on the same runs. */
const figures = (summary: Comparison['site']) =>
  summary.runs.map((run) => ({
    ...Object.fromEntries(ids.map((id) => [id, READ_FROM_RUN[id](run)])),
    longestTaskAsItRan: run.longestTask.observed,
  }));
const recorded: {
  set: number;
  load: number[];
  judged: Comparison['sideBySide'];
  runs: Record<PageName, ReturnType<typeof figures>>;
  /** Why the set does not count: a run ended before its page had hydrated (the bench fails such a run). */
  invalid?: string;
}[] = [];
try {
  for (let set = 1; set <= sets; set++) {
    const load = [round(loadavg()[0]!, 2)];
    const comparison = await compareInLighthouse({
      siteUrl: `${site.url}/`,
      siteDir,
      reactOnlyDir,
      workDir: WORK_DIR,
      runs: RUNS_PER_SET,
      onRun: () => load.push(round(loadavg()[0]!, 2)),
    });
    let invalid: string | undefined;
    try {
      assertHydrated(comparison);
    } catch (error) {
      invalid = error instanceof Error ? error.message : String(error);
    }
    recorded.push({
      set,
      load,
      judged: comparison.sideBySide,
      runs: { site: figures(comparison.site), baseline: figures(comparison.baseline), reactOnly: figures(comparison.reactOnly) },
      ...(invalid ? { invalid } : {}),
    });
    const line = ids.map((id) => {
      const { site: s, comparison: c, pass } = comparison.sideBySide[id];
      return `${id} ${round(s)} vs ${round(c)} (${s - c >= 0 ? '+' : ''}${round(s - c)}) ${pass ? 'pass' : 'FAIL'}`;
    });
    console.log(
      `set ${set}/${sets}, load ${Math.min(...load)}–${Math.max(...load)}: ${invalid ? `not counted: ${invalid}` : line.join('; ')}`,
    );
  }
} finally {
  await site.close();
}

const counted = recorded.filter((set) => !set.invalid);
console.log(
  `\n${counted.length} of ${sets} sets counted, ${RUNS_PER_SET} runs per page${slowerStartMs ? `, the site's start ${slowerStartMs} ms slower (simulated)` : ''}:`,
);
for (const id of ids) {
  const differences = counted.map(({ judged }) => round(judged[id].site - judged[id].comparison));
  const passed = counted.filter(({ judged }) => judged[id].pass).length;
  console.log(
    `  ${id} (${sideBySideText(SIDE_BY_SIDE[id])}): site − ${COMPARISON_PAGES[SIDE_BY_SIDE[id].against]}, medians: ` +
      `${differences.join(', ')} (median ${round(median(differences))}, ${Math.min(...differences)} to ${Math.max(...differences)}); passed ${passed} of ${counted.length}`,
  );
}
const file = join(
  WORK_DIR,
  `margins-${new Date().toISOString().replace(/[:.]/g, '-')}${slowerStartMs ? `-slower-${slowerStartMs}` : ''}.json`,
);
writeFileSync(file, `${JSON.stringify({ sets, runsPerSet: RUNS_PER_SET, slowerStartMs, recorded }, null, 2)}\n`);
console.log(`Written to ${file}.`);
