/**
 * Type as a reader sees it, in Chromium at a phone's and a laptop's width, with and without
 * JavaScript: no heading or text ends on a lone word, and English words are marked English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expertise, expertiseInDutch, hero } from '@site/frontend/content/site';
import { loneLastWords } from '@site/testing/lone-words';
import { startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const VIEWPORTS = [
  ['390', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['1440', { viewport: { width: 1440, height: 900 } }],
] as const;

const TEXTS = 'h1, h2, h3, h4, p, li, .service-tab-summary';

describe.each(VIEWPORTS)('type at %s px', (_, options) => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('ends no heading or text of the home page on a lone word (%s)', async (__, javaScriptEnabled) => {
    const { page } = await site.open('/', { ...options, javaScriptEnabled });
    // Every service's panel, as a visitor who reads them all sees it.
    const found = await loneLastWords(page, TEXTS);
    for (const tab of javaScriptEnabled ? await page.getByRole('tab').all() : []) {
      await tab.click();
      found.push(...(await loneLastWords(page, '.service-panel:not([hidden]) :is(h3, p, li)')));
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it('ends no heading or text of the other pages on a lone word', async () => {
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
      const { page } = await site.open(path, options);
      expect(await loneLastWords(page, TEXTS), path).toEqual([]);
    }
  });
});

describe('English in the Dutch page', () => {
  it('is marked lang="en": the badge, the English expertise terms, Scroll down', async () => {
    const { page } = await site.open('/');
    expect(await page.locator('html').getAttribute('lang')).toBe('nl');
    expect(await page.getByText(hero.badge).getAttribute('lang')).toBe('en');
    expect(await page.getByRole('link', { name: hero.scrollDown.label }).getAttribute('lang')).toBe('en');
    const langOf = (selector: string) =>
      page.locator(selector).evaluateAll((terms) => terms.map((term) => [term.textContent, term.getAttribute('lang')]));
    const expected = expertise.map((term) => [term, (expertiseInDutch as readonly string[]).includes(term) ? null : 'en']);
    // What is shown and what a screen reader hears.
    expect(await langOf('.expertise-term')).toEqual(expected);
    expect(await langOf('.expertise-label .visually-hidden > span')).toEqual(expected);
  });

  it('is marked lang="en" on the 404 page: its headline and its link home', async () => {
    const { page } = await site.open('/bestaat-niet');
    expect(await page.getByRole('heading', { level: 1 }).getAttribute('lang')).toBe('en');
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('lang')).toBe('en');
  });
});
