/**
 * The site's own typeface in Chromium, from the local edge: two font files from the site's
 * own origin, cached as hashed assets; neither is requested before the page has painted, and
 * the second (the rest of the Latin range) only for a character the first lacks, which no
 * page and no state of the app shows; every text set in it, a block at a time as it comes
 * near the view, Dutch letters and the euro sign included; the same without script; and
 * nothing moving when it arrives.
 */
import type { Page, Route } from '@playwright/test';
import { CACHE_CONTROL } from '@site/core/cache-control';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import { contactForm, sentConfirmation } from '@site/frontend/content/site';
import { expect, nextFrames, open, scrollInstantly, scrollThrough, test, type Site } from './fixtures';
import { on, SCREENS } from './viewports';

const PAGES = ['/', '/privacy', ...Object.values(FORM_RESULT_PAGES), '/bestaat-niet'];
const FONT_FILE = /\.woff2$/;
const FAMILY = 'Inter Variable';

interface Typeface {
  family: string;
  weight: string;
  faces: { src: string; unicodeRange: string }[];
}

/** The value of `property` in a rule's declarations, as the minifier wrote it. */
const declared = (rule: string, property: string) => new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`).exec(rule)?.[1]?.trim();

/**
 * The typeface a page names: the family its data block hands the loader, and the faces of
 * that family its stylesheet declares (frontend/build/typeface.ts); the fonts its head
 * preloads, and the stylesheet it names for a browser without script.
 */
async function headOf(site: Site, path: string): Promise<{ typeface: Typeface; preloads: number; noscriptStylesheet: string | undefined }> {
  const html = await (await fetch(site.url(path))).text();
  const { family } = JSON.parse(/<script type="application\/json" id="typeface">([^<]*)<\/script>/.exec(html)![1]!) as { family: string };
  const stylesheet = /<link rel="stylesheet"[^>]* href="([^"]+\.css)">/.exec(html)![1]!;
  const css = await (await fetch(site.url(stylesheet))).text();
  const rules = [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].map(([, rule]) => rule!);
  const ofFamily = rules.filter((rule) => declared(rule, 'font-family')?.replace(/["']/g, '') === family);
  return {
    typeface: {
      family,
      weight: [...new Set(ofFamily.map((rule) => declared(rule, 'font-weight')))].join(),
      faces: ofFamily.map((rule) => ({
        src: /url\(["']?([^)"']+)["']?\)/.exec(declared(rule, 'src')!)![1]!,
        unicodeRange: declared(rule, 'unicode-range')!,
      })),
    },
    preloads: [...html.matchAll(/<link\b[^>]*\bas="font"/g)].length,
    noscriptStylesheet: /<noscript>\s*<link rel="stylesheet" href="([^"]+)">\s*<\/noscript>/.exec(html)?.[1],
  };
}

/** The web fonts a page has asked for so far, by address. */
const requestedFonts = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.woff2')),
  );

/** Which faces are loaded, by their unicode-range (what tells the two apart to the page), as the data block writes it. */
const loadedRanges = (page: Page) =>
  page.evaluate(
    (family) =>
      [...document.fonts]
        .filter((face) => face.family.replace(/"/g, '') === family && face.status === 'loaded')
        .map((face) => face.unicodeRange.replace(/\s/g, '')),
    FAMILY,
  );

/** The fonts Chromium drew each text element (of those `selector` names) with that is not the site's typeface. */
async function elementsNotInTheTypeface(
  page: Page,
  selector = 'body *',
): Promise<{ others: string[]; textElements: number; inTheTypeface: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
  const others = new Set<string>();
  let textElements = 0;
  let inTheTypeface = 0;
  for (const nodeId of nodeIds) {
    // An element the app took away meanwhile (a toast that timed out) is no longer drawn at all.
    const drawn = await cdp.send('CSS.getPlatformFontsForNode', { nodeId }).catch((error: Error) => {
      if (/Could not find node/.test(error.message)) return undefined;
      throw error;
    });
    if (drawn === undefined) continue;
    const { fonts } = drawn;
    if (fonts.length > 0) textElements++;
    const other = fonts.find((font) => !font.isCustomFont || !/^Inter\b/.test(font.familyName));
    if (!other && fonts.length > 0) inTheTypeface++;
    if (other) {
      const { node } = await cdp.send('DOM.describeNode', { nodeId });
      others.add(`${node.localName} ${node.attributes?.join(' ')}: ${other.familyName}`);
    }
  }
  return { others: [...others], textElements, inTheTypeface };
}

/**
 * Once the first view's face has arrived, the loader sets one block a frame in it: settled when
 * no block has been set for three frames (a block that came near is queued within two), every
 * face the page needs has arrived, and the text has been laid out in it.
 */
async function fontsSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    (family) => [...document.fonts].some((face) => face.family.replace(/"/g, '') === family && face.status === 'loaded'),
    FAMILY,
  );
  // The number of blocks set, three frames apart, until it stops changing.
  const setAfterThreeFrames = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.querySelectorAll('[data-typeface]').length))),
          ),
        ),
    );
  let before = -1;
  await expect
    .poll(
      async () => {
        const now = await setAfterThreeFrames();
        const unchanged = now === before;
        before = now;
        return unchanged;
      },
      { intervals: [0] },
    )
    .toBe(true);
  await page.evaluate(() => document.fonts.ready);
  await nextFrames(page);
}

/** In the page before it loads: how many blocks were set in the typeface in each animation frame. */
function countBlocksSetPerFrame(): void {
  const perFrame = [0];
  (window as unknown as { __setPerFrame: number[] }).__setPerFrame = perFrame;
  const frame = () => {
    perFrame.push(0);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver((records) => {
    perFrame[perFrame.length - 1]! += records.filter((record) => record.attributeName === 'data-typeface').length;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-typeface'] });
}

test.describe('the typeface', () => {
  test('is two hashed font files of the site’s own, declared by every page’s stylesheet, preloaded by none, cached for a year as immutable', async ({
    site,
  }) => {
    const heads = await Promise.all(PAGES.map((path) => headOf(site, path)));
    const { typeface } = heads[0]!;
    expect(typeface.family).toBe(FAMILY);
    expect(typeface.faces).toHaveLength(2);
    for (const [i, head] of heads.entries()) {
      expect(head.typeface, PAGES[i]).toEqual(typeface);
      expect(head.preloads, `${PAGES[i]}: a preload would make the first paint wait for the font`).toBe(0);
      expect(head.noscriptStylesheet, PAGES[i]).toMatch(/^\/assets\/typeface-[\w-]{8}\.css$/);
    }
    for (const { src } of typeface.faces) {
      expect(src).toMatch(/^\/assets\/inter-[\w-]+-[\w-]{8}\.woff2$/);
      const font = await fetch(site.url(src));
      expect(font.status).toBe(200);
      expect(font.headers.get('content-type')).toBe('font/woff2');
      expect(font.headers.get('cache-control')).toBe(CACHE_CONTROL.hashedAsset);
      expect(font.headers.get('content-security-policy')?.split('; ')).toContain("font-src 'self'");
    }
    // The faces' ranges do not overlap: each character has one file.
    const [first, rest] = typeface.faces.map(({ unicodeRange }) => unicodeRange.split(','));
    expect(first!.filter((range) => rest!.includes(range))).toEqual([]);
  });

  test('asks for the first view’s file only once the page has painted, sets the page in it, and only then starts the app', async ({
    page,
    site,
  }) => {
    const paintedAtRequest: boolean[] = [];
    const typefaceAddedAtApp: boolean[] = [];
    await page.route(FONT_FILE, async (route: Route) => {
      paintedAtRequest.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length > 0));
      await route.continue();
    });
    // The app's entry, asked for by the loader: by then the page has been set in Inter.
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route: Route) => {
      typefaceAddedAtApp.push(
        await page.evaluate(
          (family) => [...document.fonts].some((f) => f.family.replace(/"/g, '') === family && f.status === 'loaded'),
          FAMILY,
        ),
      );
      await route.continue();
    });
    await open(page, '/');
    await fontsSettled(page);
    const { typeface } = await headOf(site, '/');
    expect(await requestedFonts(page)).toEqual([typeface.faces[0]!.src]);
    expect(paintedAtRequest).toEqual([true]);
    expect(typefaceAddedAtApp).toEqual([true]);
    expect(await loadedRanges(page)).toEqual([typeface.faces[0]!.unicodeRange]);
  });

  test(
    'needs nothing but the first view’s file on any page, nor for what the app shows after its script runs',
    { tag: on('phone') },
    async ({ page, site, newPage }) => {
      // Every page, each to its fonts settled, and the app through its states: long work.
      test.slow();
      const { typeface } = await headOf(site, '/');
      for (const path of PAGES) {
        await open(page, path);
        await fontsSettled(page);
        expect(await requestedFonts(page), path).toEqual([typeface.faces[0]!.src]);
      }
      // The form's messages and toasts, its counter, the confirmation card: texts only the app shows.
      const app = await newPage(SCREENS.desktop);
      await open(app, '/');
      await app.locator('#contact').scrollIntoViewIfNeeded();
      await app.getByRole('button', { name: contactForm.submit }).click();
      await expect(app.locator('.toast-message').first()).toBeVisible();
      await app.locator('#contact-name').fill('Anna de Vries');
      await app.locator('#contact-email').fill('anna@bedrijf.nl');
      await app.locator('#contact-message').fill('Wij zoeken een interim controller voor drie maanden.');
      await app.getByRole('button', { name: contactForm.submit }).click();
      await expect(app.getByRole('heading', { name: sentConfirmation.thanks('Anna') })).toBeVisible();
      await fontsSettled(app);
      expect(await requestedFonts(app)).toEqual([typeface.faces[0]!.src]);
      expect(await elementsNotInTheTypeface(app).then(({ others }) => others)).toEqual([]);
    },
  );

  test(
    'sets every text of every page in it, and Dutch letters, the euro sign and typographic marks the pages do not show yet in its second file',
    { tag: on('phone') },
    async ({ page }) => {
      // Every page scrolled through, and every element of it asked for the fonts it was drawn in: long work.
      test.slow();
      for (const path of PAGES) {
        await open(page, path);
        // What the firm may write one day beside what the page says today.
        await page.evaluate(() => {
          const sample = document.createElement('p');
          sample.id = 'typeface-sample';
          sample.textContent = 'Één cliënt, coördinatie, ruïne, café, à la carte, geïnteresseerd: € 1.250,– per maand “incl.” ‘btw’…';
          document.querySelector('main > *')!.append(sample);
        });
        await fontsSettled(page);
        // Every block, as a visitor who reads to the end sets it in the typeface.
        await scrollThrough(page);
        await fontsSettled(page);
        const { others, textElements } = await elementsNotInTheTypeface(page);
        expect(textElements, path).toBeGreaterThan(10);
        expect(others, path).toEqual([]);
      }
    },
  );

  test(
    'sets a block in it only when it comes within a screen of the view, one block a frame, so the pass at the start lays out what is about to be seen in short tasks; a printout all of it',
    { tag: on('phone') },
    async ({ page }) => {
      const viewport = page.viewportSize()!;
      await page.addInitScript(countBlocksSetPerFrame);
      await open(page, '/');
      await fontsSettled(page);
      const setPerFrame = await page.evaluate(() => (window as unknown as { __setPerFrame: number[] }).__setPerFrame.filter(Boolean));
      expect(setPerFrame.length, 'the header, the hero and what follows within a screen').toBeGreaterThan(2);
      expect(
        setPerFrame.every((blocks) => blocks === 1),
        `blocks set per frame: ${setPerFrame.join()}`,
      ).toBe(true);
      const { others: header } = await elementsNotInTheTypeface(page, 'header *');
      expect(header).toEqual([]);
      const { others: heading } = await elementsNotInTheTypeface(page, 'main > :first-child h1, main > :first-child h1 *');
      expect(heading).toEqual([]);
      // The footer is many screens down: still in the fallback it was painted in.
      const footerTop = await page.locator('footer').evaluate((el) => el.getBoundingClientRect().top);
      expect(footerTop).toBeGreaterThan(3 * viewport.height);
      const footerBefore = await elementsNotInTheTypeface(page, 'footer *');
      expect(footerBefore.textElements).toBeGreaterThan(5);
      expect(footerBefore.inTheTypeface).toBe(0);
      // A printout is set in Inter whatever the visitor has scrolled past.
      await page.emulateMedia({ media: 'print' });
      // Laid out for print, and the faces that layout asked for arrived (on a busy machine, after
      // the first look).
      await nextFrames(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      expect(await elementsNotInTheTypeface(page, 'footer *').then(({ others }) => others)).toEqual([]);
      await page.emulateMedia({ media: 'screen' });
      // Scrolled to within a screen of it, it is set in Inter, before it is in view.
      await scrollInstantly(page, footerTop - 2 * viewport.height + 100);
      await nextFrames(page);
      await fontsSettled(page);
      expect(await page.locator('footer').evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(viewport.height);
      const { others: footerAfter } = await elementsNotInTheTypeface(page, 'footer *');
      expect(footerAfter).toEqual([]);
    },
  );

  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test('sets the pages in it without script too, from the stylesheet their <noscript> names', { tag: on('phone') }, async ({ page }) => {
      for (const path of ['/', FORM_RESULT_PAGES.sent]) {
        // Opened to its load: the stylesheet and the font have arrived (no script here to wait with).
        await page.goto(path);
        const { others, textElements } = await elementsNotInTheTypeface(page);
        expect(textElements, path).toBeGreaterThan(10);
        expect(others, path).toEqual([]);
      }
    });
  });

  test(
    'moves nothing when the font takes over from the fallback the page painted in: CLS a tenth of the 0.02 budget',
    { tag: on('phone', 'desktop') },
    async ({ page }) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const askedFor = new Promise<void>((resolve) => (asked = resolve));
      await page.addInitScript(() => {
        const shifts: PerformanceEntry[] = [];
        (window as unknown as { __shifts: PerformanceEntry[] }).__shifts = shifts;
        new PerformanceObserver((list) => shifts.push(...list.getEntries())).observe({ type: 'layout-shift', buffered: true });
      });
      // Held until the page is seen painted in the fallback: a connection as slow as it takes.
      await page.route(FONT_FILE, async (route) => {
        asked();
        await released;
        await route.continue();
      });
      // The load event waits for the held font.
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      // Painted, and the first view's face is on its way.
      await askedFor;
      await nextFrames(page);
      const { others } = await elementsNotInTheTypeface(page);
      expect(others.length, 'the page is drawn in the fallback meanwhile').toBeGreaterThan(10);
      // One of the local Arial-metric fonts the fallback face names (frontend/build/typeface.ts).
      expect(others.filter((line) => !/: (Arial|Liberation Sans|Arimo)$/.test(line))).toEqual([]);
      release();
      await page.waitForFunction(() =>
        [...document.fonts].some((face) => face.family.replace(/"/g, '') === 'Inter Variable' && face.status === 'loaded'),
      );
      await fontsSettled(page);
      // The whole page has a budget of 0.02; the swap gets a tenth of it. Without the fallback's
      // overrides the swap alone shifts the laptop view by 0.016 (DejaVu Sans to Inter).
      const shift = await page.evaluate(() =>
        (window as unknown as { __shifts: { value: number; hadRecentInput: boolean }[] }).__shifts
          .filter((entry) => !entry.hadRecentInput)
          .reduce((sum, entry) => sum + entry.value, 0),
      );
      expect(shift).toBeLessThan(0.002);
    },
  );
});
