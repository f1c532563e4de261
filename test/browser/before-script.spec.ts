/**
 * The header and the anchor links before the app's script has run (a slow phone), when it
 * failed, and without JavaScript: CSS alone turns the header solid past 10 px (a scroll-driven
 * animation) and stops every anchor 80 px above its section (scroll-padding), smoothly.
 */
import type { Page } from '@playwright/test';
import { hero, nav } from '@site/frontend/content/site';
import { expect, expectScrolledTo, open, scrollInstantly, test } from './fixtures';
import { on } from './viewports';

const ENTRY = /\/assets\/index-[\w-]+\.js$/;

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

test.describe('the header before the app’s script has run', () => {
  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test('turns solid past 10 px without JavaScript, over the page as with it', { tag: on('tablet', 'desktop') }, async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('header.site-header')).toHaveCSS('position', 'fixed');
      await expectHeaderAt(page, 0, 'transparent');
      await expectHeaderAt(page, 10, 'transparent');
      await expectHeaderAt(page, 11, 'solid');
      await expectHeaderAt(page, 2000, 'solid');
      await expectHeaderAt(page, 10, 'transparent');
    });
  });

  test('turns solid past 10 px while the app’s script has not arrived', { tag: on('phone', 'desktop') }, async ({ page }) => {
    // The app never arrives: a slow phone, or a script that failed.
    await page.route(ENTRY, () => {});
    await page.goto('/');
    await expectHeaderAt(page, 10, 'transparent');
    await expectHeaderAt(page, 11, 'solid');
    // CSS did it: the script's class is not there.
    await expect(page.locator('header.site-header')).toHaveAttribute('class', 'site-header');
  });

  test(
    'stays white with the menu open at the top of the page, where the scroll-driven state is transparent',
    { tag: on('phone') },
    async ({ page }) => {
      await open(page, '/');
      await page.getByRole('button', { name: nav.menuButton }).click();
      await expectHeaderAt(page, 0, 'solid');
    },
  );
});

test.describe('anchor links without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('scroll smoothly and stop 80 px above the section', { tag: on('phone', 'tablet', 'desktop') }, async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveCSS('scroll-behavior', 'smooth');
    const links = nav.links.filter((link) => link.href !== nav.links[0].href);
    for (const link of links) {
      await page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: link.label, exact: true }).click();
      await expectScrolledTo(page, link.href.slice(1));
    }
    await scrollInstantly(page, 0);
    await page.getByRole('link', { name: hero.scrollDown.label }).click();
    await expectScrolledTo(page, hero.scrollDown.href.slice(1));
  });
});
