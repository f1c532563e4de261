/** The icons, manifest and share picture the build makes from the mark and the content. */
import { describe, expect, it } from 'vitest';
import { brandFiles, shareImageSvg, webManifest } from './brand-files';
import { BRAND_FILES, SHARE_IMAGE } from '../src/brand/files';
import { BRAND_COLORS, markSvg } from '../src/brand/mark';
import { firm, hero, seo } from '../src/content/site';

/** Width and height from a PNG's IHDR chunk, which always comes first. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** The size of each image in an ICO file, from its directory (0 stands for 256). */
function icoSizes(ico: Buffer): number[] {
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
}

const files = await brandFiles();
const file = (path: string) => files.get(path)!;

describe('brandFiles', () => {
  it('makes every file the head links, and nothing else', () => {
    expect([...files.keys()].sort()).toEqual(Object.values(BRAND_FILES).sort());
  });

  it('renders each picture at the size its platform asks for', () => {
    expect(pngSize(file(BRAND_FILES.shareImage))).toEqual([SHARE_IMAGE.width, SHARE_IMAGE.height]);
    expect(pngSize(file(BRAND_FILES.appleTouchIcon))).toEqual([180, 180]);
    expect(pngSize(file(BRAND_FILES.icon192))).toEqual([192, 192]);
    expect(pngSize(file(BRAND_FILES.icon512))).toEqual([512, 512]);
    expect(pngSize(file(BRAND_FILES.maskableIcon))).toEqual([512, 512]);
    expect(icoSizes(file(BRAND_FILES.faviconIco))).toEqual([16, 32, 48]);
    expect(file(BRAND_FILES.faviconSvg).toString()).toBe(markSvg());
  });

  it('makes the same bytes every time, so a rebuild changes no file that did not change', async () => {
    const again = await brandFiles();
    for (const [path, body] of files) expect(again.get(path)!.equals(body), path).toBe(true);
  });
});

describe('the share picture', () => {
  it('carries the mark, the firm’s name, the headline and the services, in the brand’s colours', () => {
    const svg = shareImageSvg();
    // Read as an SVG reader reads it: a name with & is written &amp; in the file.
    const texts = [...new DOMParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text')].map((text) => text.textContent);
    for (const text of [firm.name, hero.headline.lead, hero.headline.accent]) expect(texts).toContain(text);
    expect(texts.some((text) => text.startsWith('Management Consulting\u2002·\u2002Management Advisering'))).toBe(true);
    expect(svg).toContain(`fill="${BRAND_COLORS.navy}"`);
    expect(svg).toContain(`fill="${BRAND_COLORS.accent}"`);
    expect(svg).toMatch(/<g transform="translate\(88 76\) scale\([\d.]+\)"><rect width="40" height="40"/);
  });

  it('sets its text in the project’s own font only, so every machine renders the same picture', () => {
    expect(shareImageSvg()).not.toMatch(/font-family="(?!Inter")/);
  });
});

describe('the web manifest', () => {
  it('names the firm, its icons and the theme colour of the page', () => {
    const manifest = JSON.parse(webManifest()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: firm.name, lang: 'nl', start_url: '/', theme_color: seo.themeColor });
    const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((icon) => icon.src)).toEqual([
      BRAND_FILES.faviconSvg,
      BRAND_FILES.icon192,
      BRAND_FILES.icon512,
      BRAND_FILES.maskableIcon,
    ]);
    expect(icons.filter((icon) => icon.purpose === 'maskable')).toHaveLength(1);
    for (const icon of icons) expect(files.has(icon.src), icon.src).toBe(true);
  });
});
