/**
 * How the app arrives, in Chromium against the local stack: no script is requested before
 * the page has painted, the page hydrates part by part, a visitor who acts first gets the
 * app at once, and nothing typed or sent before the app is there is lost or sent twice.
 */
import type { Page, Request, Route } from '@playwright/test';
import { API_PATH, FORM_RESULT_PAGES } from '@site/core/contract';
import { scoreOf, SUSPECT_SCORE, type SpamSignal } from '@site/core/spam';
import { HOME_PARTS } from '@site/frontend/components/HomePage';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { contactForm } from '@site/frontend/content/site';
import { expect, hydrated, open, test, type Site } from './fixtures';

const ENTRY = /\/assets\/index-[\w-]+\.js$/;

/** Holds back every response for `url` until `release()`; `requested` settles when the browser asks for it. */
async function holdBack(page: Page, url: RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested!: (request: Request) => void;
  const asked = new Promise<Request>((resolve) => (requested = resolve));
  await page.route(url, async (route: Route) => {
    requested(route.request());
    await released;
    await route.continue();
  });
  return { release, requested: asked };
}

const marks = (page: Page) => page.evaluate(() => performance.getEntriesByType('mark').map((mark) => mark.name));

/** The stored messages from the visitor with this name. */
async function storedMessages(site: Site, name: string): Promise<Record<string, unknown>[]> {
  return (await site.storedMessages()).filter((item) => item.name === name);
}

test.describe('loading the app', () => {
  test('requests no script before the first contentful paint, then hydrates every part, each in its own turn', async ({ page }) => {
    await open(page, '/');
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'script' || entry.name.endsWith('.js'))
        .map((entry) => ({ name: entry.name, start: entry.startTime })),
    }));
    expect(timing.scripts).toHaveLength(1);
    expect(timing.scripts[0]!.name).toMatch(ENTRY);
    expect(timing.scripts[0]!.start).toBeGreaterThan(timing.fcp);
    expect(await marks(page)).toEqual([...HOME_PARTS.map((id) => `${HYDRATED_MARK}:${id}`), HYDRATED_MARK]);
  });

  test('restyles and lays out only what it changes while it starts: no style recalculation or layout after the first paint covers the whole page', async ({
    page,
    browser,
  }) => {
    // A change on the root element (a custom property, a class) makes the browser restyle
    // every element of the page, in the task that next reads layout: the longest task of the
    // app's start, 10 ms of the CPU on a fast machine, four times that on a phone.
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await open(page, '/');
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: {
        name: string;
        pid: number;
        ts: number;
        args?: { elementCount?: number; data?: { isMainFrame?: boolean }; beginData?: { dirtyObjects?: number; totalObjects?: number } };
      }[];
    };
    const paint = traceEvents.find((event) => event.name === 'firstContentfulPaint')!;
    const parsed = traceEvents.find((event) => event.name === 'MarkDOMContent' && event.args?.data?.isMainFrame)!;
    // On a slow machine the page paints while the parser still adds the rest of the document;
    // the first style update (and layout) after the parser's end handles that rest for the first
    // time, which is no restyle. Count what comes after that first pass over the whole page.
    const afterFirstPass = (name: string) => {
      const events = traceEvents.filter((event) => event.name === name && event.pid === paint.pid);
      const firstPass = parsed.ts < paint.ts ? paint.ts : events.find((event) => event.ts > parsed.ts)!.ts;
      return events.filter((event) => event.ts > firstPass);
    };
    const restyled = afterFirstPass('UpdateLayoutTree').map((event) => event.args?.elementCount ?? 0);
    expect(restyled.length).toBeGreaterThan(0);
    // Setting the blocks near the view in the typeface restyles those blocks, together (src/loader.ts);
    // the parts React or the visitor's first scroll change are a handful of elements each.
    const setInTypeface = await page.evaluate(() => document.querySelectorAll('[data-typeface], [data-typeface] *').length);
    expect(setInTypeface).toBeLessThan(elements / 2);
    expect(Math.max(...restyled)).toBeLessThanOrEqual(Math.max(setInTypeface, elements / 4));
    // Loading the typeface lays nothing out again (its faces are used by no text until then), and
    // each block set in it lays out that block: no layout after the page's first covers it all.
    const relaid = afterFirstPass('Layout').map((event) => event.args!.beginData!);
    expect(relaid.length).toBeGreaterThan(0);
    const objects = Math.max(...relaid.map((layout) => layout.totalObjects!));
    expect(Math.max(...relaid.map((layout) => layout.dirtyObjects!))).toBeLessThan(objects / 2);
  });

  test('starts the app at once for a visitor who acts before the page has painted', async ({ page }) => {
    // The stylesheet holds back the first paint and the load event until released.
    const stylesheet = await holdBack(page, /\/assets\/index-[\w-]+\.css$/);
    await page.goto('/', { waitUntil: 'commit' });
    await stylesheet.requested;
    const entry = page.waitForRequest(ENTRY);
    await page.locator('#contact-name').focus();
    await entry;
    expect(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length)).toBe(0);
    stylesheet.release();
    await hydrated(page);
  });
});

const MESSAGE = {
  name: 'Snelle Typist',
  email: 'snel@typist.nl',
  phone: '06 1234 5678',
  company: 'Typisten & Co',
  message: 'Ik typte dit voordat de pagina klaar was.\nGeen letter mag verloren gaan.',
};
const field = (page: Page, name: string) => page.locator(`#contact-${name}`);

test.describe('the contact form before the app is there', () => {
  test('keeps every character typed before and during hydration, and sends it once with the app', async ({ page, site }) => {
    const app = await holdBack(page, ENTRY);
    await page.goto('/');
    const posts: Request[] = [];
    page.on('request', (request) => request.url().endsWith(API_PATH) && posts.push(request));
    await app.requested;
    // A fast typist, no pauses: two fields before the app has arrived, the rest while it arrives and hydrates.
    await field(page, 'name').pressSequentially(MESSAGE.name);
    await field(page, 'email').pressSequentially(MESSAGE.email);
    expect(await marks(page)).toEqual([]);
    app.release();
    await field(page, 'phone').pressSequentially(MESSAGE.phone);
    await field(page, 'company').pressSequentially(MESSAGE.company);
    await field(page, 'message').pressSequentially(MESSAGE.message);
    await hydrated(page);
    for (const [name, value] of Object.entries(MESSAGE)) await expect(field(page, name)).toHaveValue(value);

    const answered = page.waitForResponse((response) => response.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();
    expect((await answered).status()).toBe(200);
    await expect(
      page.getByRole('status').getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.'),
    ).toBeVisible();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.postDataJSON()).toMatchObject(MESSAGE);
    const stored = await storedMessages(site, MESSAGE.name);
    expect(stored).toEqual([expect.objectContaining(MESSAGE)]);
    // Typed by a script, it may be sent faster than a person fills the form: then it is held
    // for the digest (fastFill), as such a message from anyone would be, and not e-mailed.
    const suspect = scoreOf((stored[0]!.signals ?? []) as SpamSignal[]) >= SUSPECT_SCORE;
    expect(stored[0]!.status).toBe(suspect ? 'held' : 'emailed');
    expect(await site.sentEmails()).toHaveLength(suspect ? 0 : 1);
  });

  test('sends a form submitted before the app is there as a form post, once', async ({ page, site }) => {
    const sender = { ...MESSAGE, name: 'Vroege Verzender' };
    const app = await holdBack(page, ENTRY);
    await page.goto('/');
    const posts: Request[] = [];
    page.on('request', (request) => request.url().endsWith(API_PATH) && posts.push(request));
    await app.requested;
    for (const [name, value] of Object.entries(sender)) await field(page, name).fill(value);
    const answered = page.waitForResponse((response) => response.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();
    const answer = await answered;
    await expect(page).toHaveURL(FORM_RESULT_PAGES.sent);
    // The app arriving now changes nothing: the page it was for is gone.
    app.release();
    await hydrated(page);

    expect(answer.status()).toBe(303);
    expect(posts.map((post) => post.headers()['content-type'])).toEqual(['application/x-www-form-urlencoded']);
    expect(await storedMessages(site, sender.name)).toEqual([expect.objectContaining({ ...sender, status: 'emailed' })]);
    expect(await site.sentEmails()).toHaveLength(1);
  });
});
