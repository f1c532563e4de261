/**
 * The main action, as a visitor sees it: every 'contact us' button, in the header, the hero,
 * the services and the form, is one colour, the most prominent on the page, and the
 * secondary actions beside them are outlines.
 */
import type { Locator, Page } from '@playwright/test';
import { contactForm, hero, nav, servicesSection } from '@site/frontend/content/site';
import { expect, open, test } from './fixtures';
import { on } from './viewports';

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

test.describe('the main action', { tag: on('phone', 'tablet', 'desktop') }, () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(`has one colour everywhere, and the secondary action beside it none (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
        page,
      }) => {
        await (javaScriptEnabled ? open(page, '/') : page.goto('/'));
        const colours = Object.fromEntries(
          await Promise.all((await mainActions(page)).map(async ([where, l]) => [where, await background(l)])),
        );
        const action = await page.evaluate(() => {
          const probe = document.body.appendChild(document.createElement('i'));
          probe.style.setProperty('background-color', 'var(--action)');
          return getComputedStyle(probe).backgroundColor;
        });
        expect(colours).toEqual({ header: action, hero: action, services: action, form: action });
        await expect(page.getByRole('link', { name: hero.secondaryCta.label })).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
      });
    });
  }
});
