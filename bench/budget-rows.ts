/**
 * The at-a-glance table of a run: one row per figure (metric, budget, measured, ratio,
 * pass/fail), by area, and a row that fails for each part that could not be measured.
 */
import {
  BUDGETS,
  COMPARISON_PAGES,
  LIGHTHOUSE_GOOD,
  SIDE_BY_SIDE,
  sideBySideText,
  type SideBySideBudget,
  type SideBySideId,
} from './budgets';
import type { ColdImport } from './cold-import';
import {
  CATEGORY_TITLES,
  factor,
  judge,
  kb,
  longestTaskOf,
  medianLongestTask,
  METRIC_TITLES,
  metricText,
  ms,
  points,
  room,
  signed,
  taskSource,
  times,
} from './format';
import type { HandlerLatency } from './handler-latency';
import type { HostileBodies } from './hostile-bodies';
import type { StampSolveResult } from './stamp-solve';
import type { SpamWaveResult } from './spam-wave';
import { CATEGORIES, slowdownText } from './lighthouse';
import type { ResourceKind } from './page-weight';
import type { BenchResults, LighthouseComparison, Row, Status } from './results';
import { headroom } from './side-by-side';

type NotMeasured = (area: string, metric: string, budget: string, part: string) => Row;

export function buildRows(results: BenchResults): Row[] {
  const notMeasured: NotMeasured = (area, metric, budget, part) => ({
    area,
    metric,
    budget,
    measured: `not measured: ${results.errors[part] ?? 'unknown error'}`.slice(0, 160),
    ratio: '—',
    margin: '—',
    status: 'error',
  });
  return [
    ...(results.lighthouse
      ? lighthouseRows(results.lighthouse)
      : [
          notMeasured(
            'Lighthouse',
            'Lighthouse (4 categories, metrics, LCP and Speed Index ratios, TBT, longest task)',
            'scores, metrics and tasks against the no-script, no-font, release and React-only pages',
            'lighthouse',
          ),
        ]),
    ...pageWeightRows(results, notMeasured),
    ...(results.lambdaBundle
      ? [
          {
            area: 'Lambda',
            metric: 'Bundle, minified (send-contact-email)',
            budget: BUDGETS.lambdaBundleBytes.text,
            measured: `${kb(results.lambdaBundle.bytes)} (gzip ${kb(results.lambdaBundle.gzipBytes)})`,
            ratio: times(results.lambdaBundle.bytes / BUDGETS.lambdaBundleBytes.limit, 'budget'),
            margin: room(results.lambdaBundle.bytes, BUDGETS.lambdaBundleBytes, kb),
            status: judge(results.lambdaBundle.bytes, BUDGETS.lambdaBundleBytes),
          } satisfies Row,
        ]
      : [notMeasured('Lambda', 'Bundle, minified', BUDGETS.lambdaBundleBytes.text, 'lambdaBundle')]),
    ...(results.coldImport
      ? coldStartRows(results.coldImport)
      : [notMeasured('Lambda', 'Cold start', BUDGETS.coldStartVsAnchor.text, 'coldImport')]),
    ...(results.handlerLatency
      ? handlerLatencyRows(results.handlerLatency)
      : [notMeasured('Lambda', 'Handler p99', BUDGETS.handlerVsBareP99At1.text, 'handlerLatency')]),
    ...(results.hostileBodies
      ? [hostileBodiesRow(results.hostileBodies)]
      : [notMeasured('Lambda', 'Heaviest body', BUDGETS.hostileBodyVsMessage.text, 'hostileBodies')]),
    ...(results.stampSolve
      ? stampSolveRows(results.stampSolve)
      : [notMeasured('Contact form', 'Proof-of-work stamp ready on a phone', BUDGETS.stampReadyP50Ms.text, 'stampSolve')]),
    ...(results.spamWave
      ? spamWaveRows(results.spamWave)
      : [notMeasured('Spam wave', 'E-mails per 1,000 spam messages', BUDGETS.waveEmailsPer1000.text, 'spamWave')]),
  ];
}

export function failed(rows: readonly Row[]): Row[] {
  return rows.filter((row) => row.status === 'fail' || row.status === 'error');
}

const lighthouseRow = (fields: Omit<Row, 'area'>): Row => ({ area: 'Lighthouse', ...fields });

function lighthouseRows(lh: LighthouseComparison): Row[] {
  return [...scoreAndMetricRows(lh), ...loadingRows(lh)];
}

/** How a side-by-side budget's figures read: milliseconds, or a score's points. */
const formatOf = (budget: SideBySideBudget) => (budget.unit === 'ms' ? ms : (value: number) => String(Math.round(value * 10) / 10));

/**
 * The margin by which a side-by-side budget passed or missed: its median's distance from the
 * limit (ms, points, or a share of the comparison's median for a factor), or, when a run fell
 * below its floor, that run's distance from the floor.
 */
export function sideBySideMargin(lh: LighthouseComparison, id: SideBySideId): string {
  const judged = lh.sideBySide[id];
  const budget: SideBySideBudget = SIDE_BY_SIDE[id];
  if (judged.missed === 'floor') return `${signed(judged.worstRun - budget.floor!, points)} (a run below the floor)`;
  const inside = headroom(judged, budget);
  if ('factor' in budget.limit) return signed(inside, factor);
  return signed(inside, budget.unit === 'ms' ? ms : points);
}

/** A margin budget's margin, signed as the difference it allows ('+40' for '<=', '−1' for '>='). */
const marginOf = (budget: SideBySideBudget) => {
  if (!('margin' in budget.limit)) throw new Error('Only a margin budget has a margin.');
  return budget.comparison === '<=' ? budget.limit.margin : -budget.limit.margin;
};

/** The side-by-side verdict of one budget as a row: the site's median, the comparison page's, the limit they make and the margin. */
function sideBySideRow(lh: LighthouseComparison, id: SideBySideId, metric: string): Row {
  const judged = lh.sideBySide[id];
  const budget: SideBySideBudget = SIDE_BY_SIDE[id];
  const format = formatOf(budget);
  const floorMissed = judged.missed === 'floor' ? `, a run at ${format(judged.worstRun)}` : '';
  const asFactor = 'factor' in budget.limit ? ` (${factor(judged.site / judged.comparison)})` : '';
  return lighthouseRow({
    metric,
    budget: sideBySideText(budget),
    measured: `${format(judged.site)}${asFactor}${floorMissed}`,
    ratio:
      judged.difference === undefined
        ? `${COMPARISON_PAGES[budget.against]} ${format(judged.comparison)}; limit ${format(judged.limit)}`
        : `${COMPARISON_PAGES[budget.against]} ${format(judged.comparison)}; the rounds’ difference ${signed(judged.difference, format)} (median), limit ${signed(marginOf(budget), format)}`,
    margin: sideBySideMargin(lh, id),
    status: judged.pass ? 'pass' : 'fail',
  });
}

/**
 * Performance against the no-script and no-font pages; the other categories' lowest score;
 * LCP and Speed Index against the no-font page (the typeface's budgets), FCP beside them.
 */
function scoreAndMetricRows(lh: LighthouseComparison): Row[] {
  const row = lighthouseRow;
  return [
    sideBySideRow(lh, 'performanceScore', `Performance (mobile, median of ${lh.runs} runs; lowest ${lh.site.worst.scores.performance})`),
    sideBySideRow(lh, 'performanceVsNoFont', `Performance against the same site without its web font (median of ${lh.runs} runs)`),
    ...CATEGORIES.filter((id) => id !== 'performance').map((id) =>
      row({
        metric: `${CATEGORY_TITLES[id]} (mobile, lowest of ${lh.runs} runs)`,
        budget: BUDGETS.categoryScore.text,
        measured: `${lh.site.worst.scores[id]} (median ${lh.site.scores[id]})`,
        ratio: `no-script page ${lh.baseline.worst.scores[id]}`,
        margin: room(lh.site.worst.scores[id], BUDGETS.categoryScore, points),
        status: judge(lh.site.worst.scores[id], BUDGETS.categoryScore),
      }),
    ),
    row({
      metric: `${METRIC_TITLES.fcp} (median)`,
      budget: `— (good ≤ ${metricText('fcp', LIGHTHOUSE_GOOD.fcp)})`,
      measured: metricText('fcp', lh.site.metrics.fcp),
      ratio: `${times(lh.site.metrics.fcp / lh.baseline.metrics.fcp, 'no-script page')}, ${times(lh.site.metrics.fcp / lh.noFont.metrics.fcp, 'no-font page')}`,
      margin: '—',
      status: 'info',
    }),
    sideBySideRow(
      lh,
      'lcpVsNoFont',
      `LCP against the same site without its web font (medians; good ≤ ${metricText('lcp', LIGHTHOUSE_GOOD.lcp)})`,
    ),
    sideBySideRow(
      lh,
      'speedIndexVsNoFont',
      `Speed Index against the same site without its web font (medians; good ≤ ${metricText('si', LIGHTHOUSE_GOOD.si)})`,
    ),
  ];
}

/** How the page loads against its comparison pages: the LCP ratios, TBT, the longest tasks, CLS, early scripts. */
function loadingRows(lh: LighthouseComparison): Row[] {
  const row = lighthouseRow;
  const longest = longestTaskOf(lh.site);
  const beforePaint = longestTaskOf(lh.site, 'longestTaskBeforePaint');
  return [
    row({
      metric: 'LCP ÷ LCP of the page without scripts (medians)',
      budget: BUDGETS.lcpVsBaseline.text,
      measured: `${ms(lh.site.metrics.lcp)} vs ${ms(lh.baseline.metrics.lcp)}`,
      ratio: times(lh.lcpRatio, 'no-script page'),
      margin: room(lh.lcpRatio, BUDGETS.lcpVsBaseline, factor),
      status: judge(lh.lcpRatio, BUDGETS.lcpVsBaseline),
    }),
    row({
      metric: "LCP ÷ the no-script page's, worst run",
      budget: BUDGETS.lcpVsBaselineEveryRun.text,
      measured: `${ms(lh.site.worst.metrics.lcp)} vs ${ms(lh.baseline.metrics.lcp)}`,
      ratio: times(lh.lcpRatioWorst, 'no-script page'),
      margin: room(lh.lcpRatioWorst, BUDGETS.lcpVsBaselineEveryRun, factor),
      status: judge(lh.lcpRatioWorst, BUDGETS.lcpVsBaselineEveryRun),
    }),
    sideBySideRow(lh, 'tbtMs', `TBT (median; worst run ${ms(lh.site.worst.metrics.tbt)}; no-font page ${ms(lh.noFont.metrics.tbt)})`),
    sideBySideRow(lh, 'tbtVsRelease', 'TBT against the release before the typeface, built from git (medians, judged by round)'),
    sideBySideRow(
      lh,
      'longestTaskMs',
      `Longest main-thread task from the first paint on, its CPU time slowed ${slowdownText(lh.cpu)} (median; worst run ${ms(longest.cpuSimulated)}: ${ms(longest.cpu)} of CPU in ${ms(longest.observed)} as it ran, at ${ms(longest.observedStart)}, ${taskSource(longest.url, lh.site.url)}, Lighthouse's simulation ${ms(longest.simulated)}; no-script page ${ms(medianLongestTask(lh.baseline))}, no-font page ${ms(medianLongestTask(lh.noFont))})`,
    ),
    row({
      metric: `Longest task before the first paint, worst run (${ms(beforePaint.observed)} as it ran, ${taskSource(beforePaint.url, lh.site.url)})`,
      budget: '—',
      measured: ms(beforePaint.cpuSimulated),
      ratio: `no-script page ${ms(longestTaskOf(lh.baseline, 'longestTaskBeforePaint').cpuSimulated)}`,
      margin: '—',
      status: 'info',
    }),
    row({
      metric: `CLS (median; worst run ${lh.site.worst.metrics.cls.toFixed(3)})`,
      budget: BUDGETS.cls.text,
      measured: lh.site.metrics.cls.toFixed(3),
      ratio: `no-script page ${lh.baseline.metrics.cls.toFixed(3)}, no-font page ${lh.noFont.metrics.cls.toFixed(3)}`,
      margin: room(lh.site.metrics.cls, BUDGETS.cls, (value) => value.toFixed(3)),
      status: judge(lh.site.metrics.cls, BUDGETS.cls),
    }),
    row({
      metric: 'Scripts requested before the largest paint, as it ran (most in a run)',
      budget: '—',
      measured: String(Math.max(...lh.site.runs.map((run) => run.scriptsBeforeLcp))),
      ratio: '—',
      margin: '—',
      status: 'info',
    }),
  ];
}

/** First-load JavaScript against the React-only page, the bytes of each kind, and the whole first view. */
function pageWeightRows(results: BenchResults, notMeasured: NotMeasured): Row[] {
  const { pageWeight: weight, reactFloor: floor } = results;
  const row = (fields: Omit<Row, 'area'>): Row => ({ area: 'Page weight', ...fields });
  const scripts: Row[] = weight
    ? [
        row({
          metric: `First-load JS, gzip (${weight.scripts.length} script${weight.scripts.length === 1 ? '' : 's'}, the inline loader included)`,
          budget: BUDGETS.firstLoadJsGzipBytes.text,
          measured: kb(weight.js.gzip),
          ratio: floor ? times(weight.js.gzip / floor.js.gzip, 'React-only page') : '—',
          margin: room(weight.js.gzip, BUDGETS.firstLoadJsGzipBytes, kb),
          status: judge(weight.js.gzip, BUDGETS.firstLoadJsGzipBytes),
        }),
        row({
          metric: 'First-load JS, brotli (what CloudFront sends Chrome)',
          budget: '—',
          measured: kb(weight.js.br),
          ratio: floor ? times(weight.js.br / floor.js.br, 'React-only page') : '—',
          margin: '—',
          status: 'info',
        }),
      ]
    : [notMeasured('Page weight', 'First-load JS, gzip', BUDGETS.firstLoadJsGzipBytes.text, 'pageWeight')];
  const reactFloor: Row = floor
    ? row({
        metric: `React-only page: React ${floor.reactVersion} + react-dom hydrating a trivial tree, gzip`,
        budget: '—',
        measured: `${kb(floor.js.gzip)} (br ${kb(floor.js.br)})`,
        ratio: '—',
        margin: '—',
        status: 'info',
      })
    : notMeasured('Page weight', 'React-only page', '—', 'reactFloor');
  const kinds: [ResourceKind, string][] = [
    ['html', 'HTML'],
    ['css', 'CSS'],
    ['font', 'Fonts'],
    ['image', 'Images'],
  ];
  const firstView: Row[] = weight
    ? [
        ...kinds.map(([kind, title]) =>
          row({
            metric: `${title}, transferred`,
            budget: '—',
            measured: kb(weight.transferred[kind]),
            ratio: '—',
            margin: '—',
            status: 'info',
          }),
        ),
        row({
          metric: `First view, all bytes transferred (${weight.requests} requests)`,
          budget: BUDGETS.firstViewBytes.text,
          measured: kb(weight.totalTransferred),
          ratio: times(weight.totalTransferred / BUDGETS.firstViewBytes.limit, 'budget'),
          margin: room(weight.totalTransferred, BUDGETS.firstViewBytes, kb),
          status: judge(weight.totalTransferred, BUDGETS.firstViewBytes),
        }),
      ]
    : [notMeasured('Page weight', 'First view, all bytes', BUDGETS.firstViewBytes.text, 'pageWeight')];
  return [...scripts, reactFloor, ...firstView];
}

/** The bundle's fresh process against the anchor, and the other cold-start figures for reference. */
function coldStartRows(cold: ColdImport): Row[] {
  const row = (fields: Omit<Row, 'area'>): Row => ({ area: 'Lambda', ...fields });
  return [
    row({
      metric: `Cold start: fresh process importing the bundle, spawn to exit (median of ${cold.samples})`,
      budget: BUDGETS.coldStartVsAnchor.text,
      measured: `${ms(cold.bundle.processMs)} vs ${ms(cold.sdkFromNodeModules.processMs)}`,
      ratio: times(cold.anchorRatio, 'anchor'),
      margin: room(cold.anchorRatio, BUDGETS.coldStartVsAnchor, factor),
      status: judge(cold.anchorRatio, BUDGETS.coldStartVsAnchor),
    }),
    row({
      metric: 'Cold start of an empty module (Node itself), spawn to exit',
      budget: '—',
      measured: ms(cold.empty.processMs),
      ratio: `bundle ${times(cold.processRatio, 'empty')}`,
      margin: '—',
      status: 'info',
    }),
    row({
      metric: 'Cold import alone (`await import`), bundle vs empty module',
      budget: '—',
      measured: `${ms(cold.bundle.importMs)} vs ${ms(cold.empty.importMs)}`,
      ratio: times(cold.importRatio, 'empty'),
      margin: '—',
      status: 'info',
    }),
    row({
      metric: 'Anchor: same handler, AWS SDK from node_modules (import; process)',
      budget: '—',
      measured: `${ms(cold.sdkFromNodeModules.importMs)}; ${ms(cold.sdkFromNodeModules.processMs)}`,
      ratio: times(cold.sdkFromNodeModulesProcessRatio, 'empty'),
      margin: '—',
      status: 'info',
    }),
  ];
}

/** The handler's p99 per concurrency: judged at 1 and at 50 against the bare round trips at the same concurrency. */
export function handlerLatencyRows(latency: HandlerLatency): Row[] {
  return latency.handler.map((stats, i) => {
    const bare = latency.bare[i]!;
    const failed = stats.errors > 0 || bare.errors > 0;
    const ratio = stats.p99 / bare.p99;
    const metric = `Handler p99 at ${stats.concurrency} concurrent (p50 ${ms(stats.p50)}, ${Math.round(stats.throughput)}/s; bare p99 ${ms(bare.p99)})`;
    const row = (budget: string, margin: string, status: Status): Row => ({
      area: 'Lambda',
      metric,
      budget,
      measured: failed ? `${ms(stats.p99)}, ${stats.errors} errors (bare ${bare.errors})` : ms(stats.p99),
      ratio: times(ratio, 'bare'),
      margin: failed ? `${stats.errors + bare.errors} errors` : margin,
      status: failed ? 'fail' : status,
    });
    const budget = { 1: BUDGETS.handlerVsBareP99At1, 50: BUDGETS.handlerVsBareP99At50 }[stats.concurrency];
    return budget ? row(budget.text, room(ratio, budget, factor), judge(ratio, budget)) : row('—', '—', 'info');
  });
}

/** The heaviest of the hostile bodies against a normal message: what one of them holds a function for. */
export function hostileBodiesRow(hostile: HostileBodies): Row {
  const worst = hostile.bodies.find((body) => body.name === hostile.worst.name)!;
  return {
    area: 'Lambda',
    metric: `Heaviest body at its size limit, handler median (of ${hostile.bodies.length}: ${worst.name}, ${worst.status}; a message ${ms(hostile.normal.p50)})`,
    budget: BUDGETS.hostileBodyVsMessage.text,
    measured: ms(worst.p50),
    ratio: times(hostile.worst.ratio, 'a message'),
    margin: room(hostile.worst.ratio, BUDGETS.hostileBodyVsMessage, factor),
    status: judge(hostile.worst.ratio, BUDGETS.hostileBodyVsMessage),
  };
}

/** The stamp worker on a phone's CPU: from its start to the stamp, median and p95, each against its budget. */
export function stampSolveRows(stamp: StampSolveResult): Row[] {
  const of = `${stamp.solves.length} solves, page CPU slowed ${stamp.cpuSlowdown}×, the worker ~1.5×; worker start + challenge + solve`;
  const row = (metric: string, value: number, budget: (typeof BUDGETS)['stampReadyP50Ms' | 'stampReadyP95Ms']): Row => ({
    area: 'Contact form',
    metric,
    budget: budget.text,
    measured: ms(value),
    ratio: times(value / budget.limit, 'budget'),
    margin: room(value, budget, ms),
    status: judge(value, budget),
  });
  return [
    row(`Proof-of-work stamp ready on a phone, median (${of})`, stamp.ready.p50, BUDGETS.stampReadyP50Ms),
    row(`Proof-of-work stamp ready on a phone, p95 (slowest ${ms(stamp.ready.max)})`, stamp.ready.p95, BUDGETS.stampReadyP95Ms),
  ];
}

export function spamWaveRows(wave: SpamWaveResult): Row[] {
  const per1000 = (value: number) => (value * 1000) / wave.messages;
  const of = `${wave.messages} messages in an hour from as many addresses, ${wave.stored} stored, ${wave.held} held; mailBudget ${wave.perHour}/h`;
  const emails = per1000(wave.emails);
  const units = wave.writeUnits / wave.messages;
  return [
    {
      area: 'Spam wave',
      metric: `E-mails per 1,000 spam messages (${of})`,
      budget: BUDGETS.waveEmailsPer1000.text,
      measured: `${emails.toFixed(0)} (SES sends ${per1000(wave.sesSends).toFixed(0)})`,
      ratio: times(emails / BUDGETS.waveEmailsPer1000.limit, 'budget'),
      margin: room(emails, BUDGETS.waveEmailsPer1000, (value) => value.toFixed(0)),
      status: wave.stored === wave.messages ? judge(Math.max(emails, per1000(wave.sesSends)), BUDGETS.waveEmailsPer1000) : 'fail',
    },
    {
      area: 'Spam wave',
      metric: `DynamoDB per spam message (${per1000(wave.dynamoWrites).toFixed(0)} write requests per 1,000)`,
      budget: BUDGETS.waveWriteUnitsPerMessage.text,
      measured: `${units.toFixed(2)} write units`,
      ratio: times(units / BUDGETS.waveWriteUnitsPerMessage.limit, 'budget'),
      margin: room(units, BUDGETS.waveWriteUnitsPerMessage, (value) => value.toFixed(2)),
      status: judge(units, BUDGETS.waveWriteUnitsPerMessage),
    },
  ];
}
