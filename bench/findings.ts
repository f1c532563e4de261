/** What each missed budget comes from, worked out from the measurements themselves: the notes under the table. */
import { failed } from './budget-rows';
import { BUDGETS, SIDE_BY_SIDE } from './budgets';
import { CATEGORY_TITLES, kb, longestTaskOf, ms, taskSource } from './format';
import { CATEGORIES, slowdownText, type LighthouseSummary } from './lighthouse';
import { kindOf } from './page-weight';
import type { BenchResults, LighthouseComparison, Row } from './results';

export function findings(results: BenchResults, rows: readonly Row[]): string[] {
  const notes = [
    ...busyMachine(results),
    ...(results.lighthouse ? lighthouseNotes(results.lighthouse) : []),
    ...pageWeightNotes(results),
    ...lambdaNotes(results),
    ...Object.entries(results.errors).map(([part, message]) => `**${part} not measured**: ${message}`),
  ];
  if (failed(rows).length === 0) notes.push('Every budget is met.');
  return notes;
}

function busyMachine({ environment: env }: BenchResults): string[] {
  const busiest = env.loadAverage.max ?? env.loadAverage.start;
  if (busiest <= env.cores) return [];
  return [
    `**The machine was busy**: the load average reached ${busiest} on ${env.cores} cores during this run, so other work competed for the CPU. ` +
      'Figures timed by the clock (TBT and the Performance score, which Lighthouse builds on task lengths as they ran; cold import; handler latency) ' +
      'come out higher than on a quiet machine: rerun before acting on a miss in those. The longest task is judged by its CPU time and holds.',
  ];
}

function lighthouseNotes(lh: LighthouseComparison): string[] {
  const notes = categoryNotes(lh);
  if (lh.lcpRatio > BUDGETS.lcpVsBaseline.limit || lh.lcpRatioWorst > BUDGETS.lcpVsBaselineEveryRun.limit) notes.push(lcpNote(lh));
  const { lcpVsNoFont, speedIndexVsNoFont, performanceVsNoFont } = lh.sideBySide;
  if (!lcpVsNoFont.pass || !speedIndexVsNoFont.pass || !performanceVsNoFont.pass) notes.push(typefaceNote(lh));
  const { tbtMs: tbt, tbtVsRelease, longestTaskMs: longestMedian } = lh.sideBySide;
  if (!tbt.pass || !tbtVsRelease.pass || !longestMedian.pass) {
    const longest = longestTaskOf(lh.site);
    const runs = (summary: LighthouseSummary) =>
      summary.runs.map((run) => `${ms(run.metrics.tbt)} / ${ms(run.longestTask.cpuSimulated)}`).join(', ');
    notes.push(
      `**TBT ${ms(tbt.site)} (limit ${ms(tbt.limit)}; ${ms(tbtVsRelease.limit)} against the release before the typeface), longest task ${ms(longestMedian.site)} (limit ${ms(longestMedian.limit)}), medians; ${ms(longest.cpuSimulated)} in the worst run.** ` +
        `TBT / longest task, each run: site ${runs(lh.site)}; no-script page ${runs(lh.baseline)}; no-font page ${runs(lh.noFont)}; release before the typeface (${lh.releaseCommit}) ${runs(lh.release)}; React-only page ${runs(lh.reactOnly)}. ` +
        `The site's longest from the first paint on took ${ms(longest.cpu)} of CPU in ${ms(longest.observed)} at ${ms(longest.observedStart)} (${taskSource(longest.url, lh.site.url)}); ` +
        `the React-only page's longest took ${ms(longestTaskOf(lh.reactOnly).cpu)} of CPU. ` +
        `Lighthouse simulates every main-thread task ${slowdownText(lh.cpu)} slower (layout half that), so a task over ${ms(50 / lh.cpu.slowdown)} of CPU here is a long task there. ` +
        'See `long-tasks` and `bootup-time` in bench/.work/lighthouse-site.json, lighthouse-release.json and lighthouse-reactOnly.json.',
    );
  }
  if (lh.site.metrics.cls >= BUDGETS.cls.limit)
    notes.push(
      `**CLS ${lh.site.metrics.cls.toFixed(3)}**: see \`layout-shifts\` in the Lighthouse report; the no-script page has ${lh.baseline.metrics.cls.toFixed(3)}.`,
    );
  return notes;
}

/** Performance off the no-script page's, and each other category below 100 in its worst run, with the audits that lost the points. */
function categoryNotes(lh: LighthouseComparison): string[] {
  const performance = lh.sideBySide.performanceScore;
  const missed = CATEGORIES.filter((id) =>
    id === 'performance' ? !performance.pass : lh.site.worst.scores[id] < BUDGETS.categoryScore.limit,
  );
  return missed.map((id) => {
    const audits = lh.site.failedAudits
      .filter((audit) => audit.category === id)
      .map((audit) => `\`${audit.id}\` (${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ''})`);
    const perRun = (summary: LighthouseSummary) => summary.runs.map((run) => run.scores[id]).join(', ');
    if (id !== 'performance')
      return `**${CATEGORY_TITLES[id]} ${lh.site.worst.scores[id]} in the worst run** (runs: ${perRun(lh.site)}): points lost on ${audits.join(', ') || 'metrics only'}.`;
    const why =
      performance.missed === 'floor'
        ? `a run at ${performance.worstRun}, below the floor of ${SIDE_BY_SIDE.performanceScore.floor}`
        : `median ${performance.site} against the no-script page's ${performance.comparison} (limit ${performance.limit})`;
    return (
      `**Performance: ${why}** (runs: site ${perRun(lh.site)}; no-script page ${perRun(lh.baseline)}): points lost on ${audits.join(', ') || 'metrics only'}; ` +
      `TBT across the runs: ${lh.site.runs.map((run) => ms(run.metrics.tbt)).join(', ')} (no-script page: ${lh.baseline.runs.map((run) => ms(run.metrics.tbt)).join(', ')}).`
    );
  });
}

/** What the typeface cost against the same site without it: when its files were asked for, against the observed paint. */
function typefaceNote(lh: LighthouseComparison): string {
  const { lcpVsNoFont: lcp, speedIndexVsNoFont: si, performanceVsNoFont: performance } = lh.sideBySide;
  const { observed } = lh.site;
  const fonts = lh.site.requests.filter((request) => kindOf(request) === 'font');
  const when = fonts
    .map(
      (request) =>
        `${new URL(request.url).pathname} (${kb(request.transferSize)}) asked for at ${ms(request.networkRequestTime)}, there at ${ms(request.networkEndTime)}`,
    )
    .join('; ');
  return (
    `**The typeface against the same site without it** (medians): LCP ${ms(lcp.site)} vs ${ms(lcp.comparison)} (${(lcp.site / lcp.comparison).toFixed(2)}×, limit ${ms(lcp.limit)}), ` +
    `Speed Index ${ms(si.site)} vs ${ms(si.comparison)} (${(si.site / si.comparison).toFixed(2)}×, limit ${ms(si.limit)}), ` +
    `Performance ${performance.site} vs ${performance.comparison}. ` +
    `As it ran (observed FCP ${ms(observed.fcp)}, LCP ${ms(observed.lcp)}): ${when || 'no font was fetched'}. ` +
    "Lantern counts every request that ended before the observed largest paint into the simulated one, so a font that arrives before Chrome's first paint " +
    'on loopback costs its whole download on slow 4G, whatever its display strategy; one asked for after the paint costs the relayout when it arrives, which Speed Index sees.'
  );
}

/** Why the LCP is over the no-script page's: the scripts requested before Chrome's first paint. */
function lcpNote(lh: LighthouseComparison): string {
  const { observed } = lh.site;
  const scripts = lh.site.requests.filter((request) => kindOf(request) === 'js');
  const before = scripts.filter((request) => request.networkRequestTime < observed.lcp);
  const after = scripts.filter((request) => request.networkRequestTime >= observed.lcp);
  const list = (requests: typeof scripts) =>
    requests
      .map((request) => `${new URL(request.url).pathname} (${kb(request.transferSize)}, ${request.priority ?? '?'} priority)`)
      .join(', ');
  let why =
    `**LCP ${lh.lcpRatio.toFixed(2)}× the no-script page, ${lh.lcpRatioWorst.toFixed(2)}× in the worst run** (${ms(lh.site.metrics.lcp)} vs ${ms(lh.baseline.metrics.lcp)}; ` +
    `FCP ${ms(lh.site.metrics.fcp)} vs ${ms(lh.baseline.metrics.fcp)}): the two pages differ only by their scripts. `;
  if (before.length) {
    why +=
      `On loopback ${list(before)} ${before.length === 1 ? 'was' : 'were'} requested before Chrome's first paint (observed LCP ${ms(observed.lcp)}). ` +
      `Lantern simulates slow 4G and a ${slowdownText(lh.cpu)} slower CPU on that observed order, and its LCP estimate counts every request begun before the observed LCP, ` +
      'whatever its priority, and every layout — so that download and its evaluation are put ahead of the largest paint. ';
  }
  if (after.length)
    why += `${list(after)} ${after.length === 1 ? 'starts' : 'start'} after the observed paint and ${after.length === 1 ? 'is' : 'are'} not counted. `;
  return (
    why +
    'What moves it: fewer script bytes and requests begun before the first paint. ' +
    'A module script does not block rendering in a real browser, but this estimate is the metric the budget is set on.'
  );
}

function pageWeightNotes({ pageWeight: weight, reactFloor: floor }: BenchResults): string[] {
  const notes: string[] = [];
  if (weight && weight.js.gzip > BUDGETS.firstLoadJsGzipBytes.limit) {
    const own = floor ? weight.js.gzip - floor.js.gzip : undefined;
    notes.push(
      `**First-load JS ${kb(weight.js.gzip)} gzip** (${weight.scripts.map((s) => `${s.path} ${kb(s.gzip)}`).join(', ')}): ` +
        (own !== undefined
          ? `React + react-dom alone are ${kb(floor!.js.gzip)}, so the site's own code and other libraries add ${kb(own)}; `
          : '') +
        `the budget leaves ${kb(BUDGETS.firstLoadJsGzipBytes.limit - (floor?.js.gzip ?? 0))} above the floor.`,
    );
  }
  if (weight && weight.totalTransferred > BUDGETS.firstViewBytes.limit) {
    const parts = Object.entries(weight.transferred)
      .filter(([, bytes]) => bytes > 0)
      .map(([kind, bytes]) => `${kind} ${kb(bytes)}`);
    notes.push(`**First view ${kb(weight.totalTransferred)}**: ${parts.join(', ')}.`);
  }
  if (weight?.thirdParty.length) notes.push(`**Third-party requests** (the design allows none): ${weight.thirdParty.join(', ')}.`);
  return notes;
}

/** The two Lambda budgets read as ratios to an anchor, said each run, and any handler outcome other than a stored, e-mailed message. */
function lambdaNotes({ coldImport: cold, handlerLatency: latency }: BenchResults): string[] {
  const notes: string[] = [];
  if (cold) {
    notes.push(
      `**Cold start is budgeted against the anchor measured in the same run**: the bundle's fresh process takes ${ms(cold.bundle.processMs)}, ` +
        `the same handler with the SDK from node_modules ${ms(cold.sdkFromNodeModules.processMs)} (${cold.anchorRatio.toFixed(2)}×). ` +
        `Node itself (an empty module) takes ${ms(cold.empty.processMs)} of either; a ratio to it would mostly measure Node's start-up, ` +
        `which halved from Node 20 to Node 24. The import alone: bundle ${ms(cold.bundle.importMs)}, anchor ${ms(cold.sdkFromNodeModules.importMs)}.`,
    );
  }
  if (!latency) return notes;
  const at50 = latency.handler.find((stats) => stats.concurrency === 50);
  const bare50 = latency.bare.find((stats) => stats.concurrency === 50);
  if (at50 && bare50) {
    notes.push(
      `**Handler at 50 concurrent is budgeted against the bare round trips** (p99 ${ms(at50.p99)}, bare PutItem + SendEmail p99 ${ms(bare50.p99)} at ${Math.round(bare50.throughput)}/s). ` +
        `The design's ≤ 25 ms at 50 concurrent cannot be met against these emulators: they and the handler share one Node event loop, so 50 calls in flight queue ` +
        `behind each other, and by Little's law the mean wait is 50 ÷ throughput (${ms((50 / bare50.throughput) * 1000)} for the bare round trips alone). ` +
        `The handler makes 7 round trips (idempotency claim, visitor count, the text's senders, mail budget, store, SendEmail, status update) to the bare 2. ` +
        `In AWS, 50 concurrent requests run in 50 function instances with one request each, which the 1-concurrent row measures, against the bare round trips at 1 concurrent.`,
    );
  }
  const unexpected = Object.entries(latency.outcomes).filter(([outcome]) => outcome !== 'stored_and_emailed');
  if (unexpected.length)
    notes.push(`**Handler outcomes other than stored_and_emailed**: ${unexpected.map(([o, n]) => `${o} ×${n}`).join(', ')}.`);
  return notes;
}
