/**
 * Type as a reader sees it, in Chromium at a phone's and a laptop's width, with and without
 * JavaScript: no heading or text ends on a lone word, and English words are marked English.
 */
import { expertise, expertiseInDutch, hero } from '@site/frontend/content/site';
import { loneLastWords } from '@site/testing/lone-words';
import { expect, open, test } from './fixtures';
import { on } from './viewports';

const TEXTS = 'h1, h2, h3, h4, p, li, .service-tab-summary';

test.describe('type', { tag: on('phone', 'desktop') }, () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(`ends no heading or text of the home page on a lone word (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
        page,
      }) => {
        await (javaScriptEnabled ? open(page, '/') : page.goto('/'));
        // Every service's panel, as a visitor who reads them all sees it.
        const found = await loneLastWords(page, TEXTS);
        for (const tab of javaScriptEnabled ? await page.getByRole('tab').all() : []) {
          await tab.click();
          found.push(...(await loneLastWords(page, '.service-panel:not([hidden]) :is(h3, p, li)')));
        }
        expect([...new Set(found)]).toEqual([]);
      });
    });
  }

  test('ends no heading or text of the other pages on a lone word', async ({ page }) => {
    for (const path of [
      '/privacy',
      '/bedankt',
      '/controleer-bericht',
      '/controleer-bericht/email',
      '/niet-verzonden',
      '/niet-verzonden/limiet',
      '/niet-verzonden/druk',
      '/bestaat-niet',
    ]) {
      await open(page, path);
      expect(await loneLastWords(page, TEXTS), path).toEqual([]);
    }
  });
});

test.describe('English in the Dutch page', () => {
  test('is marked lang="en": the badge, the English expertise terms, Scroll down', async ({ page }) => {
    await open(page, '/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await expect(page.getByText(hero.badge)).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('link', { name: hero.scrollDown.label })).toHaveAttribute('lang', 'en');
    const langOf = (selector: string) =>
      page.locator(selector).evaluateAll((terms) => terms.map((term) => [term.textContent, term.getAttribute('lang')]));
    const expected = expertise.map((term) => [term, (expertiseInDutch as readonly string[]).includes(term) ? null : 'en']);
    // What is shown and what a screen reader hears.
    expect(await langOf('.expertise-term')).toEqual(expected);
    expect(await langOf('.expertise-label .visually-hidden > span')).toEqual(expected);
  });

  test('is marked lang="en" on the 404 page: its headline and its link home', async ({ page }) => {
    await open(page, '/bestaat-niet');
    await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('lang', 'en');
  });
});
