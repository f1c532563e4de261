/**
 * A firm name with an ampersand, quotes, a dash and accents, and a legal name that even
 * tries to close the JSON-LD script, through the build's own functions: the head of each
 * page, the prerendered pages, the web manifest and the share picture. Each is read back
 * by a real parser and must say the name exactly as written, and nothing else.
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it, vi } from 'vitest';
import { asRead } from '@site/testing/as-read';

/** Invented; what a firm's name can hold. */
const NAME = 'Jansen & "Zonen" Advies – Café';
const LEGAL_NAME = "Jansen & 'Zonen' </script><!-- Advies B.V.";

vi.mock('@site/core/content/firm', async (importOriginal) => {
  const facts = await importOriginal<typeof import('@site/core/content/firm')>();
  return { ...facts, firm: { ...facts.firm, name: NAME, legalName: LEGAL_NAME } };
});

const { renderHead } = await import('./src/head');
const { render } = await import('./src/entry-server');
const { shareImageSvg, webManifest } = await import('./brand-files');

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('a firm name with &, quotes and accents', () => {
  it('is the title, the Open Graph site name and the image text of every page, as written', () => {
    for (const route of ['home', 'privacy', 'not-found', 'form-sent'] as const) {
      const head = parse(`<!doctype html><html><head>${renderHead(route)}</head></html>`);
      expect(head.title, route).toMatch(new RegExp(`(^|\\| )${NAME.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\||$)`));
      if (route === 'home' || route === 'privacy') {
        expect(head.querySelector('meta[property="og:site_name"]')!.getAttribute('content')).toBe(NAME);
        expect(head.querySelector('meta[property="og:image:alt"]')!.getAttribute('content')).toMatch(
          new RegExp(`^${NAME.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
        );
      }
    }
  });

  it('is the name and legal name in the JSON-LD, which no text can close or comment out', () => {
    const html = renderHead('home');
    const head = parse(`<!doctype html><html><head>${html}</head></html>`);
    const blocks = head.querySelectorAll('script[type="application/ld+json"]');
    expect(blocks).toHaveLength(1);
    const data = JSON.parse(blocks[0]!.textContent) as { name: string; legalName: string };
    expect(data.name).toBe(NAME);
    expect(data.legalName).toBe(LEGAL_NAME);
    // The script element ends where the head put its end, not inside the legal name.
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
    expect(html).not.toContain('<!--');
  });

  it('is shown in the header, the footer and the privacy statement of the prerendered pages', async () => {
    const home = parse((await render('home')).html);
    expect(home.querySelector('.site-header a[href="/"]')!.getAttribute('aria-label')).toBe(`${NAME}, naar de homepage`);
    expect(asRead(home.querySelector('.footer-legal')!.textContent)).toContain(`${NAME}.`);
    expect(asRead(home.querySelector('.why-title')!.textContent)).toBe(`Waarom ${NAME} kiezen?`);
    const privacy = parse((await render('privacy')).html);
    expect(asRead(privacy.querySelector('#verantwoordelijke')!.textContent)).toContain(`${LEGAL_NAME}, `);
  });

  it('is the web manifest’s name', () => {
    expect((JSON.parse(webManifest()) as { name: string }).name).toBe(NAME);
  });

  it('is the share picture’s text, in SVG that parses and renders', () => {
    const svg = shareImageSvg();
    const picture = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(picture.querySelector('parsererror')).toBeNull();
    expect(picture.querySelector('text')!.textContent).toBe(NAME);
    const png = new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render().asPng();
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
