/**
 * The main action, as a visitor sees it: every 'contact us' button, in the header, the hero,
 * the services and the form, is one colour, the most prominent on the page, and the
 * secondary actions beside them are outlines.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForm, hero, nav, servicesSection } from '@site/frontend/content/site';
import { startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const VIEWPORTS = [
  ['390', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['768', { viewport: { width: 768, height: 1024 } }],
  ['1440', { viewport: { width: 1440, height: 900 } }],
] as const;

const background = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);

/** The main actions of the home page, by what they say; the header's is in the menu on a phone. */
async function mainActions(page: Page): Promise<[string, Locator][]> {
  const menu = page.getByRole('button', { name: nav.menuButton });
  if (await menu.isVisible()) await menu.click();
  return [
    ['header', page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: nav.links.at(-1)!.label, exact: true })],
    ['hero', page.getByRole('link', { name: hero.primaryCta.label })],
    ['services', page.getByRole('link', { name: servicesSection.cta.label })],
    ['form', page.getByRole('button', { name: contactForm.submit })],
  ];
}

describe.each(VIEWPORTS)('the main action at %s px', (_, options) => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('has one colour everywhere, and the secondary action beside it none (%s)', async (__, javaScriptEnabled) => {
    const { page } = await site.open('/', { ...options, javaScriptEnabled });
    const colours = Object.fromEntries(
      await Promise.all((await mainActions(page)).map(async ([where, l]) => [where, await background(l)])),
    );
    const action = await page.evaluate(() => {
      const probe = document.body.appendChild(document.createElement('i'));
      probe.style.setProperty('background-color', 'var(--action)');
      return getComputedStyle(probe).backgroundColor;
    });
    expect(colours).toEqual({ header: action, hero: action, services: action, form: action });
    expect(await background(page.getByRole('link', { name: hero.secondaryCta.label }))).toBe('rgba(0, 0, 0, 0)');
  });
});
