/**
 * The site's own typeface in Chromium, from the local edge: one font file from the site's own
 * origin, preloaded by every page and cached as a hashed asset; every text set in it, Dutch
 * letters and the euro sign included; and nothing moving when it arrives after the first paint.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CONTROL } from '@site/core/cache-control';
import { startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const PAGES = ['/', '/privacy', '/bedankt', '/niet-verzonden/limiet', '/bestaat-niet'];
const FONT_FILE = /\.woff2$/;

/** The fonts a page's head preloads, by their link elements' attributes. */
async function fontPreloads(path: string): Promise<Record<string, string>[]> {
  const html = await (await fetch(site.url(path))).text();
  return [...html.matchAll(/<link\b([^>]*\bas="font"[^>]*)>/g)].map(([, attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name!, value ?? ''])),
  );
}

/** Sums the page's layout shifts not caused by input, as CLS counts them (the page is short-lived: one session window). */
const layoutShift = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __shifts: { value: number; hadRecentInput: boolean }[] }).__shifts
      .filter((shift) => !shift.hadRecentInput)
      .reduce((sum, shift) => sum + shift.value, 0),
  );

describe('the typeface', () => {
  it('is one hashed font file of the site’s own, preloaded by every page, cached for a year as immutable', async () => {
    const preloads = await Promise.all(PAGES.map(fontPreloads));
    for (const [i, links] of preloads.entries()) {
      expect(links, PAGES[i]).toHaveLength(1);
      expect(links[0]).toMatchObject({ rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: '' });
      expect(links[0]!.href).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.woff2$/);
    }
    const href = preloads[0]![0]!.href!;
    expect(new Set(preloads.map((links) => links[0]!.href))).toEqual(new Set([href]));

    const font = await fetch(site.url(href));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(font.headers.get('cache-control')).toBe(CACHE_CONTROL.hashedAsset);
    expect(font.headers.get('content-security-policy')?.split('; ')).toContain("font-src 'self'");

    // The page asks for it once, at its preload's address, and uses it.
    const watched = await site.open('/');
    const requested = await watched.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.woff2')),
    );
    expect(requested).toEqual([site.url(href)]);
    expect(await watched.page.evaluate(() => [...document.fonts].map((face) => [face.family, face.status]))).toContainEqual([
      'Inter Variable',
      'loaded',
    ]);
    expect(watched.foreignRequests).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.errors).toEqual([]);
  });

  it('sets every text of every page in it, Dutch letters with their accents and the euro sign included', async () => {
    for (const path of PAGES) {
      const { page } = await site.open(path, { viewport: { width: 390, height: 844 } });
      // What the firm may write one day beside what the page says today.
      await page.evaluate(() => {
        const sample = document.createElement('p');
        sample.id = 'typeface-sample';
        sample.textContent = 'Één cliënt, coördinatie, ruïne, café, à la carte, geïnteresseerd: € 1.250,– per maand “incl.” ‘btw’…';
        document.querySelector('main')!.append(sample);
      });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
      const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'body *' });
      const others = new Set<string>();
      let textElements = 0;
      for (const nodeId of nodeIds) {
        const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
        if (fonts.length > 0) textElements++;
        const other = fonts.find((font) => !font.isCustomFont || !/^Inter\b/.test(font.familyName));
        if (other) {
          const { node } = await cdp.send('DOM.describeNode', { nodeId });
          others.add(`${node.localName} ${node.attributes?.join(' ')}: ${other.familyName}`);
        }
      }
      expect(textElements, path).toBeGreaterThan(10);
      expect([...others], path).toEqual([]);
    }
  });

  it.each([
    ['390', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ['1440', { viewport: { width: 1440, height: 900 } }],
  ] as const)('moves nothing when the font arrives after the first paint (%s px): CLS a tenth of the 0.02 budget', async (_, options) => {
    const { page } = await site.open('/', options, {
      beforeLoad: async (p) => {
        await p.addInitScript(() => {
          const shifts: PerformanceEntry[] = [];
          (window as unknown as { __shifts: PerformanceEntry[] }).__shifts = shifts;
          new PerformanceObserver((list) => shifts.push(...list.getEntries())).observe({ type: 'layout-shift', buffered: true });
        });
        // A slow connection: the page paints in the fallback long before the font is there.
        await p.route(FONT_FILE, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await route.continue();
        });
      },
    });
    await page.waitForFunction(() => [...document.fonts].some((face) => face.family === 'Inter Variable' && face.status === 'loaded'));
    // Two frames for the swap to be laid out and any shift reported.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      font: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) => entry.name.endsWith('.woff2'))!
        .responseEnd,
    }));
    expect(timing.font).toBeGreaterThan(timing.fcp + 1000);
    // The whole page has a budget of 0.02; the swap gets a tenth of it. Without the fallback's
    // overrides the swap alone shifts the laptop view by 0.016 (DejaVu Sans to Inter).
    expect(await layoutShift(page)).toBeLessThan(0.002);
  });
});
