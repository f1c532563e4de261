/**
 * The typeface the build cuts, in Node (its font library's WebAssembly does not run in the
 * component tests' jsdom): what the site's text is made of, which characters and weights
 * each file keeps, and, in the build, that the first view's file has every character of every
 * page.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { charactersOf, contentStrings, generatedContent, shownText } from '@site/frontend/site-text';
import { codePointsOf, cutTypeface, faceRules, unicodeRangeOf, weightRange } from '@site/frontend/typeface';

test.describe('shownText', () => {
  test('reads what a page draws: its text, its fields’ hints and values, and its links’ addresses (print writes them out)', () => {
    const text = shownText(
      '<main><h1>Één cliënt</h1><script>let geheim = 1;</script><style>.x{}</style>' +
        '<input placeholder="Uw naam"><input type="submit" value="Verstuur"><a href="/privacy">Privacy</a></main>',
    );
    for (const shown of ['Één cliënt', 'Uw naam', 'Verstuur', '/privacy', 'Privacy']) expect(text).toContain(shown);
    expect(text).not.toContain('geheim');
  });
});

test.describe('contentStrings', () => {
  test('takes every text of a content module, however deep, and what its functions say in each branch', () => {
    const content = {
      title: 'Diensten',
      items: [{ label: 'Één' }, 'café'],
      wait: (minutes: number) => `over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'}`,
      thanks: (name?: string) => (name ? `Bedankt, ${name}` : 'Bedankt voor uw bericht'),
    };
    const strings = contentStrings(content);
    for (const text of ['Diensten', 'Één', 'café', 'over 1 minuut', 'over 7 minuten', 'Bedankt voor uw bericht', 'Bedankt, naam'])
      expect(strings).toContain(text);
  });
});

test.describe('generatedContent', () => {
  test('reads the strings the stylesheets write, with the site’s address filled in', () => {
    const css = "a::after { content: ' (%SITE_ORIGIN%' attr(href) ')'; } li + li::before { content: \"/\"; } p::before { content: ''; }";
    expect(generatedContent(css, { '%SITE_ORIGIN%': 'https://www.example.nl' })).toEqual([' (https://www.example.nl', ')', '/', '']);
  });
});

test.describe('charactersOf', () => {
  test('keeps each character once, every letter in both cases (text-transform), the ten digits, and no control characters', () => {
    const characters = charactersOf(['Één\ncafé', 'ß']);
    for (const character of 'ÉéNnCcAaFf0123456789ßS') expect(characters).toContain(character);
    expect(characters).not.toMatch(/\n/);
    expect(new Set(characters).size).toBe([...characters].length);
  });
});

test.describe('unicodeRangeOf', () => {
  test('writes runs as ranges, in order, and reads back to the same code points', () => {
    const points = [0x2019, 0x21, 0x20, 0x22, 0xe9];
    const range = unicodeRangeOf(points);
    expect(range).toBe('U+20-22,U+E9,U+2019');
    expect([...codePointsOf(range)].sort((a, b) => a - b)).toEqual([...points].sort((a, b) => a - b));
  });
});

test.describe('weightRange', () => {
  test('spans normal and bold and every weight the stylesheets give', () => {
    expect(weightRange(['h1 { font-weight: 750; }', '.x { font-weight: 550 }'])).toEqual([400, 750]);
    expect(weightRange(['.lead { font-weight: 300; } .big { font-weight:800; }'])).toEqual([300, 800]);
    expect(weightRange([])).toEqual([400, 700]);
  });
});

const cut = await cutTypeface('Aé€→ ', [400, 800]);

test.describe('cutTypeface', () => {
  test('puts the characters asked for in the first file and the rest of the Latin range in the second, nothing in both', () => {
    expect(cut.firstView.unicodeRange).toBe('U+20,U+41,U+E9,U+20AC');
    const rest = codePointsOf(cut.rest!.unicodeRange);
    for (const point of codePointsOf(cut.firstView.unicodeRange)) expect(rest.has(point)).toBe(false);
    expect(rest.has('B'.codePointAt(0)!)).toBe(true);
    // The arrow is no Latin character: neither file claims it, the fallback draws it as before.
    expect(rest.has('→'.codePointAt(0)!)).toBe(false);
  });

  test('writes WOFF2 files, the first a small part of the whole Latin file', () => {
    for (const file of [cut.firstView.file, cut.rest!.file]) expect(Buffer.from(file.subarray(0, 4)).toString('latin1')).toBe('wOF2');
    expect(cut.firstView.file.byteLength).toBeLessThan(cut.rest!.file.byteLength / 4);
  });

  test('describes both as one family in the kept weights, shown as soon as they arrive', () => {
    const css = faceRules({
      family: 'Inter Variable',
      weight: cut.weights.join(' '),
      faces: [
        { src: '/assets/a.woff2', unicodeRange: cut.firstView.unicodeRange },
        { src: '/assets/b.woff2', unicodeRange: cut.rest!.unicodeRange },
      ],
    });
    expect(css.match(/@font-face/g)).toHaveLength(2);
    expect(css.match(/font-weight: 400 800;/g)).toHaveLength(2);
    expect(css.match(/font-display: swap;/g)).toHaveLength(2);
    expect(css).toContain(`unicode-range: ${cut.firstView.unicodeRange};`);
  });
});

test.describe('the build', () => {
  const dist = join(import.meta.dirname, '..', '..', 'frontend', 'dist');
  const pages = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));

  test('gives the first view’s file every character of every page it prerendered, so no page needs the second', () => {
    expect(pages.length).toBeGreaterThan(30);
    // The faces of the family, as the built stylesheet declares them: the first view's, then the rest.
    const css = readdirSync(join(dist, 'assets'))
      .filter((file) => /^index-.*\.css$/.test(file))
      .map((file) => readFileSync(join(dist, 'assets', file), 'utf8'))
      .join('\n');
    const ranges = [...css.matchAll(/@font-face\{font-family:["']?Inter Variable["']?;[^}]*unicode-range:([^;}]+)/g)].map(
      ([, range]) => range!,
    );
    expect(ranges).toHaveLength(2);
    const firstView = codePointsOf(ranges[0]!);
    const latin = new Set([...firstView, ...codePointsOf(ranges[1]!)]);
    for (const page of pages) {
      const html = readFileSync(join(dist, page), 'utf8');
      const body = html.slice(html.indexOf('<body'));
      const missing = [...charactersOf([shownText(body)])].filter((c) => latin.has(c.codePointAt(0)!) && !firstView.has(c.codePointAt(0)!));
      expect(missing, page).toEqual([]);
    }
  });
});
