/**
 * Typography whatever the text: the home page rendered by the prerender's own function
 * (its `copy`) with invented texts of many lengths, set by the site's own stylesheet in Chromium at a
 * phone's and a laptop's width as Firefox sets it (no text-wrap: pretty) and as a browser
 * with no text-wrap at all does. No heading, card title or text ends on a lone word (with
 * no text-wrap at all: no text or card heading; a section title's long last pair is left to
 * balance); the same pages with the no-break spaces taken out do, which is what they are for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { loneLastWords } from '@site/testing/lone-words';
import type { HomeCopy } from './src/components/home-copy';

/** Invented words, long and short, so that lines end at every kind of word. */
const WORDS =
  'heldere afspraken voor de financiële sturing van uw organisatie met een vast aanspreekpunt dat meedenkt en ook uitvoert'.split(' ');

/** `count` invented words, from the `start`th on, with a capital and a full stop. */
function sentence(count: number, start: number): string {
  const text = Array.from({ length: count }, (_, i) => WORDS[(start + i) % WORDS.length]).join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** The home page's copy with every heading, title and text the firm writes replaced by invented ones, `shift` words longer. */
function inventedCopy(site: HomeCopy, shift: number): HomeCopy {
  const text = (count: number, start = 0) => sentence(count + shift, start + shift);
  const title = (count: number, start = 0) => text(count, start).slice(0, -1);
  // The shape of the firm's copy, whose types are its own texts (`as const`): these are other texts.
  return {
    hero: { ...site.hero, intro: text(30), highlights: [title(2), title(3, 4), title(2, 9)] },
    about: {
      ...site.about,
      intro: text(32, 1),
      body: text(27, 2),
      cards: site.about.cards.map((card, i) => ({ ...card, title: title(2, i), text: text(18, i) })),
      philosophy: { ...site.about.philosophy, text: text(31, 3), closing: text(6, 5) },
    },
    services: site.services.map((service, i) => ({
      ...service,
      title: title(2, i),
      summary: title(6, i),
      description: text(35, i),
      features: [0, 1, 2, 3, 4].map((f) => title(4, i + f)),
    })),
    servicesSection: {
      ...site.servicesSection,
      headline: title(5, 6),
      intro: text(16, 7),
      help: { ...site.servicesSection.help, title: text(4, 8), text: text(14, 9) },
      why: {
        ...site.servicesSection.why,
        headline: title(4, 2),
        points: site.servicesSection.why.points.map((point, i) => ({ ...point, text: text(12, i) })),
      },
    },
    contact: { ...site.contact, headline: title(3, 10), intro: text(26, 11) },
  } as unknown as HomeCopy;
}

/** The shifts the texts are made longer by, in words. */
const SHIFTS = [0, 1, 2, 3, 4, 5];

/**
 * The home page as the prerender renders it from the invented texts, one file per shift that
 * links the site's stylesheet: the app's own modules, loaded through its Vite configuration as
 * the build loads them.
 */
async function pagesWithInventedCopy(dir: string): Promise<Map<number, string>> {
  const server = await createServer({
    configFile: join(import.meta.dirname, 'vite.config.ts'),
    root: import.meta.dirname,
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    logLevel: 'error',
  });
  try {
    const { render } = (await server.ssrLoadModule('/src/entry-server.tsx')) as typeof import('./src/entry-server');
    const { HOME_COPY } = (await server.ssrLoadModule('/src/components/home-copy.ts')) as typeof import('./src/components/home-copy');
    const stylesheet = pathToFileURL(join(import.meta.dirname, 'src', 'styles', 'index.css')).href;
    const files = new Map<number, string>();
    for (const shift of SHIFTS) {
      const { html } = await render('home', { copy: inventedCopy(HOME_COPY, shift) });
      const file = join(dir, `home-${shift}.html`);
      writeFileSync(
        file,
        `<!doctype html><html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<link rel="stylesheet" href="${stylesheet}"></head><body><div id="root">${html}</div></body></html>`,
      );
      files.set(shift, file);
    }
    return files;
  } finally {
    await server.close();
  }
}

const test = base.extend<object, { invented: Map<number, string> }>({
  invented: [
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'typography-'));
      try {
        await use(await pagesWithInventedCopy(dir));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
});

/**
 * How browsers set the type: Chromium as the site asks; Firefox (and Safari before 26)
 * balance headings but have no text-wrap: pretty, so running text fills its lines greedily;
 * older browsers have neither.
 */
type Wrapping = 'firefox' | 'none';

/** The headings, card titles and texts of the home page, all from the content. */
const SET_TEXTS = 'h1, h2, h3, h4, p, li, .service-tab-summary';
/** The texts and the cards' and panels' headings: what the no-break space alone keeps together where nothing balances. */
const TEXTS_AND_CARD_TITLES = 'p, li, .service-tab-summary, .card-title, .service-title, .why-point-title, .features-title';

/** Opens the page as a browser that wraps so sets it, every service's panel shown at once (as in print) so each is measured. */
async function setAs(page: Page, file: string, wrapping: Wrapping, withoutNoBreakSpaces = false): Promise<void> {
  await page.goto(pathToFileURL(file).href);
  // The site's stylesheet is what sets the type.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent'))).not.toBe('');
  if (wrapping === 'none') await page.addStyleTag({ content: '* { text-wrap-style: auto !important; }' });
  await page.evaluate(
    ({ wrapping, strip }) => {
      for (const panel of document.querySelectorAll<HTMLElement>('.service-panel')) panel.hidden = false;
      if (wrapping === 'firefox') {
        for (const element of document.querySelectorAll<HTMLElement>('body *')) {
          if (getComputedStyle(element).textWrapStyle === 'pretty') element.style.textWrapStyle = 'auto';
        }
      }
      if (!strip) return;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) node.textContent = node.textContent!.replace(/\u00a0/g, ' ');
    },
    { wrapping, strip: withoutNoBreakSpaces },
  );
  // This browser takes the switch: nothing is set pretty any more.
  expect(
    await page.evaluate(
      () => [...document.querySelectorAll('body *')].filter((e) => getComputedStyle(e).textWrapStyle === 'pretty').length,
    ),
  ).toBe(0);
}

for (const shift of SHIFTS) {
  test.describe(() => {
    test.use({ viewport: { width: 320, height: 700 } });

    test(`keeps the pairs it joins inside their boxes on the narrowest phone (320 px) when each text is ${shift} words longer`, async ({
      page,
      invented,
    }) => {
      await setAs(page, invented.get(shift)!, 'none');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });
  });
}

test.describe('invented texts', { tag: ['@phone', '@desktop'] }, () => {
  for (const shift of SHIFTS) {
    test(`end on no lone word as Firefox sets them (headings balanced, no pretty), when each is ${shift} words longer`, async ({
      page,
      invented,
    }) => {
      await setAs(page, invented.get(shift)!, 'firefox');
      expect(await loneLastWords(page, SET_TEXTS)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });

    test(`end no text or card heading on a lone word with no text-wrap at all, the no-break space alone, when each is ${shift} words longer`, async ({
      page,
      invented,
    }) => {
      await setAs(page, invented.get(shift)!, 'none');
      expect(await loneLastWords(page, TEXTS_AND_CARD_TITLES)).toEqual([]);
    });
  }

  test('end on lone words once the no-break spaces are taken out: they are what keeps them together', async ({ page, invented }) => {
    let found = 0;
    for (const shift of SHIFTS) {
      await setAs(page, invented.get(shift)!, 'none', true);
      found += (await loneLastWords(page, TEXTS_AND_CARD_TITLES)).length;
    }
    expect(found).toBeGreaterThan(0);
  });
});
