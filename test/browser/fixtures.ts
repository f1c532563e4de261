/**
 * What every browser test stands on: the whole local stack serving the built site (the edge
 * with the real headers and CSP, the real handler, the emulators), one per worker, started
 * with the settings a file asks for (`test.use({ stackSettings })`: a file with settings of
 * its own gets workers of its own); its table and outbox emptied for each test, so that a test
 * begins as on a new stack; and pages watched for console errors, CSP violations and requests
 * to other hosts, which fail the test at its end.
 */
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { emulatorClientConfig } from '@site/emulators/connections';
import { clearSentEmails, ensureMessageTable, fetchSentEmails, type SentEmail } from '@site/emulators/servers';
import { nav } from '@site/frontend/content/site';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack, type LocalStackOptions } from '@site/local/stack';

/** What a file changes in its stack: a visitor limit or mail budgets of its own, a stage throttle. */
export interface StackSettings extends Pick<LocalStackOptions, 'visitorLimit' | 'mailBudgets' | 'stageThrottle'> {
  /**
   * The table on disk, as `npm start` keeps it, so that DynamoDB stopped and started again
   * still has what it had; in memory otherwise, where a restart comes back empty.
   */
  keepsData?: boolean;
}

/** The options of every browser test's stack: the one place they are made. */
function stackOptions({ keepsData: _, ...settings }: StackSettings, dataDir: string | null): LocalStackOptions {
  return { ...EPHEMERAL_STACK, ...settings, dataDir };
}

export interface Site {
  stack: LocalStack;
  url(path?: string): string;
  /** Every stored message, read back by a consistent Scan; idempotency records and visitor counters have no status and are left out. */
  storedMessages(): Promise<Record<string, unknown>[]>;
  /** What SES has sent: since the test began, where it `startsEmpty`. */
  sentEmails(): Promise<SentEmail[]>;
}

/** What the pages of a test did that no page of the site should: each list fails the test at its end unless allowed. */
export interface PageWatch {
  /** Console errors and uncaught exceptions, as text. */
  errors: string[];
  cspViolations: string[];
  /** Requests to any origin other than the site's. */
  foreignRequests: string[];
  /** Console errors like `pattern` are what the test brings about (a refused send the browser logs): they do not fail it. */
  allowErrors(pattern: RegExp): void;
}

/** What the browser (the failed request) and the app (the send that failed) log when the API answers a send with `status`. */
export const refusedSend = (status: number): RegExp => new RegExp(`status of ${status} |answered ${status} `);

/** A page in a context of its own, with these options over the test's own (its project's and `test.use`'s), watched as the test's page is. */
export type NewPage = (options?: BrowserContextOptions) => Promise<Page>;

async function emptyTable(stack: LocalStack): Promise<void> {
  const client = new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb));
  try {
    await client.send(new DeleteTableCommand({ TableName: stack.tableName }));
  } finally {
    client.destroy();
  }
  await ensureMessageTable(stack.urls.dynamodb, stack.tableName);
}

async function storedMessages(stack: LocalStack): Promise<Record<string, unknown>[]> {
  const client = new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb));
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: stack.tableName, ConsistentRead: true }));
    return Items.map((item) => unmarshall(item)).filter((item) => 'status' in item);
  } finally {
    client.destroy();
  }
}

type WatchedPages = PageWatch & { attach(context: BrowserContext, origin: string): Promise<void>; check(): void };

function watchPages(): WatchedPages {
  const allowed: RegExp[] = [];
  const watch = {
    errors: [] as string[],
    cspViolations: [] as string[],
    foreignRequests: [] as string[],
    allowErrors: (pattern: RegExp) => void allowed.push(pattern),
    async attach(context: BrowserContext, origin: string) {
      // Registered before any page script; the CSP cannot block what the browser injects itself.
      await context.exposeBinding('__cspViolation', (_, violation: string) => void watch.cspViolations.push(violation));
      await context.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          (window as unknown as { __cspViolation(violation: string): void }).__cspViolation(
            `${event.violatedDirective} ${event.blockedURI}`,
          ),
        ),
      );
      context.on('console', (message) => {
        if (message.type() !== 'error') return;
        // A page served with an error status by design (the 404 page, the form again after a
        // refused post): Chromium logs the document's status.
        const isDocumentStatus = message.location().url === message.page()?.url() && /status of \d{3}/.test(message.text());
        if (!isDocumentStatus) watch.errors.push(message.text());
      });
      context.on('weberror', (error) => watch.errors.push(error.error().message));
      context.on('request', (request) => {
        if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) watch.foreignRequests.push(request.url());
      });
    },
    check() {
      const unexpected = watch.errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      expect(
        { errors: unexpected, cspViolations: watch.cspViolations, foreignRequests: watch.foreignRequests },
        'the pages’ console errors and uncaught exceptions, CSP violations and requests to other hosts',
      ).toEqual({ errors: [], cspViolations: [], foreignRequests: [] });
    },
  };
  return watch;
}

interface TestFixtures {
  /**
   * Whether the test begins as on a new stack: nothing stored, no visitor counted, nothing
   * sent. A file whose tests follow one visit through, each where the one before left off,
   * says false.
   */
  startsEmpty: boolean;
  site: Site;
  watch: WatchedPages;
  newPage: NewPage;
}

export const test = base.extend<TestFixtures, { stackSettings: StackSettings; stack: LocalStack }>({
  stackSettings: [{}, { scope: 'worker', option: true }],
  startsEmpty: [true, { option: true }],
  stack: [
    async ({ stackSettings }, use) => {
      const dataDir = stackSettings.keepsData ? mkdtempSync(join(tmpdir(), 'browser-stack-')) : null;
      const stack = await startLocalStack(stackOptions(stackSettings, dataDir));
      try {
        await use(stack);
      } finally {
        await stack.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  site: async ({ stack, startsEmpty }, use) => {
    if (startsEmpty) {
      await emptyTable(stack);
      await clearSentEmails(stack.urls.ses);
    }
    await use({
      stack,
      url: (path = '/') => stack.urls.site + path,
      storedMessages: () => storedMessages(stack),
      sentEmails: () => fetchSentEmails(stack.urls.ses),
    });
  },
  // Playwright reads the pages' address for every test, so every test of these files gets `site`
  // and begins as `startsEmpty` says, whether or not it names it.
  baseURL: async ({ site }, use) => use(site.url()),
  watch: async ({}, use) => {
    const watch = watchPages();
    await use(watch);
    watch.check();
  },
  context: async ({ context, watch, baseURL }, use) => {
    await watch.attach(context, baseURL!);
    await use(context);
  },
  newPage: async ({ browser, baseURL, watch }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({ baseURL, ...options });
      contexts.push(context);
      await watch.attach(context, baseURL!);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect };

/**
 * What Chromium's accessibility tree says of the one element with this role and name (what a
 * screen reader is told), e.g. `{ expanded: true, focused: true }`. Playwright's own checks
 * (ariaSnapshot, attributes) compute roles and states from the DOM's attributes, so they do not
 * see a state the browser gives natively, such as a popover's button being expanded.
 */
export async function accessibleState(page: Page, role: string, name: string): Promise<Record<string, unknown>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', { nodeId: root.nodeId, role, accessibleName: name });
    const shown = nodes.filter((node) => !node.ignored);
    if (shown.length !== 1) throw new Error(`${shown.length} ${role}s named "${name}" in the accessibility tree, not one`);
    return Object.fromEntries((shown[0]!.properties ?? []).map((property) => [property.name, property.value.value]));
  } finally {
    await cdp.detach();
  }
}

/**
 * The phone's menu open or shut, both as the browser holds it (its popover's state) and as a
 * screen reader hears it (its button expanded or not, in the accessibility tree).
 */
export async function expectMenuOpen(page: Page, open: boolean): Promise<void> {
  await expect(page.locator('#site-menu:popover-open')).toHaveCount(open ? 1 : 0);
  await expect.poll(() => accessibleState(page, 'button', nav.menuButton)).toMatchObject({ expanded: open });
}

/** Until the app has hydrated the whole page (its `hydrated` mark), as a visitor who reads before acting finds it. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, HYDRATED_MARK);
}

/** Opens `path` and waits for the app's hydration: the state a test with scripts acts on. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
}

/**
 * For a test whose subject is a timed change (the rotating expertise term): the page's clock,
 * installed and stopped before its scripts run, so a change comes when the test moves the
 * clock and not when a busy machine lets a timer fire. CSS transitions still run on the
 * browser's time. The page then hydrates only as the clock moves, and its performance marks
 * are the clock's stand-ins, which record nothing: such a test waits for the change itself,
 * never for the `hydrated` mark.
 */
export async function stopClock(page: Page): Promise<void> {
  const installedAt = Date.now();
  await page.clock.install({ time: installedAt });
  await page.clock.pauseAt(installedAt + 60_000);
}

/** Moves a clock stopped by stopClock on, 100 ms at a time (shorter than any change a test waits for), until `assertion` passes. */
export async function runClockUntil(page: Page, assertion: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.clock.runFor(100);
    await assertion();
  }).toPass({ intervals: [0] });
}

/**
 * Runs `work` that itself waits on the page's timers (axe does) while a clock stopped by
 * stopClock creeps on a millisecond at a time, so the work ends long before any timed change
 * of the page comes. Returns the work's result and how far the clock moved.
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

export function scrollInstantly(page: Page, top: number): Promise<void> {
  return page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
}

/** Until the browser has drawn two more frames: what a scroll or a class change leads to has been laid out and observed. */
export function nextFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** How far the section `id` stands below the top of the view, in CSS pixels. */
export function sectionTop(page: Page, id: string): Promise<number> {
  return page.evaluate((section) => document.getElementById(section)!.getBoundingClientRect().top, id);
}

/**
 * Until the section `id` has come to stand 80 px below the top of the view (the fixed header's
 * height: the page's scroll padding), to the pixel: where a link to it scrolls, smoothly or not.
 */
export async function expectScrolledTo(page: Page, id: string): Promise<void> {
  await expect
    .poll(async () => Math.abs((await sectionTop(page, id)) - 80), { message: `#${id} 80 px below the top` })
    .toBeLessThanOrEqual(1);
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
  await expect(page.locator('[data-reveal]:not([data-reveal="shown"])')).toHaveCount(0);
  await scrollInstantly(page, 0);
}
