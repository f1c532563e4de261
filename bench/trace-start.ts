/**
 * Where the main thread's time goes from the first paint on: each page is loaded in Chromium
 * with its CPU slowed as Lighthouse simulates a phone's (4×) while it is traced, until it has
 * hydrated (the site's `hydrated` mark) and a second more, and the top-level tasks from the
 * first contentful paint on are grouped by kind as Lighthouse groups them (script, style and
 * layout, paint, parsing, other). Per page it prints the median over the runs of the CPU time
 * (the trace's thread time, which the host's load moves far less than a task's length) after
 * the paint, by kind, and every run's heaviest tasks with what they did. Not part of
 * `npm run bench`: the tool behind its findings when a budget on the first paint's aftermath
 * moves.
 *
 *   npm run build && npx tsx --tsconfig bench/tsconfig.json bench/trace-start.ts [--runs 3] [--rate 4] \
 *     site=frontend/dist [name=another/build/dir …]
 *
 * Each named directory is served as the bench serves the site (static-site.ts); pages are
 * loaded in turn, run by run, so that a busy spell of the machine falls on all of them.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { CDPSession } from 'playwright-core';
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';
import Trace from 'lighthouse/core/gather/gatherers/trace.js';
import { ProcessedNavigation } from 'lighthouse/core/computed/processed-navigation.js';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { launchChromium } from '@site/testing/chromium';
import type { RunningServer } from '@site/emulators/servers';
import { startStaticSite } from './static-site';
import { median, round } from './stats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '3' }, rate: { type: 'string', default: '4' } },
});
const runs = Number(values.runs);
const rate = Number(values.rate);
const pages = positionals.map((pair) => pair.split('=') as [string, string]);
if (!pages.length || pages.some(([name, dir]) => !name || !dir) || !(runs >= 1) || !(rate >= 1)) {
  console.error('usage: trace-start.ts [--runs N] [--rate CPU slowdown] name=built/site/dir …');
  process.exit(2);
}

/**
 * The trace categories Lighthouse records, without its screenshots: Chromium 156 no longer
 * writes the navigation's start into the shorter list this tool once named itself.
 */
const CATEGORIES = Trace.getDefaultTraceCategories().filter((category) => !category.includes('screenshot'));

interface Task {
  event: { name: string; tdur?: number };
  duration: number;
  selfTime: number;
  startTime: number;
  parent?: Task;
  children: Task[];
  group: { id: string };
}

const cpuOf = (task: Task) => (task.event.tdur === undefined ? task.duration : task.event.tdur / 1000);

/** A task's own time by Lighthouse's kind of work, and by event name. */
function breakdown(task: Task): { kinds: Record<string, number>; events: Record<string, number> } {
  const kinds: Record<string, number> = {};
  const events: Record<string, number> = {};
  const walk = (node: Task) => {
    kinds[node.group.id] = (kinds[node.group.id] ?? 0) + node.selfTime;
    events[node.event.name] = (events[node.event.name] ?? 0) + node.selfTime;
    node.children.forEach(walk);
  };
  walk(task);
  return { kinds, events };
}

const top = (record: Record<string, number>, count: number) =>
  Object.entries(record)
    .filter(([, ms]) => ms >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${name} ${round(ms)}`)
    .join(', ');

async function trace(cdp: CDPSession, load: () => Promise<void>): Promise<object[]> {
  const events: object[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as object[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
  await load();
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

const servers: RunningServer[] = [];
const urls = new Map<string, string>();
for (const [name, dir] of pages) {
  const server = await startStaticSite(dir);
  servers.push(server);
  urls.set(name, `${server.url}/`);
}
const browser = await launchChromium();
const afterPaint = new Map<string, { total: number; kinds: Record<string, number> }[]>(pages.map(([name]) => [name, []]));

/**
 * One traced load of the page `name`, with the computed-artifact context Lighthouse's
 * processors need. Chromium now and then writes no navigation start into a trace (Lighthouse
 * then throws NO_NAVSTART); such a load is traced again, up to three times.
 */
async function tracedLoad(name: string, attempt = 1): Promise<{ lighthouseContext: never; traceOf: never }> {
  // A phone's screen, as Lighthouse's mobile form factor has it.
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const events = await trace(cdp, async () => {
    await page.goto(urls.get(name)!, { waitUntil: 'load' });
    const app = await page.evaluate(() => document.querySelector('script[data-entry]') !== null);
    if (app) await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, HYDRATED_MARK, { timeout: 60_000 });
    await page.waitForTimeout(1000);
  });
  await context.close();
  // Lighthouse's computed artifacts take its own context; they read only the cache.
  const lighthouseContext = { computedCache: new Map() } as never;
  const traceOf = { traceEvents: events } as never;
  try {
    await ProcessedNavigation.request(traceOf, lighthouseContext);
  } catch (error) {
    if ((error as { code?: string }).code !== 'NO_NAVSTART' || attempt >= 3) throw error;
    return tracedLoad(name, attempt + 1);
  }
  return { lighthouseContext, traceOf };
}

try {
  for (let run = 1; run <= runs; run++) {
    for (const [name] of pages) {
      const { lighthouseContext, traceOf } = await tracedLoad(name);
      const paint = (await ProcessedNavigation.request(traceOf, lighthouseContext)).timings.firstContentfulPaint;
      const tasks = ((await MainThreadTasks.request(traceOf, lighthouseContext)) as unknown as Task[]).filter(
        (task) => !task.parent && task.startTime >= paint,
      );
      const kinds: Record<string, number> = {};
      for (const task of tasks) for (const [kind, ms] of Object.entries(breakdown(task).kinds)) kinds[kind] = (kinds[kind] ?? 0) + ms;
      const total = tasks.reduce((sum, task) => sum + cpuOf(task), 0);
      afterPaint.get(name)!.push({ total, kinds });
      console.log(
        `${name}, run ${run} (load ${round(loadavg()[0]!, 2)}): first paint at ${round(paint)} ms, ${round(total)} ms of CPU after it in ${tasks.length} tasks`,
      );
      for (const task of [...tasks].sort((a, b) => cpuOf(b) - cpuOf(a)).slice(0, 3)) {
        const { kinds: own, events: byEvent } = breakdown(task);
        console.log(
          `  +${round(task.startTime)} ms: ${round(cpuOf(task))} ms of CPU in ${round(task.duration)} ms | ${top(own, 3)} | ${top(byEvent, 4)}`,
        );
      }
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((server) => server.close()));
}

console.log(`\nMedians of ${runs} runs, CPU slowed ${rate}×, from the first contentful paint on:`);
for (const [name, measured] of afterPaint) {
  const kinds = [...new Set(measured.flatMap((m) => Object.keys(m.kinds)))];
  const byKind = Object.fromEntries(kinds.map((kind) => [kind, median(measured.map((m) => m.kinds[kind] ?? 0))]));
  console.log(`  ${name}: ${round(median(measured.map((m) => m.total)))} ms of CPU (${top(byKind, 6)})`);
}
