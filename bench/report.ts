/**
 * A run's figures, one row per budget of the design (measured, against what, the limit, the
 * margin it passed or missed by, the verdict), and the report: bench/results.md and
 * results.json, and the same table in the terminal.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { alignedColumns, markdownTable } from '@site/ops/columns';
import { findChromium } from '@site/testing/chromium';
import {
  BUDGETS,
  COMPARISON_PAGES,
  KB,
  SIDE_BY_SIDE,
  sideBySideText,
  withinBudget,
  type Budget,
  type ComparisonPage,
  type SideBySideId,
} from './budgets';
import type { HandlerLatency, IamGateCost, Latency } from './handler';
import type { HostileBodies } from './hostile-bodies';
import type { ColdStart, LambdaBundle } from './lambda';
import { CATEGORIES, type LighthouseRun, type LighthouseSession } from './lighthouse';
import { headroom, READ_FROM_RUN, type SideBySide } from './side-by-side';
import type { NearCopies } from './near-copies';
import type { SpamWave } from './spam-wave';
import type { StampSolves } from './stamp-solve';
import type { TapToPaint } from './tap-to-paint';
import { median } from './stats';

export type PageName = 'site' | ComparisonPage;

export interface BenchResults {
  environment: ReturnType<typeof describeEnvironment>;
  /** size-limit's figure, bytes gzip, and the site's scripts the first view fetched beyond the ones it counts. */
  firstLoadJs?: { bytes: number; uncounted?: string[] };
  lighthouse?: LighthouseSession<PageName> & { sideBySide: Record<SideBySideId, SideBySide> };
  lambdaBundle?: LambdaBundle;
  coldStart?: ColdStart;
  handlerLatency?: HandlerLatency;
  hostileBodies?: HostileBodies;
  iamGate?: IamGateCost;
  stampSolves?: StampSolves;
  tapToPaint?: TapToPaint;
  spamWave?: SpamWave;
  nearCopies?: NearCopies;
  /** What the handler logged it did with each request, by part (a held message sends no e-mail, and costs less). */
  outcomes: Record<string, Record<string, number>>;
  /** A part that could not be measured, with why: it fails the run. */
  errors: Record<string, string>;
  durationSeconds?: number;
}

export interface Row {
  budget: string;
  limit: string;
  measured: string;
  against: string;
  margin: string;
  verdict: 'pass' | 'FAIL' | 'not measured';
}

export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
export const ms = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;
const signed = (room: number, format: (value: number) => string) => `${room < 0 ? '−' : '+'}${format(Math.abs(room))}`;
const points = (value: number) => String(Math.round(value * 10) / 10);

function describeEnvironment() {
  const quiet = (command: string, args: string[]) => {
    try {
      return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'unknown';
    }
  };
  const dirty = quiet('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    date: new Date().toISOString(),
    cpu: `${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores`,
    os: `${platform()} ${release()}`,
    node: process.version,
    chromium: quiet(findChromium(), ['--version']),
    commit: `${quiet('git', ['rev-parse', '--short', 'HEAD'])}${dirty ? ' (with uncommitted changes)' : ''}`,
    /** 1-minute load average at the start, the highest seen (sampled by run.ts) and at the end. */
    load: { start: loadavg()[0]!, max: loadavg()[0]!, end: loadavg()[0]! },
  };
}

export const newResults = (): BenchResults => ({ environment: describeEnvironment(), outcomes: {}, errors: {} });

/** A fixed budget's row: the figure against its limit, the margin in the figure's own terms. */
function fixedRow(budget: string, value: number, limit: Budget, format: (value: number) => string, against = '—'): Row {
  const room = limit.comparison === '>=' ? value - limit.limit : limit.limit - value;
  return {
    budget,
    limit: limit.text,
    measured: format(value),
    against,
    margin: signed(room, format),
    verdict: withinBudget(value, limit) ? 'pass' : 'FAIL',
  };
}

function sideBySideRow(lh: NonNullable<BenchResults['lighthouse']>, id: SideBySideId, budget: string): Row {
  const judged = lh.sideBySide[id];
  const definition = SIDE_BY_SIDE[id];
  const format = definition.unit === 'ms' ? ms : points;
  const page = `${COMPARISON_PAGES[definition.against]} ${format(judged.comparison)}`;
  const room = headroom(judged, definition);
  return {
    budget,
    limit: sideBySideText(definition),
    measured: `${format(judged.site)}${'factor' in definition.limit ? ` (${times(judged.site / judged.comparison)})` : ''}${judged.missed === 'floor' ? `, a run at ${judged.worstRun}` : ''}`,
    against: judged.difference === undefined ? page : `${page}; the rounds’ difference ${signed(judged.difference, format)} (median)`,
    margin: 'factor' in definition.limit ? signed(room, times) : signed(room, format),
    verdict: judged.pass ? 'pass' : 'FAIL',
  };
}

function lighthouseRows(lh: NonNullable<BenchResults['lighthouse']>): Row[] {
  const { site, noScript } = lh.runs;
  const medianOf = (runs: LighthouseRun[], read: (run: LighthouseRun) => number) => median(runs.map(read));
  const lcpNoScript = medianOf(noScript, (run) => run.metrics.lcp);
  const lcpRatio = medianOf(site, (run) => run.metrics.lcp) / lcpNoScript;
  const worstLcpRatio = Math.max(...site.map((run) => run.metrics.lcp)) / lcpNoScript;
  return [
    sideBySideRow(
      lh,
      'performanceScore',
      `Performance, mobile (median of ${site.length} runs; lowest ${Math.min(...site.map((run) => run.scores.performance))})`,
    ),
    ...(['accessibility', 'best-practices', 'seo'] as const).map((id) =>
      fixedRow(`Lighthouse ${id}, lowest of the runs`, Math.min(...site.map((run) => run.scores[id])), BUDGETS.categoryScore, points),
    ),
    fixedRow('LCP ÷ the no-script page’s (medians)', lcpRatio, BUDGETS.lcpVsBaseline, times, `no-script page ${ms(lcpNoScript)}`),
    fixedRow('LCP ÷ the no-script page’s median, worst run', worstLcpRatio, BUDGETS.lcpVsBaselineEveryRun, times),
    sideBySideRow(lh, 'tbtMs', 'TBT against the no-script page, by round'),
    sideBySideRow(lh, 'tbtVsRelease', 'TBT against the release before the typeface, by round'),
    sideBySideRow(lh, 'longestTaskMs', `Longest main-thread task from the first paint on, its CPU time slowed ${lh.slowdown}× (median)`),
    sideBySideRow(lh, 'lcpVsNoFont', 'The typeface: LCP against the no-font page'),
    sideBySideRow(lh, 'speedIndexVsNoFont', 'The typeface: Speed Index against the no-font page'),
    sideBySideRow(lh, 'performanceVsNoFont', 'The typeface: Performance against the no-font page'),
    fixedRow(
      'First view, all bytes transferred (median)',
      medianOf(site, (run) => run.metrics.bytes),
      BUDGETS.firstViewBytes,
      kb,
    ),
    fixedRow(
      `CLS (median; worst run ${Math.max(...site.map((run) => run.metrics.cls)).toFixed(3)})`,
      medianOf(site, (run) => run.metrics.cls),
      BUDGETS.cls,
      (value) => value.toFixed(3),
    ),
  ];
}

/** Bytes as counted, to the byte: a budget in kilobytes rounded to one decimal read 85.0 KB for 85,158 B. */
const bytes = (value: number) => `${value.toLocaleString('en')} B`;

/** The count is the loader, the entry index.html names and its static imports; a script the first view fetched beyond them would go uncounted, and fails the row. */
function firstLoadRow({ bytes: size, uncounted = [] }: NonNullable<BenchResults['firstLoadJs']>): Row {
  const row = fixedRow('First-load JavaScript, the inline loader included (size-limit)', size, BUDGETS.firstLoadJsGzipBytes, bytes);
  return uncounted.length
    ? { ...row, against: `also fetched on the first view, uncounted: ${uncounted.join(', ')}`, verdict: 'FAIL' }
    : row;
}

/** A latency row fails when any call of either side failed, whatever the times: a failed call is no latency to be proud of. */
function withFailures(row: Row, ...sides: Latency[]): Row {
  const failed = sides.reduce((sum, side) => sum + side.errors, 0);
  const first = sides.find((side) => side.firstError)?.firstError;
  return failed ? { ...row, measured: `${row.measured}; ${failed} calls failed, first: ${first}`.slice(0, 240), verdict: 'FAIL' } : row;
}

const notMeasured = (budget: string, limit: Budget | { text: string }, why: string): Row => ({
  budget,
  limit: limit.text,
  measured: `not measured: ${why}`.slice(0, 200),
  against: '—',
  margin: '—',
  verdict: 'not measured',
});

type Part = Exclude<keyof BenchResults, 'environment' | 'outcomes' | 'errors' | 'durationSeconds'>;

function handlerRows(latency: HandlerLatency): Row[] {
  return latency.handler.flatMap((handler, i) => {
    const bare = latency.bare[i]!;
    const budget = { 1: BUDGETS.handlerVsBareP99At1, 50: BUDGETS.handlerVsBareP99At50 }[handler.concurrency];
    const what = `Handler p99 at ${handler.concurrency} concurrent (${ms(handler.p99)}; p50 ${ms(handler.p50)}, ${Math.round(handler.throughput)}/s)`;
    return budget
      ? [withFailures(fixedRow(what, handler.p99 / bare.p99, budget, times, `bare round trips p99 ${ms(bare.p99)}`), handler, bare)]
      : [];
  });
}

/** Every message must have been stored, and SES may have sent no more than the firm received. */
function waveRows(wave: SpamWave): Row[] {
  const emails = `E-mails per 1,000 spam messages (${wave.held} held; SES sends ${wave.sesSends})`;
  const perThousand = Math.max(wave.emails, wave.sesSends) * (1000 / wave.messages);
  return [
    wave.stored === wave.messages
      ? fixedRow(emails, perThousand, BUDGETS.waveEmailsPer1000, (value) => value.toFixed(0))
      : notMeasured('E-mails per 1,000 spam messages', BUDGETS.waveEmailsPer1000, `${wave.stored} of ${wave.messages} stored`),
    fixedRow(
      `DynamoDB write units per spam message (${wave.dynamoWrites} writes)`,
      wave.writeUnits / wave.messages,
      BUDGETS.waveWriteUnitsPerMessage,
      (value) => value.toFixed(2),
    ),
  ];
}

/** One row per budget; `partial`: only the parts that ran (`--only`), else a part that did not is a row that fails. */
export function buildRows(results: BenchResults, partial = false): Row[] {
  const { errors } = results;
  /** A part's rows from its figures; without them, one row that says why (none for a part `--only` left out). */
  const rowsOf = <P extends Part>(
    part: P,
    budget: string,
    limit: Budget | { text: string },
    rows: (figures: NonNullable<BenchResults[P]>) => Row[],
  ) => {
    const figures = results[part];
    if (figures) return rows(figures);
    return partial && !errors[part] ? [] : [notMeasured(budget, limit, errors[part] ?? 'its part did not run')];
  };
  return [
    ...rowsOf('firstLoadJs', 'First-load JavaScript', BUDGETS.firstLoadJsGzipBytes, (figures) => [firstLoadRow(figures)]),
    ...rowsOf(
      'lighthouse',
      'Lighthouse: scores, LCP, TBT, longest task, the typeface, first view, CLS',
      { text: 'the Lighthouse budgets' },
      lighthouseRows,
    ),
    ...rowsOf('lambdaBundle', 'Lambda bundle', BUDGETS.lambdaBundleBytes, (bundle) => [
      fixedRow(`Lambda bundle, minified (gzip ${kb(bundle.gzipBytes)})`, bundle.bytes, BUDGETS.lambdaBundleBytes, kb),
    ]),
    ...rowsOf('coldStart', 'Cold start', BUDGETS.coldStartVsAnchor, (cold) => [
      fixedRow(
        `Cold start, spawn to exit (median of ${cold.samples}: ${ms(cold.bundle)}; Node alone ${ms(cold.empty)})`,
        cold.ratio,
        BUDGETS.coldStartVsAnchor,
        times,
        `SDK from node_modules ${ms(cold.sdkFromNodeModules)}`,
      ),
    ]),
    ...rowsOf('handlerLatency', 'Handler p99', BUDGETS.handlerVsBareP99At1, handlerRows),
    ...rowsOf('hostileBodies', 'The heaviest body', BUDGETS.hostileBodyVsMessage, ({ worst, bodies }) => [
      fixedRow(
        `The heaviest body at its size limit, handler median (${worst.name})`,
        worst.ratio,
        BUDGETS.hostileBodyVsMessage,
        times,
        `a message ${ms(bodies[0]!.p50)}`,
      ),
    ]),
    ...rowsOf('iamGate', 'The IAM gate', BUDGETS.iamGateP99, ({ gated, ungated, ratio }) => [
      withFailures(
        fixedRow(
          `Handler p99 with the IAM gate, one at a time (${ms(gated.p99)}; p50 ${ms(gated.p50)})`,
          ratio,
          BUDGETS.iamGateP99,
          times,
          `without the gate p99 ${ms(ungated.p99)}, p50 ${ms(ungated.p50)}`,
        ),
        gated,
        ungated,
      ),
    ]),
    ...rowsOf('stampSolves', 'Proof-of-work stamp', BUDGETS.stampReadyP50Ms, ({ solves, ready, solveP50 }) => [
      fixedRow(`Proof-of-work stamp ready on a phone, median of ${solves}`, ready.p50, BUDGETS.stampReadyP50Ms, ms),
      fixedRow(`… p95 (slowest ${ms(ready.max)}; the solve alone, median ${ms(solveP50)})`, ready.p95, BUDGETS.stampReadyP95Ms, ms),
    ]),
    ...rowsOf('tapToPaint', "A tap on the phone's menu to the next paint", BUDGETS.tapToPaintP50Ms, (tap) => [
      fixedRow(
        `The phone's menu, a tap at the first paint to the next paint (median of ${tap.loads} loads; slowest ${ms(tap.atFirstPaint.max)})`,
        tap.atFirstPaint.p50,
        BUDGETS.tapToPaintP50Ms,
        ms,
        `tapped ${ms(tap.tapAfterFirstPaintMs)} after the first paint, before the app`,
      ),
      fixedRow(`… a tap after hydration (slowest ${ms(tap.afterHydration.max)})`, tap.afterHydration.p50, BUDGETS.tapToPaintP50Ms, ms),
    ]),
    ...rowsOf('spamWave', 'A spam wave', BUDGETS.waveEmailsPer1000, waveRows),
    ...rowsOf('nearCopies', 'Near-copies among ordinary Dutch messages', BUDGETS.nearCopyFalsePairs, (near) => [
      fixedRow(
        `Near-copies among ordinary Dutch messages (${near.collisions} of ${near.pairs} pairs; ${near.messages} messages, ${near.keys} keys)`,
        near.collisions / near.pairs,
        BUDGETS.nearCopyFalsePairs,
        (value) => `${(value * 100).toFixed(2)} %`,
      ),
    ]),
  ];
}

type Figure = [string, (run: LighthouseRun) => number, (value: number) => string];

/** How each side-by-side budget is named in the table of runs. */
const RUN_LABELS: Record<SideBySideId, string> = {
  performanceScore: 'Performance',
  tbtMs: 'TBT',
  longestTaskMs: 'Longest task from the first paint',
  lcpVsNoFont: 'LCP (the typeface)',
  speedIndexVsNoFont: 'Speed Index (the typeface)',
  performanceVsNoFont: 'Performance (the typeface)',
  tbtVsRelease: 'TBT against the release',
};

/** The pages' medians, the main thread's time by kind of work, and each run of the side-by-side budgets. */
function lighthouseSection(lh: NonNullable<BenchResults['lighthouse']>): string[] {
  const pages = Object.keys(lh.runs) as PageName[];
  const header = ['', ...pages.map((page) => (page === 'site' ? 'site' : COMPARISON_PAGES[page]))];
  const medianOf = (page: PageName, read: (run: LighthouseRun) => number) => median(lh.runs[page].map(read));
  const figures: Figure[] = [
    ...CATEGORIES.map((id): Figure => [id, (run) => run.scores[id], points]),
    ...(['fcp', 'lcp', 'tbt', 'si'] as const).map((id): Figure => [id.toUpperCase(), (run) => run.metrics[id], ms]),
    ['longest task from the first paint, CPU slowed', (run) => run.longestTask, ms],
    ['long tasks (Lighthouse’s)', (run) => run.longTasks, String],
    ['bytes transferred', (run) => run.metrics.bytes, kb],
  ];
  const groups = [...new Set(lh.runs.site.flatMap((run) => Object.keys(run.mainThread)))];
  const runsOf = (id: SideBySideId, page: PageName) =>
    lh.runs[page]
      .map(READ_FROM_RUN[id])
      .map(SIDE_BY_SIDE[id].unit === 'ms' ? ms : points)
      .join(', ');
  const bytes = Object.entries(lh.runs.site[0]!.bytesByType).filter(([, size]) => size > 0);
  return [
    `## Lighthouse\n\n${lh.runs.site.length} counted runs a page after one uncounted round, interleaved; CPU slowed ${lh.slowdown}× (this host's benchmark index ${Math.round(lh.benchmarkIndex)} against 2,000, the host Lighthouse slows 4×). Medians:\n`,
    markdownTable(
      header,
      figures.map(([label, read, format]) => [label, ...pages.map((page) => format(medianOf(page, read)))]),
    ),
    '\nThe main thread’s time by kind of work (`mainthread-work-breakdown`, medians, as Lighthouse simulates it):\n',
    markdownTable(
      header,
      groups.map((group) => [group, ...pages.map((page) => ms(medianOf(page, (run) => run.mainThread[group] ?? 0)))]),
    ),
    '\nEach run of the budgets judged side by side, in the order of the rounds:\n',
    markdownTable(
      ['budget', 'site', 'the page beside it'],
      (Object.keys(SIDE_BY_SIDE) as SideBySideId[]).map((id) => {
        const against = SIDE_BY_SIDE[id].against;
        return [RUN_LABELS[id], runsOf(id, 'site'), `${COMPARISON_PAGES[against]}: ${runsOf(id, against)}`];
      }),
    ),
    `\nThe site's first view by kind (\`resource-summary\`): ${bytes.map(([type, size]) => `${type} ${kb(size)}`).join(', ')}.`,
  ];
}

const countOf = ([outcome, count]: [string, number]) => `${outcome} ×${count}`;
const verdictCell = (row: Row) => (row.verdict === 'pass' ? 'pass' : `**${row.verdict}**`);

export function renderMarkdown(results: BenchResults, rows: Row[]): string {
  const env = results.environment;
  const missed = rows.filter((row) => row.verdict !== 'pass').length;
  const busy =
    env.load.max > cpus().length
      ? ` **The load average reached ${env.load.max.toFixed(1)} on ${cpus().length} cores**: TBT, Performance and the timed Lambda figures come out higher than on a quiet machine; run again before acting on a miss in those.`
      : '';
  return [
    `# Benchmark results\n\n\`npm run bench\` on ${env.date.slice(0, 10)}, commit ${env.commit}, ${Math.round(results.durationSeconds ?? 0)} s: ${missed ? `${missed} budget${missed === 1 ? '' : 's'} missed or not measured` : 'every budget met'}. The budgets and what each protects: [docs/design.md](../docs/design.md#budgets); the margin is what a budget passed (+) or missed (−) by, in its own terms.${busy}\n`,
    markdownTable(
      ['budget', 'limit', 'measured', 'against', 'margin', 'verdict'],
      rows.map((row) => [row.budget, row.limit, row.measured, row.against, row.margin, verdictCell(row)]),
    ),
    ...(results.lighthouse ? ['', ...lighthouseSection(results.lighthouse)] : []),
    ...(results.lighthouse?.warnings.length ? [`\nLighthouse: ${results.lighthouse.warnings.join('; ')}.`] : []),
    `\nWhat the handler did with the requests of each part (its log's outcomes): ${Object.entries(results.outcomes)
      .map(([part, outcomes]) => `${part}: ${Object.entries(outcomes).map(countOf).join(', ') || 'none'}`)
      .join('; ')}.`,
    '\n## Environment\n',
    markdownTable(
      ['', ''],
      [
        ['CPU', env.cpu],
        ['OS, Node.js', `${env.os}, ${env.node}`],
        ['Chromium', env.chromium],
        [
          'Lighthouse',
          results.lighthouse
            ? `${results.lighthouse.lighthouseVersion}, benchmark index ${Math.round(results.lighthouse.benchmarkIndex)} (CPU slowed ${results.lighthouse.slowdown}×)`
            : '—',
        ],
        [
          'load average (1 min)',
          `${env.load.start.toFixed(2)} at the start, ${env.load.max.toFixed(2)} at most, ${env.load.end.toFixed(2)} at the end`,
        ],
      ],
    ),
    '\nEvery figure of the run: [results.json](results.json).\n',
  ].join('\n');
}

export function renderText(rows: Row[]): string {
  return alignedColumns([
    ['budget', 'limit', 'measured', 'against', 'margin', ''],
    ...rows.map((row) => [row.budget, row.limit, row.measured, row.against, row.margin, row.verdict]),
  ]);
}

export function writeReports(dir: string, results: BenchResults, rows: Row[]): void {
  writeFileSync(join(dir, 'results.md'), renderMarkdown(results, rows));
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify({ rows, ...results }, null, 2)}\n`);
}
