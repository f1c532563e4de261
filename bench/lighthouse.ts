/**
 * Lighthouse, mobile, simulated throttling (its slow 4G and a CPU slowdown calibrated to the
 * host), through its public API: the `lighthouse` function and the audits of its result. The
 * pages are measured in turn, one run each a round, so a slow spell of the machine falls on
 * all of them, after a round that is not counted.
 *
 * The stack is served over http://127.0.0.1, which Lighthouse counts as a secure origin, so
 * `is-on-https` passes and the HTTP→HTTPS redirect (CloudFront's) is not exercised here.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { defaultConfig, type Flags, type Result, type RunnerResult } from 'lighthouse';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { CHROMIUM_FLAGS, findChromium } from '@site/testing/chromium';
import { median } from './stats';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof CATEGORIES)[number];

const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
  /** Every byte of the first view, as transferred. */
  bytes: 'total-byte-weight',
} as const;
export type MetricId = keyof typeof METRICS;

export interface LighthouseRun {
  scores: Record<CategoryId, number>;
  metrics: Record<MetricId, number>;
  /** The longest top-level main-thread task from the first contentful paint on, its CPU time slowed as Lighthouse slows it, ms (longestTaskAfterPaint). */
  longestTask: number;
  /** Tasks of 50 ms or more in Lighthouse's simulation (`long-tasks`). */
  longTasks: number;
  /** The main thread's time by kind of work, ms (`mainthread-work-breakdown`). */
  mainThread: Record<string, number>;
  /** Bytes transferred by kind of resource (`resource-summary`). */
  bytesByType: Record<string, number>;
  /** The page's own scripts it fetched, by path (`network-requests`). */
  scripts: string[];
  /** Whether the page marked itself hydrated before Lighthouse stopped recording (`user-timings`). */
  hydrated: boolean;
}

/** The host Lighthouse's 4× CPU slowdown is meant for: the top of the desktop range its throttling guide slows 4× to reach a mid-tier phone. */
export const REFERENCE_BENCHMARK_INDEX = 2000;
const DEFAULT_THROTTLING = defaultConfig.settings!.throttling!;

/**
 * The slowdown that makes a task last on this host as long as on the reference host slowed 4×:
 * hosts of the same kind here measured indexes from 1,214 to 2,895, so at a fixed 4× the phone
 * simulated on one was 2.4× faster than on another, while every margin is in milliseconds of it
 * (decision 0035).
 */
export function calibratedSlowdown(benchmarkIndex: number): number {
  return Math.round(((DEFAULT_THROTTLING.cpuSlowdownMultiplier! * benchmarkIndex) / REFERENCE_BENCHMARK_INDEX) * 100) / 100;
}

/** One event of a Chromium trace, in the Trace Event Format (times in µs); what is read here. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own CPU time in a complete event. */
  tdur?: number;
  pid: number;
  tid: number;
}

/**
 * The longest top-level task on the page's main thread from the first contentful paint on, by
 * its CPU time (`tdur`), slowed as Lighthouse's simulation slows a task: `slowdown`, and half
 * that for a task that laid out the page. No audit gives this: `long-tasks` and
 * `main-thread-tasks` give a task's length as it ran (which on a shared host includes the time
 * other processes held the core: at a load of 20 the longest was now and then a task with under
 * 1 ms of work) and cut at 50 ms. So it is read from the trace Lighthouse returns
 * (`artifacts.Trace`), in Chromium's own event format: the main thread is the one that painted
 * first at the time the `metrics` audit gives, and a top-level task is a complete event no
 * other on that thread encloses.
 */
export function longestTaskAfterPaint(events: readonly TraceEvent[], firstPaintTs: number, slowdown: number): number {
  const paint = events.find((event) => event.name === 'firstContentfulPaint' && event.ts === firstPaintTs);
  if (!paint) throw new Error('The trace has no first contentful paint at the time Lighthouse gives.');
  const onMainThread = events
    .filter((event) => event.ph === 'X' && event.pid === paint.pid && event.tid === paint.tid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks: { cpu: number; layout: boolean }[] = [];
  let task: { end: number; cpu: number; layout: boolean } = { end: -Infinity, cpu: 0, layout: false };
  for (const event of onMainThread) {
    if (event.ts >= task.end) {
      task = { end: event.ts + (event.dur ?? 0), cpu: (event.tdur ?? event.dur ?? 0) / 1000, layout: false };
      if (event.ts >= firstPaintTs) tasks.push(task);
    }
    if (event.name === 'Layout') task.layout = true;
  }
  if (tasks.length === 0) throw new Error('The trace has no main-thread task after the first contentful paint.');
  return Math.round(Math.max(...tasks.map((task) => task.cpu * (task.layout ? slowdown / 2 : slowdown))));
}

/** The rows of an audit's details, typed as far as they are read here. */
const itemsOf = <Item>(lhr: Result, audit: string) => (lhr.audits[audit]?.details as { items?: Item[] } | undefined)?.items ?? [];

function runOf({ lhr, artifacts }: RunnerResult, slowdown: number): LighthouseRun {
  const metric = (audit: string) => {
    const value = lhr.audits[audit]?.numericValue;
    if (value === undefined)
      throw new Error(`Lighthouse gave no ${audit} for ${lhr.finalDisplayedUrl}: ${lhr.audits[audit]?.errorMessage}`);
    return value;
  };
  const observed = itemsOf<{ observedFirstContentfulPaintTs?: number }>(lhr, 'metrics')[0];
  if (observed?.observedFirstContentfulPaintTs === undefined)
    throw new Error(`Lighthouse observed no first paint for ${lhr.finalDisplayedUrl}.`);
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  const traceEvents = (artifacts.Trace as unknown as { traceEvents: TraceEvent[] }).traceEvents;
  return {
    // A category Lighthouse could not score counts as 0: a failure, not a pass.
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)])) as LighthouseRun['scores'],
    metrics: Object.fromEntries(Object.entries(METRICS).map(([id, audit]) => [id, metric(audit)])) as LighthouseRun['metrics'],
    longestTask: longestTaskAfterPaint(traceEvents, observed.observedFirstContentfulPaintTs, slowdown),
    longTasks: itemsOf(lhr, 'long-tasks').length,
    mainThread: Object.fromEntries(
      itemsOf<{ groupLabel: string; duration: number }>(lhr, 'mainthread-work-breakdown').map((item) => [item.groupLabel, item.duration]),
    ),
    bytesByType: Object.fromEntries(
      itemsOf<{ resourceType: string; transferSize: number }>(lhr, 'resource-summary').map((item) => [
        item.resourceType,
        item.transferSize,
      ]),
    ),
    scripts: itemsOf<{ url: string; resourceType?: string }>(lhr, 'network-requests')
      .filter((item) => item.resourceType === 'Script' && item.url.startsWith(origin))
      .map((item) => new URL(item.url).pathname),
    hydrated: itemsOf<{ name: string; timingType: string }>(lhr, 'user-timings').some(
      (item) => item.name === HYDRATED_MARK && item.timingType === 'Mark',
    ),
  };
}

/** On a busy machine Chrome now and then fails to record the trace; Lighthouse's own advice is to run again. */
async function navigate(url: string, flags: Flags, warnings: string[]): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags);
    const failure = result ? result.lhr.runtimeError?.message : 'no result';
    if (!failure) return result!;
    if (attempt === 3) throw new Error(`Lighthouse could not measure ${url} in 3 attempts: ${failure}`);
    warnings.push(`${url} measured again after: ${failure}`);
  }
}

export interface LighthouseSession<Name extends string> {
  runs: Record<Name, LighthouseRun[]>;
  /** The host's benchmark index (the median of the uncounted round) and the CPU slowdown of the counted runs. */
  benchmarkIndex: number;
  slowdown: number;
  lighthouseVersion: string;
  warnings: string[];
}

/**
 * `runs` counted runs of each target, interleaved, after one uncounted round: a session's
 * first navigation runs in a browser that has loaded nothing yet, and in 9 of 12 bench runs
 * before this round the site's first TBT was above its other runs' median. The uncounted round
 * also measures the host, whose benchmark index calibrates the slowdown of the counted runs.
 */
export async function runLighthouse<Name extends string>(
  targets: Record<Name, string>,
  options: { runs: number; onRun?: (name: Name, run: LighthouseRun, lhr: Result) => void },
): Promise<LighthouseSession<Name>> {
  const names = Object.keys(targets) as Name[];
  // One browser for every run: Lighthouse opens a fresh page and resets storage for each.
  const chrome = await chromeLauncher.launch({ chromePath: findChromium(), chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'silent' });
  const warnings: string[] = [];
  try {
    const flags: Flags = { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] };
    const warmUp = [];
    for (const name of names) warmUp.push((await navigate(targets[name], flags, warnings)).lhr);
    const benchmarkIndex = median(warmUp.map((lhr) => lhr.environment.benchmarkIndex));
    const slowdown = calibratedSlowdown(benchmarkIndex);
    flags.throttling = { ...DEFAULT_THROTTLING, cpuSlowdownMultiplier: slowdown };
    const runs = Object.fromEntries(names.map((name) => [name, [] as LighthouseRun[]])) as Record<Name, LighthouseRun[]>;
    for (let round = 0; round < options.runs; round++) {
      for (const name of names) {
        const result = await navigate(targets[name], flags, warnings);
        runs[name].push(runOf(result, slowdown));
        options.onRun?.(name, runs[name].at(-1)!, result.lhr);
      }
    }
    return { runs, benchmarkIndex, slowdown, lighthouseVersion: warmUp[0]!.lighthouseVersion, warnings };
  } finally {
    chrome.kill();
  }
}
