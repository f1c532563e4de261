import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClockUntil, startSite, whileClockCreeps, type Site } from './support';
import { EXPERTISE_FADE_MS } from '@site/frontend/expertise-rotation';
import { contactForm, nav } from '@site/frontend/content/site';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

/**
 * What a visitor sees once everything has shown: with reduced motion nothing is hidden to
 * reveal later and nothing fades, so axe judges final colours at once, without waiting for
 * an animation (the fading expertise term below is the one test whose subject is a fade).
 */
const SETTLED = { reducedMotion: 'reduce' } as const;

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility (axe-core, every rule it runs by default)', () => {
  it.each([390, 1440])('finds no violations on the home page at %i px', async (width) => {
    // Everything shown, as a visitor who scrolled would see it.
    const { page } = await site.open('/', { viewport: { width, height: 900 }, ...SETTLED });
    expect(await violations(page)).toEqual([]);
    // The transparent header over the hero is checked at the top of the page.
    expect(await page.locator('header.site-header').getAttribute('class')).not.toContain('is-scrolled');
  });

  it('finds no violations with the header solid over the page, its main action on white', async () => {
    const { page } = await site.open('/', { viewport: { width: 1440, height: 900 }, ...SETTLED });
    await page.evaluate(() => window.scrollTo({ top: 1200, behavior: 'instant' }));
    await expect.poll(() => page.locator('header.site-header').getAttribute('class')).toContain('is-scrolled');
    expect(await violations(page)).toEqual([]);
  });

  it('finds no violations with the mobile menu open, a toast showing and another service selected', async () => {
    const { page } = await site.open('/', { viewport: { width: 390, height: 844 }, ...SETTLED });
    await page.getByRole('tab').nth(1).click();
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: nav.menuButton }).click();
    expect(await violations(page)).toEqual([]);
  });

  it.each([390, 1440])('finds no violations on the confirmation in the form’s place, the success toast showing (%i px)', async (width) => {
    const { page } = await site.open('/', { viewport: { width, height: 900 }, ...SETTLED });
    await page.locator('#contact-name').fill('Anna de Vries');
    await page.locator('#contact-email').fill('anna@bedrijf.nl');
    await page.locator('#contact-message').fill('Graag een gesprek.');
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByRole('heading', { name: 'Bedankt, Anna' }).waitFor();
    await page.getByRole('status').waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('finds no violations while the expertise term fades', async () => {
    const { page } = await site.open('/', {}, { stoppedClock: true });
    await page.locator('#contact').scrollIntoViewIfNeeded();
    // Held there: the term has begun to fade and the next one waits for the clock.
    const terms = page.locator('.expertise-terms');
    await runClockUntil(page, async () => (await terms.getAttribute('class'))!.includes('is-fading'));
    await page.waitForTimeout(EXPERTISE_FADE_MS / 2);
    const { result, creptMs } = await whileClockCreeps(page, violations(page));
    expect(result).toEqual([]);
    // axe judged the fading term: the next one had not come yet.
    expect(creptMs).toBeLessThan(EXPERTISE_FADE_MS);
    expect(await terms.getAttribute('class')).toContain('is-fading');
  });

  it.each([390, 1440])('finds no violations on the privacy statement at %i px', async (width) => {
    const { page } = await site.open('/privacy', { viewport: { width, height: 900 } });
    expect(await violations(page)).toEqual([]);
  });

  it.each([390, 1440])('finds no violations on the 404 page and the form’s result pages at %i px', async (width) => {
    for (const path of ['/does-not-exist', '/bedankt', '/controleer-bericht/email', '/niet-verzonden/limiet']) {
      const { page } = await site.open(path, { viewport: { width, height: 900 } });
      expect(await violations(page), path).toEqual([]);
    }
  });

  it('has landmarks, exactly one h1 and no skipped heading level', async () => {
    const { page } = await site.open('/');
    for (const role of ['banner', 'navigation', 'main', 'contentinfo'] as const)
      expect(await page.getByRole(role).count()).toBeGreaterThan(0);
    expect(await page.locator('h1').count()).toBe(1);
    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
    levels.forEach((level, i) => i > 0 && expect(level - levels[i - 1]!).toBeLessThanOrEqual(1));
  });

  it('shows a visible focus ring on links, buttons, tabs and fields', async () => {
    const { page } = await site.open('/');
    const targets = [
      '.hero .btn-primary',
      '.service-tab[aria-selected="true"]',
      '.expertise-pause',
      '#contact-name',
      '.contact-form .btn-primary',
    ];
    for (const selector of targets) {
      await page.locator(selector).focus();
      const ring = await page.locator(selector).evaluate((el) => {
        const style = getComputedStyle(el);
        return { outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2, shadow: style.boxShadow !== 'none' };
      });
      expect(ring.outline || ring.shadow, selector).toBe(true);
    }
  });
});
