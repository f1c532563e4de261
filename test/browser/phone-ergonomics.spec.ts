/**
 * A phone in the hand, in Chromium against the local stack: every footer link a target of at
 * least 24 × 24 px (WCAG 2.2, 2.5.8), and a way to call or mail in reach at the bottom of the
 * screen from the end of the hero to the contact section, with and without scripts.
 */
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import { callBar, emailHref, firm, phoneHref } from '@site/frontend/content/site';
import { scrollInstantly, scrollSettled, startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const HOME_INDICATOR_PX = 34;
/** WCAG 2.2, 2.5.8 Target Size (Minimum). */
const MIN_TARGET_PX = 24;

describe('footer links', () => {
  it.each([
    [390, true],
    [390, false],
    [1440, true],
  ])('are each a target of at least 24 × 24 px (%i px, JavaScript %s)', async (width, javaScriptEnabled) => {
    for (const path of ['/', '/privacy', FORM_RESULT_PAGES.sent]) {
      const { page } = await site.open(path, { ...(width === 390 ? PHONE : { viewport: { width, height: 900 } }), javaScriptEnabled });
      const links = await page.locator('footer a').evaluateAll((anchors) =>
        anchors.map((anchor) => {
          const { width, height } = anchor.getBoundingClientRect();
          return { link: anchor.textContent, width, height };
        }),
      );
      expect(links.length, path).toBeGreaterThanOrEqual(7);
      expect(
        links.filter(({ width, height }) => width < MIN_TARGET_PX || height < MIN_TARGET_PX),
        path,
      ).toEqual([]);
    }
  });
});

/** The bar's box, and whether a visitor sees it: rendered, not hidden, not faded out. */
function barState(bar: Locator) {
  return bar.evaluate((element) => {
    const { top, bottom, height } = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      top,
      bottom,
      height,
      seen: height > 0 && style.visibility === 'visible' && Number(style.opacity) > 0.5 && bottom > 0 && top < innerHeight,
    };
  });
}

const sectionTop = (page: Page, id: string) =>
  page.evaluate((section) => document.getElementById(section)!.getBoundingClientRect().top + scrollY, id);

describe('the call bar', () => {
  it.each([true, false])(
    'stays at the bottom of a phone’s screen from the end of the hero to the contact section, above the home indicator (JavaScript %s)',
    async (javaScriptEnabled) => {
      const { page } = await site.open('/', { ...PHONE, javaScriptEnabled });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { bottom: HOME_INDICATOR_PX, bottomMax: HOME_INDICATOR_PX } });
      const bar = page.locator('.call-bar');

      // Over the hero, which has buttons of its own: not there yet.
      expect((await barState(bar)).seen).toBe(false);

      for (const [section, into] of [
        ['about', 100],
        ['about', 900],
        ['services', 400],
        ['services', 1500],
      ] as const) {
        await scrollInstantly(page, (await sectionTop(page, section)) + into);
        // The fade follows the scroll on the next frame.
        await expect.poll(async () => [`${section} + ${into}`, (await barState(bar)).seen]).toEqual([`${section} + ${into}`, true]);
        expect(Math.round((await barState(bar)).bottom), `${section} + ${into}`).toBe(844);
      }
      // Its buttons are full targets above the home indicator, and say what they do.
      const group = page.getByRole('group', { name: callBar.label });
      const call = group.getByRole('link', { name: `${callBar.call} ${firm.phone}` });
      const mail = group.getByRole('link', { name: `${callBar.mail} ${firm.email}` });
      expect(await call.getAttribute('href')).toBe(phoneHref);
      expect(await mail.getAttribute('href')).toBe(emailHref);
      for (const link of [call, mail]) {
        const box = (await link.boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.y + box.height).toBeLessThanOrEqual(844 - HOME_INDICATOR_PX);
      }

      // With the contact section in view it is gone, so it never covers the form, its
      // fields, its button or its toasts; also with a field in use (the keyboard up).
      for (const into of [-500, -200, 300, 1200]) {
        await scrollInstantly(page, (await sectionTop(page, 'contact')) + into);
        await expect.poll(async () => [`contact ${into}`, (await barState(bar)).seen]).toEqual([`contact ${into}`, false]);
      }
      await page.locator('#contact-name').focus();
      await scrollSettled(page);
      await expect.poll(async () => (await barState(bar)).seen).toBe(false);
      // Nor in the footer, which has the details itself.
      await scrollInstantly(page, 100_000);
      await expect.poll(async () => (await barState(bar)).seen).toBe(false);
    },
  );

  it('is not on a wide screen, nor on paper', async () => {
    const { page } = await site.open('/', { viewport: { width: 1440, height: 900 } });
    await scrollInstantly(page, (await sectionTop(page, 'services')) + 200);
    expect(await page.locator('.call-bar').isVisible()).toBe(false);
    const phone = await site.open('/', PHONE);
    await scrollInstantly(phone.page, (await sectionTop(phone.page, 'services')) + 200);
    expect(await phone.page.locator('.call-bar').isVisible()).toBe(true);
    await phone.page.emulateMedia({ media: 'print' });
    expect(await phone.page.locator('.call-bar').isVisible()).toBe(false);
  });
});
