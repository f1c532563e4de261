/**
 * A visitor on a slow phone who taps as soon as the page shows (issue 50): the phone's CPU and
 * network (@site/testing/phone), a tap 100 ms after the first paint, before the app has started,
 * and each control taking effect without a second tap, at the latest a second after the app has
 * hydrated; then focus, state and keys as always.
 */
import type { Locator, Page } from '@playwright/test';
import { nav, services } from '@site/frontend/content/site';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { emulatePhone } from '@site/testing/phone';
import { accessibleState, expect, expectMenuOpen, hydrated, test } from './fixtures';
import { on } from './viewports';

/** What the page records of itself, from before its own scripts run (all times on its performance clock, ms). */
interface EarlyRecord {
  firstPaint?: number;
  /** Every pointerdown, and whether the app had started by then (hydration.ts's attribute on <html>). */
  taps: { at: number; appStarted: boolean }[];
  /** When a popover opened, by its id. */
  opened: { id: string; at: number }[];
  /** When an element became aria-selected, by its id. */
  selected: { id: string; at: number }[];
}

declare global {
  interface Window {
    __early: EarlyRecord;
  }
}

function recordEarly(): void {
  const record: EarlyRecord = { taps: [], opened: [], selected: [] };
  window.__early = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-paint') record.firstPaint = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  // The event's time is when the finger came down, however long the busy page took to handle it.
  addEventListener(
    'pointerdown',
    (event) => record.taps.push({ at: event.timeStamp, appStarted: document.documentElement.hasAttribute('data-app-started') }),
    true,
  );
  // A popover's toggle does not bubble; a listener on the document hears it on the way down.
  document.addEventListener(
    'toggle',
    (event) => {
      if (event.newState === 'open') record.opened.push({ id: (event.target as Element).id, at: performance.now() });
    },
    true,
  );
  new MutationObserver((mutations) => {
    for (const { target } of mutations)
      if ((target as Element).getAttribute('aria-selected') === 'true')
        record.selected.push({ id: (target as Element).id, at: performance.now() });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-selected'] });
}

/** Opens the home page on the phone, with the page recording itself, up to the response (the page not yet shown). */
async function openOnPhone(page: Page): Promise<void> {
  await page.addInitScript(recordEarly);
  await emulatePhone(await page.context().newCDPSession(page));
  await page.goto('/', { waitUntil: 'commit' });
}

/**
 * Taps `target` 100 ms after the first paint, as a visitor's finger does: where it is shown at
 * the first paint (scrolled into the middle of the view then), with no wait for it to be ready
 * as Playwright's own tap waits, which on the slowed page came most of a second later. Returns
 * the first paint's time.
 */
async function tapAfterFirstPaint(page: Page, target: Locator): Promise<number> {
  const element = await target.elementHandle();
  const shown = await page.waitForFunction(
    (element) => {
      const firstPaint = window.__early.firstPaint;
      if (firstPaint === undefined) return null;
      element.scrollIntoView({ block: 'center', behavior: 'instant' });
      const box = element.getBoundingClientRect();
      return { firstPaint, now: performance.now(), x: box.x + box.width / 2, y: box.y + box.height / 2 };
    },
    element,
    { polling: 'raf' },
  );
  const { firstPaint, now, x, y } = (await shown.jsonValue())!;
  if (firstPaint + 100 > now) await page.waitForTimeout(firstPaint + 100 - now);
  await page.touchscreen.tap(x, y);
  return firstPaint;
}

/** The page's record once it has hydrated, with the time of its `hydrated` mark. */
async function recordAfterHydration(page: Page): Promise<EarlyRecord & { hydratedAt: number }> {
  await hydrated(page);
  return page.evaluate((mark) => ({ ...window.__early, hydratedAt: performance.getEntriesByName(mark)[0]!.startTime }), HYDRATED_MARK);
}

/** The test's one tap came 100 ms or more after the first paint, before the app had started: the gap issue 50 is about. */
function expectOneEarlyTap(record: EarlyRecord, firstPaint: number): void {
  expect(record.taps, 'one tap').toHaveLength(1);
  const [tap] = record.taps;
  expect(tap!.at - firstPaint, 'the tap, ms after the first paint').toBeGreaterThanOrEqual(100);
  expect(tap!.appStarted, 'the app started before the tap').toBe(false);
}

test.describe('a tap 100 ms after the first paint, on a slow phone', { tag: on('phone') }, () => {
  // The phone's 4× CPU and slow network make the page's load several times longer.
  test.slow();

  test('opens the menu, before the app and without a second tap; Escape closes it once hydrated', async ({ page }) => {
    await openOnPhone(page);
    const button = page.getByRole('button', { name: nav.menuButton });
    const firstPaint = await tapAfterFirstPaint(page, button);

    const record = await recordAfterHydration(page);
    expectOneEarlyTap(record, firstPaint);
    const opened = record.opened.filter(({ id }) => id === 'site-menu');
    expect(opened, 'the menu opened once').toHaveLength(1);
    expect(opened[0]!.at, 'the menu open at the latest a second after hydration').toBeLessThanOrEqual(record.hydratedAt + 1000);
    await expectMenuOpen(page, true);
    await expect(page.locator('#site-menu').getByRole('link', { name: nav.links[1].label })).toBeVisible();

    await page.keyboard.press('Escape');
    await expectMenuOpen(page, false);
    await expect(button).toBeFocused();
    expect(await accessibleState(page, 'button', nav.menuButton)).toMatchObject({ focused: true, expanded: false });
  });

  test('selects the tapped service, before the app has started, without a second tap; the keys move on from it once hydrated', async ({
    page,
  }) => {
    const [previous, tapped] = services.slice(-2);
    await openOnPhone(page);
    const tab = page.getByRole('tab', { name: tapped!.title });
    const firstPaint = await tapAfterFirstPaint(page, tab);

    const record = await recordAfterHydration(page);
    expectOneEarlyTap(record, firstPaint);
    const id = await tab.getAttribute('id');
    const selected = record.selected.filter((entry) => entry.id === id);
    expect(selected, 'the tapped service selected').not.toHaveLength(0);
    expect(selected[0]!.at, 'selected at the latest a second after hydration').toBeLessThanOrEqual(record.hydratedAt + 1000);
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText(tapped!.description);
    await expect(tab).toBeFocused();

    await page.keyboard.press('ArrowUp');
    const before = page.getByRole('tab', { name: previous!.title });
    await expect(before).toHaveAttribute('aria-selected', 'true');
    await expect(before).toBeFocused();
    await expect(tab).toHaveAttribute('aria-selected', 'false');
  });
});
