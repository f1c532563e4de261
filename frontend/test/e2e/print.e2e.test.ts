/**
 * The home page on paper, in Chromium's print media emulation and its PDF: every section's
 * text shown in dark ink (browsers print no backgrounds, so light text of a dark section
 * would vanish), also what the scroll reveal had not shown yet; none of the screen's chrome
 * (header bar and menu, toasts, buttons); a link's address written out; A4 pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { about, contact, contactForm, expertise, firm, footer, hero, services, servicesSection, SITE_ORIGIN } from '../../src/content/site';
import { startSite, type Site } from './support';
import { asRead } from '../as-read';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

/** A4 less the print stylesheet's margins (210 mm − 2 × 14 mm), in CSS pixels. */
const A4_CONTENT_WIDTH = Math.floor(((210 - 28) / 25.4) * 96);

interface PrintedText {
  text: string;
  /** Opacity of the element and every ancestor, multiplied. */
  opacity: number;
  /** Relative luminance of the text colour: paper is white, ink must be dark. */
  luminance: number;
}

/** Every piece of text the printed page renders, with how it would come out on paper. */
function printedTexts(page: Page): Promise<PrintedText[]> {
  return page.evaluate(() => {
    const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const luminance = (color: string) => {
      const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
      return 0.2126 * channel(r / 255) + 0.7152 * channel(g / 255) + 0.0722 * channel(b / 255);
    };
    const texts: PrintedText[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      const text = node.textContent!.trim();
      const range = document.createRange();
      range.selectNodeContents(node);
      const style = getComputedStyle(element);
      // What the page does not render on paper (display: none, off-screen honeypot, visually hidden).
      if (
        !text ||
        range.getClientRects().length === 0 ||
        style.visibility !== 'visible' ||
        element.closest('.visually-hidden, .honeypot')
      ) {
        continue;
      }
      let opacity = 1;
      for (let e: Element | null = element; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      texts.push({ text, opacity, luminance: luminance(style.color) });
    }
    return texts;
  });
}

const visible = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => elements.filter((element) => element.getClientRects().length > 0).length);

async function openForPrint(javaScriptEnabled: boolean): Promise<Page> {
  const { page } = await site.open('/', { javaScriptEnabled, viewport: { width: 1440, height: 900 } });
  if (javaScriptEnabled) {
    // A toast on screen, and sections the reveal has hidden because they were never scrolled to.
    await page.locator('#contact').evaluate((el) => el.scrollIntoView({ behavior: 'instant' }));
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByRole('alert').waitFor();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    expect(await page.locator('[data-reveal="hidden"]').count()).toBeGreaterThan(0);
  }
  await page.setViewportSize({ width: A4_CONTENT_WIDTH, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  return page;
}

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
])('the home page printed %s', (_, javaScriptEnabled) => {
  it('shows the text of every section in dark ink, the revealed and the not yet revealed alike', async () => {
    const page = await openForPrint(javaScriptEnabled);
    const texts = await printedTexts(page);
    const faint = texts
      .filter((t) => t.opacity < 1 || t.luminance > 0.2)
      .map((t) => `${t.text} (opacity ${t.opacity}, luminance ${t.luminance.toFixed(2)})`);
    expect(faint).toEqual([]);

    const printed = asRead(texts.map((t) => t.text).join(' '));
    const required = [
      hero.badge,
      hero.headline.lead,
      hero.headline.accent,
      hero.intro,
      ...hero.highlights,
      about.headline,
      ...about.cards.flatMap((card) => [card.title, card.text]),
      about.philosophy.title,
      about.philosophy.closing,
      servicesSection.headline,
      // Every service, not only the selected tab.
      ...services.flatMap((service) => [service.title, service.description, ...service.features]),
      servicesSection.why.headline,
      ...servicesSection.why.points.map((point) => point.text),
      contact.headline,
      contact.expertiseLabel,
      // The rotating line as the whole list.
      ...expertise,
      firm.email,
      firm.phone,
      firm.address.street,
      contactForm.title,
      footer.tagline,
      footer.rights,
    ];
    expect(required.filter((text) => !printed.includes(text))).toEqual([]);
  });

  it('leaves out the header bar, its menu, toasts and buttons, and writes out where a link goes', async () => {
    const page = await openForPrint(javaScriptEnabled);
    for (const chrome of [
      '.header-nav',
      '.menu-toggle',
      '.toaster',
      '.toast',
      'main button',
      'main .btn',
      '.hero-scroll',
      '.site-footer nav',
    ]) {
      expect(await visible(page, chrome), chrome).toBe(0);
    }
    // The firm's logo and name head the page, not a fixed bar over it.
    expect(await page.locator('.site-header').evaluate((el) => getComputedStyle(el).position)).toBe('static');
    expect(await visible(page, '.site-header .logo')).toBe(1);
    const privacyLink = page.locator('.form-privacy a');
    expect(await privacyLink.getAttribute('href')).toBe('/privacy');
    expect(await privacyLink.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(`" (${SITE_ORIGIN}/privacy)"`);
    // Links whose text is the address stay as they are.
    for (const selector of ['.details-list a[href^="mailto:"]', '.details-list a[href^="tel:"]']) {
      expect(await page.locator(selector).evaluate((el) => getComputedStyle(el, '::after').content), selector).toBe('none');
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});

describe('the home page as a PDF', () => {
  it('is A4, page after page', async () => {
    const { page } = await site.open('/');
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map(([, w, h]) => [Number(w), Number(h)]);
    expect(boxes.length).toBeGreaterThan(1);
    // A4 is 595.28 × 841.89 points; Chromium rounds to whole pixels.
    for (const [width, height] of boxes) {
      expect(Math.abs(width! - 595.28)).toBeLessThan(1);
      expect(Math.abs(height! - 841.89)).toBeLessThan(1.5);
    }
  });
});
