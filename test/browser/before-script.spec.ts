/**
 * The header and the anchor links before the app's script has run (a slow phone), when it
 * failed, and without JavaScript: CSS alone turns the header solid past 10 px (a scroll-driven
 * animation) and stops every anchor 80 px above its section (scroll-padding), smoothly.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hero, nav } from '@site/frontend/content/site';
import { scrollInstantly, scrollSettled, startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const ENTRY = /\/assets\/index-[\w-]+\.js$/;
const viewport = (width: number) => ({ viewport: { width, height: width < 720 ? 844 : 900 } });

/** Relative luminance of a CSS colour. */
function luminance(color: string): number {
  const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map((n) => channel(Number(n) / 255));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** How the header looks now: solid (white, navy text) or transparent (white text over the hero). */
async function headerLook(page: Page): Promise<string> {
  const { background, color } = await page
    .locator('header.site-header')
    .evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color }));
  if (background === 'rgba(0, 0, 0, 0)' && luminance(color) > 0.9) return 'transparent';
  if (/^rgba?\(255, 255, 255/.test(background) && luminance(color) < 0.05) return 'solid';
  return `${background} with ${color}`;
}

/**
 * Scrolls to `y` and waits for the header to look `expected`: a scroll-driven animation
 * follows a frame later, so poll (a page without JavaScript runs no waitForFunction).
 */
async function expectHeaderAt(page: Page, y: number, expected: 'solid' | 'transparent'): Promise<void> {
  await scrollInstantly(page, y);
  await expect.poll(() => page.evaluate(() => window.scrollY), { message: `scrolled to ${y}` }).toBe(y);
  await expect.poll(() => headerLook(page), { message: `at ${y} px` }).toBe(expected);
}

describe('the header before the app’s script has run', () => {
  it.each([768, 1440])('turns solid past 10 px without JavaScript, over the page as with it (%i px)', async (width) => {
    const { page } = await site.open('/', { ...viewport(width), javaScriptEnabled: false });
    expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await expectHeaderAt(page, 0, 'transparent');
    await expectHeaderAt(page, 10, 'transparent');
    await expectHeaderAt(page, 11, 'solid');
    await expectHeaderAt(page, 2000, 'solid');
    await expectHeaderAt(page, 10, 'transparent');
  });

  it.each([390, 1440])('turns solid past 10 px while the app’s script has not arrived (%i px)', async (width) => {
    const { page } = await site.open('/', viewport(width), {
      waitUntil: 'load',
      hydrated: false,
      // The app never arrives: a slow phone, or a script that failed.
      beforeLoad: async (p) => void (await p.route(ENTRY, () => {})),
    });
    await expectHeaderAt(page, 10, 'transparent');
    await expectHeaderAt(page, 11, 'solid');
    // CSS did it: the script's class is not there.
    expect(await page.locator('header.site-header').getAttribute('class')).toBe('site-header');
  });

  it('stays white with the menu open at the top of the page, where the scroll-driven state is transparent', async () => {
    const { page } = await site.open('/', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.getByRole('button', { name: nav.menuButton }).click();
    await expectHeaderAt(page, 0, 'solid');
  });
});

describe('anchor links without JavaScript', () => {
  it.each([390, 768, 1440])('scroll smoothly and stop 80 px above the section (%i px)', async (width) => {
    const { page } = await site.open('/', { ...viewport(width), javaScriptEnabled: false });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
    const links = nav.links.filter((link) => link.href !== nav.links[0].href);
    for (const link of links) {
      await page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: link.label, exact: true }).click();
      await scrollSettled(page);
      const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, link.href.slice(1));
      expect(Math.abs(top - 80), `${link.href} at ${top}`).toBeLessThanOrEqual(1);
    }
    await scrollInstantly(page, 0);
    await page.getByRole('link', { name: hero.scrollDown.label }).click();
    await scrollSettled(page);
    const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, hero.scrollDown.href.slice(1));
    expect(Math.abs(top - 80)).toBeLessThanOrEqual(1);
  });
});
