/**
 * From a tap on the phone's menu button to the next paint, as INP measures an interaction: the
 * Event Timing API's `event` entries of the tap (pointerdown, pointerup, click), the longest of
 * them, each from the finger coming down through its handlers to the frame that shows the
 * result. In Chromium on the site's local stack, on the phone of the budgets (390 px, touch,
 * @site/testing/phone: CPU 4× and Lighthouse's slow 4G), each load tapped twice: at the first
 * paint, before the app has started (the menu is the browser's popover then), and again once
 * the app has hydrated (the menu shut with Escape first).
 *
 * The API reports no interaction shorter than 16 ms (its lowest threshold): such a tap counts
 * as 16 ms, the most it can have taken.
 */
import type { Page } from 'playwright-core';
import { nav } from '@site/frontend/content/site';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { launchChromium } from '@site/testing/chromium';
import { emulatePhone } from '@site/testing/phone';
import { median } from './stats';

/** The Event Timing API's lowest threshold: a shorter interaction is not reported. */
export const EVENT_TIMING_FLOOR_MS = 16;
/** When the visitor of issue 50 taps: soon after the page shows (the browser test taps then too). */
const TAP_AFTER_FIRST_PAINT_MS = 100;

export interface TapToPaint {
  loads: number;
  /** Each load's tap at the first paint, ms; and its median. */
  atFirstPaint: { runs: number[]; p50: number; max: number };
  /** Each load's tap after hydration, ms; and its median. */
  afterHydration: { runs: number[]; p50: number; max: number };
  /** How long after the first paint the first tap came down, median ms (the app had not started: checked). */
  tapAfterFirstPaintMs: number;
}

interface PageRecord {
  firstPaint?: number;
  taps: { at: number; appStarted: boolean }[];
  events: { name: string; interactionId: number; startTime: number; duration: number }[];
}

declare global {
  interface Window {
    __tapToPaint: PageRecord;
  }
}

/** Runs in the page, before its own scripts: it sees nothing of this module, so the threshold comes as its argument. */
function recordInteractions(durationThreshold: number): void {
  const record: PageRecord = { taps: [], events: [] };
  window.__tapToPaint = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-paint') record.firstPaint = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  // durationThreshold is the Event Timing API's own, not yet in TypeScript's DOM types.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[])
      if (entry.interactionId)
        record.events.push({ name: entry.name, interactionId: entry.interactionId, startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'event', durationThreshold, buffered: true } as PerformanceObserverInit);
  addEventListener(
    'pointerdown',
    (event) => record.taps.push({ at: event.timeStamp, appStarted: document.documentElement.hasAttribute('data-app-started') }),
    true,
  );
}

/** What the load was waiting for when a wait failed: a bare timeout names no step. */
async function waitingFor<T>(what: string, wait: Promise<T>): Promise<T> {
  return wait.catch((error: Error) => {
    throw new Error(`waiting for ${what}: ${error.message.split('\n')[0]}`);
  });
}

/** The menu button's centre once the page has painted, and the first paint's time; 100 ms after that paint, as issue 50's visitor taps. */
async function buttonAtFirstPaint(page: Page): Promise<{ firstPaint: number; x: number; y: number }> {
  const shown = await waitingFor(
    'the first paint',
    page.waitForFunction(
      (selector) => {
        const firstPaint = window.__tapToPaint.firstPaint;
        const button = document.querySelector(selector);
        if (firstPaint === undefined || !button) return null;
        const box = button.getBoundingClientRect();
        return { firstPaint, now: performance.now(), x: box.x + box.width / 2, y: box.y + box.height / 2 };
      },
      '[popovertarget]',
      { polling: 'raf' },
    ),
  );
  const { firstPaint, now, x, y } = (await shown.jsonValue())!;
  if (firstPaint + TAP_AFTER_FIRST_PAINT_MS > now) await page.waitForTimeout(firstPaint + TAP_AFTER_FIRST_PAINT_MS - now);
  return { firstPaint, x, y };
}

/** The tap's time to the next paint: its longest event entry, or the API's floor if none was reported; waits until the tap's frame has been shown. */
async function tapToPaint(page: Page, tapIndex: number): Promise<number> {
  // The slowed page handles the tap after Playwright has sent it; event entries are queued
  // after the frame that ends them: two frames on, a reported tap is in.
  await waitingFor(
    `tap ${tapIndex + 1} to reach the page`,
    page.waitForFunction((index) => window.__tapToPaint.taps.length > index, tapIndex),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const { taps, events } = await page.evaluate(() => window.__tapToPaint);
  const tap = taps[tapIndex];
  if (!tap) throw new Error(`Tap ${tapIndex + 1} did not reach the page.`);
  const next = taps[tapIndex + 1]?.at ?? Infinity;
  const own = events.filter((event) => event.startTime >= tap.at - 1 && event.startTime < next);
  return Math.max(EVENT_TIMING_FLOOR_MS, ...own.map((event) => event.duration));
}

export async function measureTapToPaint(siteUrl: string, loads = 7): Promise<TapToPaint> {
  const browser = await launchChromium();
  const atFirstPaint: number[] = [];
  const afterHydration: number[] = [];
  const delays: number[] = [];
  try {
    for (let load = 0; load < loads; load++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      try {
        const page = await context.newPage();
        await page.addInitScript(recordInteractions, EVENT_TIMING_FLOOR_MS);
        await emulatePhone(await context.newCDPSession(page));
        await page.goto(`${siteUrl}/`, { waitUntil: 'commit' });
        const { firstPaint, x, y } = await buttonAtFirstPaint(page);
        await page.touchscreen.tap(x, y);
        atFirstPaint.push(await tapToPaint(page, 0));
        const first = (await page.evaluate(() => window.__tapToPaint.taps[0]))!;
        if (first.appStarted) throw new Error(`Load ${load + 1}: the tap at the first paint came after the app had started.`);
        delays.push(first.at - firstPaint);
        if (!(await page.evaluate(() => document.querySelector('[popover]')!.matches(':popover-open'))))
          throw new Error(`Load ${load + 1}: the tap at the first paint did not open the menu (${nav.menuButton}).`);

        await waitingFor(
          'hydration',
          page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, HYDRATED_MARK),
        );
        await page.keyboard.press('Escape');
        await waitingFor(
          'Escape to close the menu',
          page.waitForFunction(() => !document.querySelector('[popover]')!.matches(':popover-open')),
        );
        await page.touchscreen.tap(x, y);
        afterHydration.push(await tapToPaint(page, 1));
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const summary = (runs: number[]) => ({ runs, p50: median(runs), max: Math.max(...runs) });
  return { loads, atFirstPaint: summary(atFirstPaint), afterHydration: summary(afterHydration), tapAfterFirstPaintMs: median(delays) };
}
