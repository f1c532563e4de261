/**
 * The home page on paper, in Chromium's print media emulation and its PDF: every section's
 * text shown in dark ink (browsers print no backgrounds, so light text of a dark section
 * would vanish), also what the scroll reveal had not shown yet; none of the screen's chrome
 * (header bar and menu, toasts, buttons, the form); a link's address written out; A4 pages,
 * the first one full, every service whole on one page, the contact details in the form's place.
 */
import type { Browser, Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  about,
  contact,
  contactForm,
  expertise,
  firm,
  footer,
  hero,
  services,
  servicesSection,
  SITE_ORIGIN,
} from '@site/frontend/content/site';
import { asRead } from '@site/testing/as-read';
import { expect, open, test } from './fixtures';

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

async function openForPrint(page: Page, javaScriptEnabled: boolean): Promise<void> {
  if (javaScriptEnabled) {
    await open(page, '/');
    // A toast on screen, and sections the reveal has hidden because they were never scrolled to.
    await page.locator('#contact').evaluate((el) => el.scrollIntoView({ behavior: 'instant' }));
    await page.getByRole('button', { name: contactForm.submit }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    expect(await page.locator('[data-reveal="hidden"]').count()).toBeGreaterThan(0);
  } else {
    await page.goto('/');
  }
  await page.setViewportSize({ width: A4_CONTENT_WIDTH, height: 1000 });
  await page.emulateMedia({ media: 'print' });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the home page printed ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('shows the text of every section in dark ink, the revealed and the not yet revealed alike', async ({ page }) => {
      await openForPrint(page, javaScriptEnabled);
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
        footer.tagline,
        footer.rights,
      ];
      expect(required.filter((text) => !printed.includes(text))).toEqual([]);
    });

    test('leaves out the header bar, its menu, toasts and buttons, and writes out where a link goes', async ({ page }) => {
      await openForPrint(page, javaScriptEnabled);
      for (const chrome of [
        '.header-nav',
        '.menu-toggle',
        '.toaster',
        '.toast',
        'main button',
        'main .btn',
        '.hero-scroll',
        '.site-footer nav',
        // Paper cannot send a message: the contact details take the form's place.
        '.contact-form',
      ]) {
        expect(await visible(page, chrome), chrome).toBe(0);
      }
      // The firm's logo and name head the page, not a fixed bar over it.
      await expect(page.locator('.site-header')).toHaveCSS('position', 'static');
      expect(await visible(page, '.site-header .logo')).toBe(1);
      const privacyLink = page.locator('.form-privacy a');
      await expect(privacyLink).toHaveAttribute('href', '/privacy');
      await expect(privacyLink).toHaveCSS('content', `" (${SITE_ORIGIN}/privacy)"`, { pseudo: 'after' });
      // Links whose text is the address stay as they are.
      for (const selector of ['.details-list a[href^="mailto:"]', '.details-list a[href^="tel:"]']) {
        await expect(page.locator(selector), selector).toHaveCSS('content', 'none', { pseudo: 'after' });
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });
  });
}

/**
 * What a page says, to compare texts by: without white space (pdf.js splits lines and runs
 * into pieces, with or without a space between them) and with one apostrophe (the font draws
 * ’ and ʼ alike, and pdf.js reads it back as either).
 */
const comparable = (text: string) => text.replace(/\s+/g, '').replace(/[’ʼ']/g, "'");

/** A PDF page as text, and how far down its lowest line of text stands. */
interface PrintedPage {
  /** Its text in reading order, comparable. */
  text: string;
  /** The lowest line's baseline, as a share of the page's printable height (0 at its top, 1 at its bottom). */
  filledTo: number;
}

/** The print stylesheet's @page margin at top and bottom, 15 mm, in PDF points. */
const PAGE_MARGIN_Y = (15 / 25.4) * 72;

/** The home page as Chromium prints it, read back page by page with pdf.js. */
async function printedPages(browser: Browser, origin: string): Promise<PrintedPage[]> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await open(page, '/');
    const loading = getDocument({ data: new Uint8Array(await page.pdf({ preferCSSPageSize: true })), verbosity: 0 });
    const pdf = await loading.promise;
    const pages: PrintedPage[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const pdfPage = await pdf.getPage(number);
      const height = pdfPage.view[3]! - pdfPage.view[1]!;
      const items = (await pdfPage.getTextContent()).items.filter((item) => 'str' in item && item.str.trim() !== '');
      const lowest = Math.min(...items.map((item) => ('transform' in item ? (item.transform[5] as number) : height)));
      pages.push({
        text: comparable(items.map((item) => ('str' in item ? item.str : '')).join('')),
        filledTo: (height - PAGE_MARGIN_Y - lowest) / (height - 2 * PAGE_MARGIN_Y),
      });
    }
    await loading.destroy();
    return pages;
  } finally {
    await context.close();
  }
}

/** Whether `text` is on the page: every word in order, whatever the line breaks between them. */
const holds = (page: PrintedPage, text: string) => page.text.includes(comparable(text));

test.describe('the home page as a PDF', () => {
  let pages: PrintedPage[];
  // One print for the tests that read it, made with the worker's browser and stack.
  test.beforeAll(async ({ browser, stack }) => {
    pages = await printedPages(browser, stack.urls.site);
  });

  test('fills its first page, the letterhead and the hero followed by the firm’s introduction, with no third of it blank', () => {
    expect(holds(pages[0]!, hero.headline.lead)).toBe(true);
    expect(holds(pages[0]!, about.headline)).toBe(true);
    expect(pages[0]!.filledTo).toBeGreaterThan(0.85);
  });

  test('prints every service on one page: its title, its description and its whole list, no item left over for the next', () => {
    for (const service of services) {
      const on = pages.filter((page) => holds(page, service.description));
      expect(on, service.title).toHaveLength(1);
      const missing = [service.title, ...service.features].filter((text) => !holds(on[0]!, text));
      expect(missing, `${service.title}: on another page`).toEqual([]);
    }
  });

  test('prints the contact details in the form’s place, and no empty form', () => {
    const contactPage = pages.find((page) => holds(page, contact.headline))!;
    for (const detail of [firm.email, firm.phone, firm.address.street]) expect(holds(contactPage, detail), detail).toBe(true);
    for (const formText of [contactForm.title, contactForm.requiredNote, contactForm.submit])
      expect(
        pages.filter((page) => holds(page, formText)),
        formText,
      ).toEqual([]);
  });

  test('is A4, page after page', async ({ page }) => {
    await open(page, '/');
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
