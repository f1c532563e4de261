/**
 * Lighthouse on the local stack, mobile form factor, simulated throttling: Lighthouse's slow 4G
 * and a CPU slowdown calibrated to the host (calibratedSlowdown).
 * Pages are measured in turn (site, baseline, site, …) so that anything slowing the machine
 * for a while hits both alike and the ratio stays fair, after a round that is not counted
 * (see runLighthouse).
 *
 * The stack is served over http://127.0.0.1. Lighthouse counts 127.0.0.1 as a secure origin
 * (its SECURE_LOCALHOST_DOMAINS), so `is-on-https` passes and `redirects-http` is "not
 * applicable" and left out of Best Practices' weighting; both audits' outcomes are kept in
 * the results so the report shows this rather than assumes it.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result, type RunnerResult } from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';
import { LoadSimulator } from 'lighthouse/core/computed/load-simulator.js';
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';
import { NetworkRecords } from 'lighthouse/core/computed/network-records.js';
import { PageDependencyGraph } from 'lighthouse/core/computed/page-dependency-graph.js';
import { getAttributableURLForTask, getJavaScriptURLs } from 'lighthouse/core/lib/tracehouse/task-summary.js';
import { CHROMIUM_FLAGS, findChromium } from '@site/testing/chromium';
import { median } from './stats';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof CATEGORIES)[number];

export const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;
export type MetricId = keyof typeof METRICS;

/** One row of Lighthouse's `network-requests` audit. */
export interface NetworkRequest {
  url: string;
  statusCode: number;
  mimeType: string;
  resourceType?: string;
  transferSize: number;
  resourceSize: number;
  priority?: string;
  /** When the request was sent and when the response had fully arrived, ms after navigation start, unthrottled (as observed). */
  networkRequestTime: number;
  networkEndTime: number;
}

export interface FailedAudit {
  category: CategoryId;
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
}

/** The top-level main-thread task of a run that took the main thread's CPU longest. */
export interface LongestTask {
  /**
   * Its CPU time slowed as Lighthouse slows a task (4×, layout 2×), ms: what it costs a phone
   * that much slower, whatever else the host was running. The budget is judged on this.
   */
  cpuSimulated: number;
  /** Its length as Lighthouse simulates it (its length as it ran, slowed; what TBT and `long-tasks` use), ms. */
  simulated: number;
  /** Its length as it ran, unthrottled, ms. */
  observed: number;
  /** The main thread's CPU time in it as it ran (the trace's thread time), ms. */
  cpu: number;
  /** When it started, ms after navigation start, as it ran. */
  observedStart: number;
  /** The script it is attributed to, or Lighthouse's "Unattributable" (the browser's own work). */
  url: string;
}

export interface LighthouseRun {
  scores: Record<CategoryId, number>;
  metrics: Record<MetricId, number>;
  /** The longest task from the first contentful paint on: while the visitor can act, as TBT counts. */
  longestTask: LongestTask;
  /** The longest task before the first contentful paint: the browser loading, parsing and laying out the HTML. */
  longestTaskBeforePaint: LongestTask;
  /** Scripts whose request began before the largest contentful paint, as it ran. */
  scriptsBeforeLcp: number;
  /** The page's performance marks (user timings), ms after navigation start, as it ran. */
  marks: Record<string, number>;
}

export interface LighthouseSummary {
  url: string;
  runs: LighthouseRun[];
  /** Median of the runs, per score and per metric (ms; CLS unitless). */
  scores: Record<CategoryId, number>;
  metrics: Record<MetricId, number>;
  /** The worst of the runs: the lowest score, the highest metric. */
  worst: { scores: Record<CategoryId, number>; metrics: Record<MetricId, number> };
  /** From the run whose LCP is nearest the median: network requests and what cost points. */
  requests: NetworkRequest[];
  failedAudits: FailedAudit[];
  /**
   * What Chrome actually did, unthrottled on loopback, in that run. Lantern builds its
   * simulated slow-4G timings from this order of events: whatever finished before the
   * observed paint is assumed to be needed for it.
   */
  observed: { fcp: number; lcp: number; domContentLoaded: number; load: number };
  /** The audits that depend on the scheme, to show how plain HTTP on loopback is scored. */
  schemeAudits: Record<'is-on-https' | 'redirects-http' | 'has-hsts', number | null>;
  runWarnings: string[];
  benchmarkIndex?: number;
  lighthouseVersion: string;
  userAgent: string;
}

function scoresOf(lhr: Result): Record<CategoryId, number> {
  return Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = lhr.categories[id]?.score;
      // A category Lighthouse could not score counts as 0: it is a failure, not a pass.
      return [id, score == null ? 0 : Math.round(score * 100)];
    }),
  ) as Record<CategoryId, number>;
}

function metricsOf(lhr: Result): Record<MetricId, number> {
  return Object.fromEntries(
    Object.entries(METRICS).map(([key, auditId]) => {
      const value = lhr.audits[auditId]?.numericValue;
      if (value === undefined)
        throw new Error(`Lighthouse gave no ${auditId} for ${lhr.finalDisplayedUrl}: ${lhr.audits[auditId]?.errorMessage ?? 'no value'}`);
      return [key, value];
    }),
  ) as Record<MetricId, number>;
}

function requestsOf(lhr: Result): NetworkRequest[] {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkRequest[] } | undefined;
  return (details?.items ?? []).map(
    ({ url, statusCode, mimeType, resourceType, priority, transferSize, resourceSize, networkRequestTime, networkEndTime }) => ({
      url,
      statusCode,
      mimeType,
      resourceType,
      transferSize: transferSize ?? 0,
      resourceSize: resourceSize ?? 0,
      priority,
      networkRequestTime: networkRequestTime ?? 0,
      networkEndTime: networkEndTime ?? 0,
    }),
  );
}

/** The audits that cost a category points (weight > 0, score < 1): what to fix, per category. */
function failedAuditsOf(lhr: Result): FailedAudit[] {
  return CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(({ audit }) => audit && audit.score !== null && audit.score < 1)
      .map(({ ref, audit }) => ({ category, id: ref.id, title: audit!.title, score: audit!.score, displayValue: audit!.displayValue })),
  );
}

/**
 * The longest top-level tasks of the run, before and from the first contentful paint (as it
 * ran): the tasks that took the main thread's CPU longest, with that CPU time slowed as
 * Lighthouse slows a task (its CPU slowdown, half that for a task that did layout) and with
 * their length as Lighthouse's simulation gives it (the one its `long-tasks` audit and TBT
 * use), without that audit's 50 ms cut-off, so the margin below 50 ms is known too.
 *
 * Chosen and judged by CPU time because Lantern slows a task's length as it ran, and on a
 * shared host that length includes the time other processes had the core: at a load of 20 on
 * two cores the longest by length was now and then a task with under 1 ms of work, and the
 * app's start read anywhere from 40 to 380 ms. A phone runs the page alone; its main thread
 * is busy for the task's CPU time, slowed.
 *
 * Lantern leaves a task under 10 ms out of its graph (it then costs nothing in TBT), so its
 * simulation reads a 9.9 ms task as nothing and a 10.1 ms one as about 40 ms; such a task's
 * simulated length here is its length slowed by the same multipliers, so the figure does not
 * jump fourfold between two runs a millisecond apart.
 */
async function longestTasksOf({ lhr, artifacts }: RunnerResult): Promise<Pick<LighthouseRun, 'longestTask' | 'longestTaskBeforePaint'>> {
  const settings = lhr.configSettings;
  // Lighthouse's computed artifacts take its own audit context; they read only the cache and the settings.
  const context = { computedCache: new Map(), settings } as never;
  const { Trace: trace, DevtoolsLog: devtoolsLog, URL, SourceMaps, HostDPR } = artifacts;
  const tasks = await MainThreadTasks.request(trace, context);
  const graph = await PageDependencyGraph.request({ settings, trace, devtoolsLog, URL, SourceMaps, HostDPR, fromTrace: false }, context);
  const simulator = await LoadSimulator.request({ devtoolsLog, settings }, context);
  const simulated = new Map<unknown, number>();
  for (const [node, timing] of simulator.simulate(graph, { label: 'bench-longest-task' }).nodeTimings) {
    if (node.type === 'cpu') simulated.set(node.event, timing.duration);
  }
  const jsUrls = getJavaScriptURLs(await NetworkRecords.request(devtoolsLog, context));
  const fcp = observedOf(lhr).observedFirstContentfulPaint;
  if (fcp === undefined) throw new Error(`Lighthouse observed no first contentful paint for ${lhr.finalDisplayedUrl}.`);
  const topLevel = tasks.filter((task) => !task.parent && !task.unbounded);
  type Task = (typeof topLevel)[number];
  const slowdown = (task: Task) => (didLayout(task) ? simulator.layoutTaskMultiplier : simulator.cpuSlowdownMultiplier);
  const cpuSlowed = (task: Task) => Math.round(threadTime(task) * slowdown(task));
  const longestOf = (chosen: Task[]): LongestTask => {
    if (chosen.length === 0)
      throw new Error(`Lighthouse recorded no main-thread task on one side of the first paint for ${lhr.finalDisplayedUrl}.`);
    const longest = chosen.reduce((a, b) => (threadTime(b) * slowdown(b) > threadTime(a) * slowdown(a) ? b : a));
    return {
      cpuSimulated: cpuSlowed(longest),
      simulated: simulated.get(longest.event) ?? Math.round(longest.duration * slowdown(longest)),
      observed: longest.duration,
      cpu: threadTime(longest),
      observedStart: longest.startTime,
      url: attributedUrl(longest, jsUrls),
    };
  };
  return {
    longestTask: longestOf(topLevel.filter((task) => task.startTime >= fcp)),
    longestTaskBeforePaint: longestOf(topLevel.filter((task) => task.startTime < fcp)),
  };
}

/** The part of Lighthouse's task tree read here. */
interface TaskNode {
  event: { name: string; args?: unknown };
  children: TaskNode[];
}

/** A task's thread time in ms; its length when the trace has no thread clock. */
function threadTime(task: { event: object; duration: number }): number {
  // Chrome's complete events carry it; Lighthouse's TraceEvent type leaves it out.
  const { tdur } = task.event as { tdur?: number };
  return tdur === undefined ? task.duration : tdur / 1000;
}

/** Whether the task laid out the page, which Lantern slows half as much (see Simulator.layoutTaskMultiplier). */
function didLayout(task: TaskNode): boolean {
  return task.event.name === 'Layout' || task.children.some(didLayout);
}

/**
 * The script a task ran, as Lighthouse attributes it; for a module's evaluation, which
 * Lighthouse leaves unattributed, the script the task compiled (its ScriptCatchup event
 * names it), so the report does not call React's start-up the browser's own work.
 */
function attributedUrl(task: TaskNode, jsUrls: Set<string>): string {
  const url = getAttributableURLForTask(task, jsUrls);
  if (/^https?:/.test(url)) return url;
  const named = (node: TaskNode): string | undefined => {
    const candidate = (node.event.args as { data?: { url?: unknown } } | undefined)?.data?.url;
    if (typeof candidate === 'string' && jsUrls.has(candidate)) return candidate;
    for (const child of node.children) {
      const found = named(child);
      if (found) return found;
    }
    return undefined;
  };
  return named(task) ?? url;
}

/** What Chrome actually did, unthrottled, in one run (the `metrics` audit's observed timings). */
function observedOf(lhr: Result): Record<string, number | undefined> {
  return (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
}

function marksOf(lhr: Result): Record<string, number> {
  const items = (lhr.audits['user-timings']?.details as { items?: { name: string; timingType: string; startTime: number }[] } | undefined)
    ?.items;
  return Object.fromEntries((items ?? []).filter((item) => item.timingType === 'Mark').map((item) => [item.name, item.startTime]));
}

function scriptsBeforeLcpOf(lhr: Result): number {
  const lcp = observedOf(lhr).observedLargestContentfulPaint ?? Number.NaN;
  return requestsOf(lhr).filter((request) => request.resourceType === 'Script' && request.networkRequestTime < lcp).length;
}

async function runOf(result: RunnerResult): Promise<LighthouseRun> {
  const { lhr } = result;
  return {
    scores: scoresOf(lhr),
    metrics: metricsOf(lhr),
    ...(await longestTasksOf(result)),
    scriptsBeforeLcp: scriptsBeforeLcpOf(lhr),
    marks: marksOf(lhr),
  };
}

function summarize(url: string, lhrs: Result[], runs: LighthouseRun[]): LighthouseSummary {
  const metrics = Object.fromEntries(
    Object.keys(METRICS).map((key) => [key, median(runs.map((r) => r.metrics[key as MetricId]))]),
  ) as Record<MetricId, number>;
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(runs.map((r) => r.scores[id]))])) as Record<CategoryId, number>;
  const worst = {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.min(...runs.map((r) => r.scores[id]))])) as Record<CategoryId, number>,
    metrics: Object.fromEntries(
      Object.keys(METRICS).map((key) => [key, Math.max(...runs.map((r) => r.metrics[key as MetricId]))]),
    ) as Record<MetricId, number>,
  };
  const representative = lhrs.reduce((best, lhr, i) =>
    Math.abs(runs[i]!.metrics.lcp - metrics.lcp) < Math.abs(metricsOf(best).lcp - metrics.lcp) ? lhr : best,
  );
  const scoreOf = (id: string) => representative.audits[id]?.score ?? null;
  const observed = (representative.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
  return {
    url,
    runs,
    scores,
    metrics,
    worst,
    requests: requestsOf(representative),
    failedAudits: failedAuditsOf(representative),
    observed: {
      fcp: observed.observedFirstContentfulPaint ?? Number.NaN,
      lcp: observed.observedLargestContentfulPaint ?? Number.NaN,
      domContentLoaded: observed.observedDomContentLoaded ?? Number.NaN,
      load: observed.observedLoad ?? Number.NaN,
    },
    schemeAudits: { 'is-on-https': scoreOf('is-on-https'), 'redirects-http': scoreOf('redirects-http'), 'has-hsts': scoreOf('has-hsts') },
    runWarnings: [...new Set(lhrs.flatMap((lhr) => lhr.runWarnings.map(String)))],
    benchmarkIndex: representative.environment.benchmarkIndex,
    lighthouseVersion: representative.lighthouseVersion,
    userAgent: representative.environment.hostUserAgent,
  };
}

/** Attempts per run: on a busy machine Chrome now and then fails to record the trace, and Lighthouse's own advice is to run again. */
const ATTEMPTS = 3;

async function navigate(url: string, flags: Flags, retried: string[]): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags);
    const failure = !result ? 'no result' : result.lhr.runtimeError?.message;
    if (!failure) return result!;
    if (attempt >= ATTEMPTS) throw new Error(`Lighthouse could not measure ${url} in ${ATTEMPTS} attempts: ${failure}`);
    retried.push(`${url} after: ${failure}`);
  }
}

/** Rounds of one run per page before the counted runs: one is enough for the browser to have loaded something. */
export const WARM_UP_ROUNDS = 1;

/**
 * The host Lighthouse's default 4× CPU slowdown is meant for: its benchmark index (the
 * "CPU/Memory Power" of a report), at the top of the high-end desktop range (1,500 to 2,000)
 * that Lighthouse's throttling guide (docs/throttling.md, "Calibrating the CPU slowdown")
 * slows 4× to reach a mid-tier phone. The side-by-side margins were chosen on such a host
 * (1,993 on 2026-11-25).
 */
export const REFERENCE_BENCHMARK_INDEX = 2000;

/** The CPU the counted runs simulate, and the host it was calibrated on. */
export interface CpuCalibration {
  /** The host's benchmark index: the median of the uncounted round's, one per page. */
  benchmarkIndex: number;
  /** The CPU slowdown the counted runs use: 4× on the reference host, proportionally more on a faster one. */
  slowdown: number;
}

/**
 * The slowdown that makes a task last on this host as long as on the reference host slowed
 * 4×: the same phone whatever the host. The slowdown is relative to the host's CPU, and
 * hosts of the same kind here measured 1,214 to 2,895 (bench runs of 2026-11-22 to 29), so
 * at a fixed 4× the phone simulated on one was 2.4× faster than on another: the same site's
 * longest task read 25 ms on one (index 2,795) and 74 ms on another (1,628), its TBT 0 and
 * 189 ms, while every budget margin is in milliseconds of that phone.
 */
export function calibratedSlowdown(benchmarkIndex: number): number {
  return Math.round(((throttling.mobileSlow4G.cpuSlowdownMultiplier * benchmarkIndex) / REFERENCE_BENCHMARK_INDEX) * 100) / 100;
}

/** The slowdown as the report writes it, e.g. "5.6×". */
export function slowdownText({ slowdown }: CpuCalibration): string {
  return `${Number(slowdown.toFixed(1))}×`;
}

/** Where the slowdown came from, for the report. */
export function cpuCalibrationText({ benchmarkIndex }: CpuCalibration): string {
  if (Number.isNaN(benchmarkIndex)) return "Lighthouse's own, not calibrated to this host";
  return (
    `this host's benchmark index ${Math.round(benchmarkIndex)} (median of the uncounted round) against ${REFERENCE_BENCHMARK_INDEX}, ` +
    `the host Lighthouse slows 4×, so that every task lasts as long as on that host slowed 4×`
  );
}

/**
 * `runs` counted runs of each page, interleaved, after `warmUp` rounds of one run each that
 * are measured the same way but not counted. The first navigation of a session runs in a
 * browser, and a Lighthouse, that have loaded nothing yet, and it was always the site's:
 * in 9 of the 12 bench runs committed before the warm-up, the site's first TBT was above the
 * median of its other runs (367 against 190 ms in the last), the no-script page's, measured
 * next, in 5: a bias that moved the site's median and nobody else's. The uncounted round
 * also measures the host (Lighthouse's benchmark index, once per run), and the counted runs
 * slow its CPU by calibratedSlowdown; without an uncounted round they use Lighthouse's 4×.
 */
export async function runLighthouse<Name extends string>(
  targets: Record<Name, string>,
  options: {
    runs: number;
    warmUp?: number;
    onRun?: (name: Name, run: number, lhr: Result, summary: LighthouseRun) => void;
    onWarmUp?: (name: Name, lhr: Result) => void;
  },
): Promise<{ summaries: Record<Name, LighthouseSummary>; cpu: CpuCalibration }> {
  // One browser for every run: Lighthouse opens a fresh page and resets storage for each
  // navigation, and not relaunching saves seconds per run on a 2-core machine.
  const chrome = await chromeLauncher.launch({ chromePath: findChromium(), chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'silent' });
  const results = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as Result[]])) as Record<Name, Result[]>;
  const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as LighthouseRun[]])) as Record<Name, LighthouseRun[]>;
  const retried: string[] = [];
  let cpu: CpuCalibration = { benchmarkIndex: Number.NaN, slowdown: throttling.mobileSlow4G.cpuSlowdownMultiplier };
  try {
    // Defaults otherwise: mobile form factor and screen, simulated (Lantern) throttling.
    const flags: Flags = { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] };
    const indexes: number[] = [];
    for (let round = 0; round < (options.warmUp ?? 0); round++) {
      for (const name of Object.keys(targets) as Name[]) {
        const { lhr } = await navigate(targets[name], flags, retried);
        indexes.push(lhr.environment.benchmarkIndex);
        options.onWarmUp?.(name, lhr);
      }
    }
    if (indexes.length > 0) {
      const benchmarkIndex = median(indexes);
      cpu = { benchmarkIndex, slowdown: calibratedSlowdown(benchmarkIndex) };
      flags.throttling = { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: cpu.slowdown };
    }
    for (let run = 0; run < options.runs; run++) {
      for (const name of Object.keys(targets) as Name[]) {
        const result = await navigate(targets[name], flags, retried);
        results[name].push(result.lhr);
        runs[name].push(await runOf(result));
        options.onRun?.(name, run, result.lhr, runs[name].at(-1)!);
      }
    }
  } finally {
    chrome.kill();
  }
  const summaries = Object.fromEntries(
    (Object.keys(targets) as Name[]).map((name) => {
      const summary = summarize(targets[name], results[name], runs[name]);
      summary.runWarnings.push(...retried.filter((line) => line.startsWith(targets[name])).map((line) => `Retried: ${line}`));
      return [name, summary];
    }),
  ) as Record<Name, LighthouseSummary>;
  return { summaries, cpu };
}
