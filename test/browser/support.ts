/**
 * What every browser test needs: the whole local stack serving the built site (the edge
 * with the real headers and CSP, the real handler, the emulators) and the system Chromium,
 * with pages that record console errors, CSP violations and requests to other hosts.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { launchChromium } from '@site/testing/chromium';
import { runIam } from '@site/testing/stand-ins';
import { emulatorClientConfig } from '@site/emulators/connections';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack, type LocalStackOptions } from '@site/local/stack';
import { HYDRATED_MARK } from '@site/frontend/hydration';

export interface OpenOptions {
  /** Called with the new page before it navigates, e.g. to hold back a response. */
  beforeLoad?: (page: Page) => Promise<void>;
  /**
   * How far the navigation must get before open() returns; load unless said. The wait for
   * hydration (below) is the state a test acts on; networkidle added its half second of
   * quiet to every page a test opened, about a quarter of the browser tier's time.
   */
  waitUntil?: 'commit' | 'domcontentloaded' | 'load' | 'networkidle';
  /**
   * Wait until the app has hydrated the whole page (its `hydrated` mark), as a visitor who
   * reads before acting finds it; the default with scripts on. Tests of what happens before
   * that say false.
   */
  hydrated?: boolean;
  /**
   * For a test whose subject is a timed change (the rotating expertise term): the page gets a
   * clock of its own, stopped before its scripts run, so a change
   * comes when the test moves the clock (runClockUntil) and not when a busy machine lets a
   * timer fire. CSS transitions still run on the browser's time. The page then hydrates only
   * as the clock moves, and its performance marks are the clock's stand-ins, which record
   * nothing: such a test waits for the change itself, never for the `hydrated` mark.
   */
  stoppedClock?: boolean;
}

export interface Site {
  stack: LocalStack;
  browser: Browser;
  url(path?: string): string;
  open(path: string, options?: BrowserContextOptions, openOptions?: OpenOptions): Promise<WatchedPage>;
  /** Every stored message, read back by a consistent Scan; idempotency records and visitor counters have no status and are left out. */
  storedMessages(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions, as text. */
  errors: string[];
  /** Requests to any origin other than the site's. */
  foreignRequests: string[];
  cspViolations(): Promise<string[]>;
}

/**
 * A page lives as long as the test that opened it: one left open keeps its timers and
 * animations running and slowed every later test of its file, the last ones twice over.
 * Vitest refuses the hook outside a test; a page opened in a suite's hook lives until close().
 */
function closeWithItsTest(context: BrowserContext): void {
  try {
    onTestFinished(() => context.close());
  } catch {
    // Opened in a hook.
  }
}

/** The page's clock, installed and stopped before any of its scripts runs: no timer of the page fires until a test moves it on. */
async function stopClockBeforeLoad(page: Page): Promise<void> {
  const installedAt = Date.now();
  await page.clock.install({ time: installedAt });
  await page.clock.pauseAt(installedAt + 60_000);
}

/** `settings`: what a suite changes in the stack; the visitor limit's own sets a limit of its own, the rate limit's a stage throttle. */
export async function startSite(settings: Pick<LocalStackOptions, 'visitorLimit' | 'mailBudgets' | 'stageThrottle'> = {}): Promise<Site> {
  const stack = await startLocalStack({ ...EPHEMERAL_STACK, iam: runIam(), ...settings });
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await stack.close();
    throw error;
  }
  const origin = stack.urls.site;
  const contexts: { close(): Promise<void> }[] = [];

  return {
    stack,
    browser,
    url: (path = '/') => origin + path,
    async open(
      path,
      options = {},
      { beforeLoad, waitUntil = 'load', stoppedClock = false, hydrated = options.javaScriptEnabled !== false && !stoppedClock } = {},
    ) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
      contexts.push(context);
      closeWithItsTest(context);
      // Registered before any page script; the CSP cannot block what the browser injects itself.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __csp: string[] }).__csp = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
      const page = await context.newPage();
      const watched: WatchedPage = {
        page,
        errors: [],
        foreignRequests: [],
        cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
      };
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // The 404 page is served with status 404 by design; Chromium logs that for the document.
        const isDocument404 = message.location().url === page.url() && /status of 404/.test(message.text());
        if (!isDocument404) watched.errors.push(message.text());
      });
      page.on('pageerror', (error) => watched.errors.push(error.message));
      page.on('request', (request) => {
        if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) watched.foreignRequests.push(request.url());
      });
      await beforeLoad?.(page);
      if (stoppedClock) await stopClockBeforeLoad(page);
      await page.goto(origin + path, { waitUntil });
      if (hydrated) await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, HYDRATED_MARK);
      return watched;
    },
    async storedMessages() {
      const client = new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb));
      try {
        const { Items = [] } = await client.send(new ScanCommand({ TableName: stack.tableName, ConsistentRead: true }));
        return Items.map((item) => unmarshall(item)).filter((item) => 'status' in item);
      } finally {
        client.destroy();
      }
    },
    async close() {
      await Promise.allSettled(contexts.map((context) => context.close()));
      await browser.close();
      await stack.close();
    },
  };
}

/** Moves a clock stopped by `stoppedClock` on in small steps until `reached` holds; a step is shorter than any change it waits for. */
export async function runClockUntil(page: Page, reached: () => Promise<boolean>, { stepMs = 100, limitMs = 10_000 } = {}): Promise<void> {
  for (let ran = 0; ran <= limitMs; ran += stepMs) {
    if (await reached()) return;
    await page.clock.runFor(stepMs);
  }
  throw new Error(`Not reached after ${limitMs} ms of the page's clock.`);
}

/**
 * Runs `work` that itself waits on the page's timers (axe does) while a clock stopped by
 * `stoppedClock` creeps on a millisecond at a time, so the work ends long before any timed
 * change of the page comes. Returns the work's result and how far the clock moved.
 */
export async function whileClockCreeps<T>(page: Page, work: Promise<T>): Promise<{ result: T; creptMs: number }> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  let creptMs = 0;
  while (!done) {
    try {
      await page.clock.runFor(1);
    } catch (error) {
      // The clock is the context's: a page that axe opens beside this one to gather its
      // results, and closes, can end a step. Only this page's own end is a failure.
      if (page.isClosed()) throw error;
    }
    creptMs++;
  }
  return { result: await finished, creptMs };
}

/**
 * Waits until smooth scrolling has come to rest: the same position for a quarter of a second,
 * after it moved, or for as long as a scroll can take to start on a busy machine. Read from
 * here, as a page without scripts runs no frame callback of ours; every 50 ms, as readings
 * every 100 ms and half a second of rest cost the scrolling tests a second per link.
 */
export async function scrollSettled(page: Page): Promise<number> {
  const [everyMs, stillReadings, startsWithinMs, limitMs] = [50, 5, 750, 10_000];
  const from = await page.evaluate(() => window.scrollY);
  const positions = [from];
  for (let waited = everyMs; waited <= limitMs; waited += everyMs) {
    await page.waitForTimeout(everyMs);
    positions.push(await page.evaluate(() => window.scrollY));
    const recent = positions.slice(-stillReadings);
    const still = recent.length === stillReadings && recent.every((y) => y === recent[0]);
    if (still && (recent[0] !== from || waited >= startsWithinMs)) return recent[0]!;
  }
  throw new Error(`The page kept scrolling for ${limitMs / 1000} s.`);
}

export function scrollInstantly(page: Page, top: number): Promise<void> {
  return page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
}

/** Until the browser has drawn two more frames: what a scroll or a class change leads to has been laid out and observed. */
export function nextFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Scrolls through the whole page so every reveal is set off (a frame at each step, for the
 * observer to see what came into view), waits until each has been told to show, then goes
 * back to the top. It waits for that state, never for the fade itself: a test that needs
 * what is shown at full opacity opens the page with reduced motion, where nothing fades.
 */
export async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 300) {
    await scrollInstantly(page, y);
    await nextFrames(page);
  }
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-reveal]')].every((el) => el.getAttribute('data-reveal') === 'shown'),
  );
  await scrollInstantly(page, 0);
}
