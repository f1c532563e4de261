import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { EXPERTISE_FADE_MS } from '@site/frontend/expertise-rotation';
import { contactForm, nav } from '@site/frontend/content/site';
import { expect, open, runClockUntil, stopClock, test, whileClockCreeps } from './fixtures';
import { on } from './viewports';

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('accessibility (axe-core, every rule it runs by default)', () => {
  test.describe('once everything has shown', () => {
    // What a visitor sees once everything has shown: with reduced motion nothing is hidden to
    // reveal later and nothing fades, so axe judges final colours at once, without waiting for
    // an animation (the fading expertise term below is the one test whose subject is a fade).
    test.use({ reducedMotion: 'reduce' });

    test('finds no violations on the home page', { tag: on('phone', 'desktop') }, async ({ page }) => {
      // Everything shown, as a visitor who scrolled would see it.
      await open(page, '/');
      expect(await violations(page)).toEqual([]);
      // The transparent header over the hero is checked at the top of the page.
      await expect(page.locator('header.site-header')).not.toContainClass('is-scrolled');
    });

    test('finds no violations with the header solid over the page, its main action on white', async ({ page }) => {
      await open(page, '/');
      await page.evaluate(() => window.scrollTo({ top: 1200, behavior: 'instant' }));
      await expect(page.locator('header.site-header')).toContainClass('is-scrolled');
      expect(await violations(page)).toEqual([]);
    });

    test(
      'finds no violations with the mobile menu open, a toast showing and another service selected',
      { tag: on('phone') },
      async ({ page }) => {
        await open(page, '/');
        await page.getByRole('tab').nth(1).click();
        await page.getByRole('button', { name: contactForm.submit }).click();
        await expect(page.getByRole('alert')).toBeVisible();
        await page.getByRole('button', { name: nav.menuButton }).click();
        expect(await violations(page)).toEqual([]);
      },
    );

    test(
      'finds no violations on the confirmation in the form’s place, the success toast showing',
      { tag: on('phone', 'desktop') },
      async ({ page }) => {
        await open(page, '/');
        await page.locator('#contact-name').fill('Anna de Vries');
        await page.locator('#contact-email').fill('anna@bedrijf.nl');
        await page.locator('#contact-message').fill('Graag een gesprek.');
        await page.getByRole('button', { name: contactForm.submit }).click();
        await expect(page.getByRole('heading', { name: 'Bedankt, Anna' })).toBeVisible();
        await expect(page.getByRole('status')).toBeVisible();
        expect(await violations(page)).toEqual([]);
      },
    );
  });

  test('finds no violations while the expertise term fades', async ({ page }) => {
    await stopClock(page);
    await page.goto('/');
    await page.locator('#contact').scrollIntoViewIfNeeded();
    // Held there: the term has begun to fade and the next one waits for the clock.
    const terms = page.locator('.expertise-terms');
    await runClockUntil(page, async () => expect(await terms.getAttribute('class')).toContain('is-fading'));
    // The fade (a transition, on the browser's own time) held halfway, where axe judges it.
    const fades = await terms.evaluate((element, halfway) => {
      const transitions = element.getAnimations({ subtree: true });
      for (const transition of transitions) {
        transition.pause();
        transition.currentTime = halfway;
      }
      return transitions.length;
    }, EXPERTISE_FADE_MS / 2);
    expect(fades).toBeGreaterThan(0);
    const { result, creptMs } = await whileClockCreeps(page, violations(page));
    expect(result).toEqual([]);
    // axe judged the fading term: the next one had not come yet.
    expect(creptMs).toBeLessThan(EXPERTISE_FADE_MS);
    await expect(terms).toContainClass('is-fading');
  });

  test('finds no violations on the privacy statement', { tag: on('phone', 'desktop') }, async ({ page }) => {
    await open(page, '/privacy');
    expect(await violations(page)).toEqual([]);
  });

  test('finds no violations on the 404 page and the form’s result pages', { tag: on('phone', 'desktop') }, async ({ page }) => {
    for (const path of ['/does-not-exist', '/bedankt', '/controleer-bericht/email', '/niet-verzonden/limiet']) {
      await open(page, path);
      expect(await violations(page), path).toEqual([]);
    }
  });

  test('has landmarks, exactly one h1 and no skipped heading level', async ({ page }) => {
    await open(page, '/');
    for (const role of ['banner', 'navigation', 'main', 'contentinfo'] as const) await expect(page.getByRole(role).first()).toBeAttached();
    await expect(page.locator('h1')).toHaveCount(1);
    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
    levels.forEach((level, i) => i > 0 && expect(level - levels[i - 1]!).toBeLessThanOrEqual(1));
  });

  test('shows a visible focus ring on links, buttons, tabs and fields', async ({ page }) => {
    await open(page, '/');
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
