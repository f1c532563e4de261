/**
 * The comparison pages made from the site's build: the no-script page loses every script, the
 * no-font page only what names the web font, and a build that no longer names it the way the
 * bench knows fails the bench rather than compare the site with itself.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stripScripts, stripTypeface, writeChangedSite } from '../pages';

const writeNoFontSite = (dist: string, out: string) => writeChangedSite(dist, out, 'typeface', stripTypeface);

const HEAD =
  '<script data-entry="/assets/index-abcdefgh.js">(()=>{})()</script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-abcdefgh.css">' +
  '<script type="application/json" id="typeface">{"family":"Inter Variable","faces":[]}</script>' +
  '<noscript>      <link rel="stylesheet" href="/assets/typeface-abcdefgh.css">\n</noscript>';
const PAGE = `<!doctype html><html lang="nl"><head>${HEAD}</head><body><h1>Hallo</h1></body></html>`;

describe('the no-font page', () => {
  it('keeps the scripts and the stylesheet, and loses the typeface’s data block and its <noscript> stylesheet', () => {
    const { html, removed } = stripTypeface(PAGE);
    expect(removed).toBe(2);
    expect(html).toContain('data-entry="/assets/index-abcdefgh.js"');
    expect(html).toContain('href="/assets/index-abcdefgh.css"');
    expect(html).not.toContain('typeface');
  });

  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  /** A build of one page in a folder of its own: where it is and where its copy goes. */
  const build = (html: string) => {
    dir = mkdtempSync(join(tmpdir(), 'no-font-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), html);
    return { dist: join(dir, 'dist'), out: join(dir, 'out') };
  };

  it('refuses a build that names no typeface the way the bench knows, rather than compare the site with itself', () => {
    const { dist, out } = build(stripTypeface(PAGE).html);
    expect(() => writeNoFontSite(dist, out)).toThrow(/no typeface to remove/);
  });

  it('is written from the build with only the typeface removed', () => {
    const { dist, out } = build(PAGE);
    expect(writeNoFontSite(dist, out)).toEqual({ removed: 2 });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(stripTypeface(PAGE).html);
  });
});

describe('the no-script page', () => {
  it('loses every script, the typeface’s data among them', () => {
    const { html, removed } = stripScripts(PAGE);
    expect(removed).toBe(2);
    expect(html).not.toMatch(/<script/);
  });
});
