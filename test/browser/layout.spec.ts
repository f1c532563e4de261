/**
 * The layout as a visitor sees it on a phone, a tablet and a laptop: the header's links where
 * they fit, no card left alone in a row, the philosophy card filled and apart, the service
 * panel in one place whichever service is chosen, feature lists in the text's weight, and the
 * 404 and result pages with the site's navigation and white between their navy hero and footer.
 */
import type { Page } from '@playwright/test';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import { nav, services } from '@site/frontend/content/site';
import { expect, open, scrollInstantly, test } from './fixtures';
import { on } from './viewports';

const RESULT_PAGES = Object.values(FORM_RESULT_PAGES);
const menuButton = (page: Page) => page.getByRole('button', { name: nav.menuButton });
/** The header's links, also while they are in the closed menu (out of the accessibility tree). */
const navLinks = (page: Page) => page.locator('header .nav-link');

/** Relative luminance of a CSS colour (rgb or rgba, read as opaque). */
function luminance(color: string): number {
  const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map((n) => channel(Number(n) / 255));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The colour painted behind an element: its own background or the nearest ancestor's, white at the root. */
const paintedBehind = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      const color = getComputedStyle(e).backgroundColor;
      if (color !== 'rgba(0, 0, 0, 0)' || getComputedStyle(e).backgroundImage !== 'none') return color;
    }
    return 'rgb(255, 255, 255)';
  });

/**
 * Where the selected service's panel, its feature columns and the section below sit, by
 * layout (offsets, which no transform moves), for each service chosen in turn.
 */
async function servicePlaces(page: Page): Promise<string[]> {
  await page.locator('#services').scrollIntoViewIfNeeded();
  const places: string[] = [];
  for (const [index, service] of services.entries()) {
    await page.getByRole('tab').nth(index).click();
    await expect(page.locator('.service-panel:not([hidden]) .service-title')).toHaveText(service.title);
    places.push(
      await page.evaluate(() => {
        const pageTop = (element: HTMLElement) => {
          let y = 0;
          for (let e: HTMLElement | null = element; e; e = e.offsetParent as HTMLElement | null) y += e.offsetTop;
          return y;
        };
        const section = document.getElementById('services')!;
        const card = document.querySelector<HTMLElement>('.service-detail')!;
        const panel = document.querySelector<HTMLElement>('.service-panel:not([hidden])')!;
        const columns = [...new Set([...panel.querySelectorAll<HTMLElement>('.features li')].map((li) => li.offsetLeft))];
        return JSON.stringify({
          panel: panel.offsetLeft,
          card: [pageTop(card) - pageTop(section), card.offsetHeight],
          columns,
          below: pageTop(document.querySelector<HTMLElement>('.why')!) - pageTop(section),
        });
      }),
    );
  }
  return places;
}

test.describe('at each screen’s width', { tag: on('phone', 'tablet', 'desktop') }, () => {
  test('shows the four links beside the logo where they fit, and the menu button only where they do not', async ({ page }) => {
    await open(page, '/');
    const width = page.viewportSize()!.width;
    await expect(navLinks(page)).toHaveCount(nav.links.length);
    const links = await navLinks(page).all();
    if (width < 720) {
      await expect(menuButton(page)).toBeVisible();
      for (const link of links) await expect(link).toBeHidden();
      return;
    }
    await expect(menuButton(page)).toBeHidden();
    const logo = (await page.locator('.header-logo').boundingBox())!;
    let left = logo.x + logo.width;
    for (const link of links) {
      const box = (await link.boundingBox())!;
      expect(box.x, 'each link right of the one before, clear of the logo').toBeGreaterThanOrEqual(left);
      expect(box.y + box.height, 'inside the header').toBeLessThanOrEqual(72);
      left = box.x + box.width;
    }
    expect(left).toBeLessThanOrEqual(width);
  });

  test('never leaves a role card alone in its row', async ({ page }) => {
    await open(page, '/');
    const tops = await page.locator('.role-card').evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
    const perRow = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
    expect(new Set(perRow).size, `cards per row: ${perRow.join(', ')}`).toBe(1);
    if (page.viewportSize()!.width === 1440) expect(perRow).toEqual([tops.length]);
  });

  test('fills the philosophy card with its text, and sets it clearly apart from the cards above', async ({ page }) => {
    await open(page, '/');
    const { emptyRight, cardWidth, gapAbove } = await page.locator('.philosophy').evaluate((card) => {
      const box = card.getBoundingClientRect();
      const inner = box.right - parseFloat(getComputedStyle(card).paddingRight);
      let textRight = 0;
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const line of range.getClientRects()) textRight = Math.max(textRight, line.right);
      }
      // By layout, not by what is painted: the scroll reveal still moves what it has not shown.
      const pageTop = (element: HTMLElement) => {
        let y = 0;
        for (let e: HTMLElement | null = element; e; e = e.offsetParent as HTMLElement | null) y += e.offsetTop;
        return y;
      };
      const cards = [...document.querySelectorAll<HTMLElement>('.role-card')];
      const cardsBottom = Math.max(...cards.map((c) => pageTop(c) + c.offsetHeight));
      return { emptyRight: inner - textRight, cardWidth: box.width, gapAbove: pageTop(card as HTMLElement) - cardsBottom };
    });
    expect(emptyRight / cardWidth).toBeLessThan(0.15);
    expect(gapAbove).toBeGreaterThanOrEqual(40);
  });

  test.describe(() => {
    // Reduced motion: nothing below is part-way through its reveal while it is measured.
    test.use({ reducedMotion: 'reduce' });

    test('keeps the service panel, its second column and what follows in place for every service', async ({ page }) => {
      await open(page, '/');
      const places = await servicePlaces(page);
      expect(new Set(places).size, places.join('\n')).toBe(1);
      if (page.viewportSize()!.width >= 768) expect(JSON.parse(places[0]!).columns).toHaveLength(2);
    });

    test('reserves the tallest panel’s room whatever the firm writes: a description of one word, one of many lines, a longer feature list', async ({
      page,
    }) => {
      await open(page, '/');
      const before = await page.locator('.service-detail').evaluate((card) => (card as HTMLElement).offsetHeight);
      await page.evaluate(() => {
        const panels = [...document.querySelectorAll<HTMLElement>('.service-panel')];
        const [first, second, last] = [panels[0]!, panels[1]!, panels.at(-1)!];
        const description = (panel: HTMLElement) => panel.querySelector('.service-description')!;
        description(first).textContent = 'Advies.';
        description(second).textContent = Array.from({ length: 8 }, () => description(second).textContent).join(' ');
        const features = last.querySelector('.features')!;
        for (const feature of [...features.children]) features.append(feature.cloneNode(true));
      });
      const places = await servicePlaces(page);
      expect(new Set(places).size, places.join('\n')).toBe(1);
      // The card grew to the longest text, whichever service shows.
      expect(JSON.parse(places[0]!).card[1]).toBeGreaterThan(before);
    });
  });

  test('sets the feature lists in the weight of the running text, below the headings’ weight', async ({ page }) => {
    await open(page, '/');
    const weight = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => Number(getComputedStyle(el).fontWeight));
    expect(await weight('.features li')).toBe(await weight('.service-description'));
    expect(await weight('.features li')).toBeLessThan(await weight('.service-title'));
  });

  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(`gives the 404 and result pages the header’s links and white between the navy hero and the navy footer (${
        javaScriptEnabled ? 'with' : 'without'
      } JavaScript)`, async ({ page }) => {
        const width = page.viewportSize()!.width;
        for (const path of ['/bestaat-niet', ...RESULT_PAGES]) {
          await (javaScriptEnabled ? open(page, path) : page.goto(path));
          const hrefs = await navLinks(page).evaluateAll((links) => links.map((link) => link.getAttribute('href')));
          expect(hrefs, path).toEqual(nav.links.map((link) => `/${link.href}`));
          const reachable = javaScriptEnabled && width < 720 ? menuButton(page) : navLinks(page).first();
          await expect(reachable, path).toBeVisible();

          const hero = (await page.locator('.status-hero').boundingBox())!;
          const footer = (await page.locator('footer').boundingBox())!;
          expect(luminance(await paintedBehind(page, '.status-hero')), path).toBeLessThan(0.05);
          expect(luminance(await paintedBehind(page, 'footer')), path).toBeLessThan(0.05);
          expect(luminance(await paintedBehind(page, '.status-body')), path).toBeGreaterThan(0.9);
          expect(footer.y - (hero.y + hero.height), `${path}: white between hero and footer`).toBeGreaterThanOrEqual(120);
        }
      });
    });
  }
});

test.describe('the result pages', () => {
  test('show one drawn icon each, the same sign on every page where the message did not go, a tick where it did', async ({ page }) => {
    const drawings: Record<string, string> = {};
    for (const path of RESULT_PAGES) {
      await open(page, path);
      const code = page.locator('.status-code');
      expect((await code.textContent())!.trim(), `${path}: no glyph such as "!" beside a drawing`).toBe('');
      await expect(code.locator('svg'), path).toHaveCount(1);
      drawings[path] = await code.locator('svg').innerHTML();
    }
    const { sent, ...notSent } = FORM_RESULT_PAGES;
    expect(new Set(Object.values(notSent).map((path) => drawings[path])).size).toBe(1);
    expect(drawings[sent]).not.toBe(drawings[notSent.failed]);
  });

  test.describe(() => {
    test.use({ viewport: { width: 390, height: 600 } });

    test('turn the header solid past 10 px like the home page', async ({ page }) => {
      await open(page, FORM_RESULT_PAGES.limited);
      await scrollInstantly(page, 40);
      await expect(page.locator('header.site-header')).toContainClass('is-scrolled');
    });
  });
});
