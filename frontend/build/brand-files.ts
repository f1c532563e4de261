/**
 * The site's icons, web manifest and share picture, made at build from the mark
 * (src/brand/mark.ts) and the content, so none is a binary to keep in step by hand. PNGs are
 * rendered by resvg; the picture's text is set in Inter, a font file from npm loaded by path
 * with the system's fonts left out, so every machine renders the same pixels.
 */
import { createRequire } from 'node:module';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import pngToIco from 'png-to-ico';
import { BRAND_FILES, SHARE_IMAGE } from '../src/brand/files';
import { BRAND_COLORS, MARK, markSvg } from '../src/brand/mark';
import { firm, footer, hero, seo } from '../src/content/site';

const require = createRequire(import.meta.url);

const FONT_FAMILY = 'Inter';
const RENDER_OPTIONS: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: ['500Medium/Inter_500Medium.ttf', '700Bold/Inter_700Bold.ttf'].map((file) =>
      require.resolve(`@expo-google-fonts/inter/${file}`),
    ),
    defaultFontFamily: FONT_FAMILY,
  },
  logLevel: 'off',
};

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function renderPng(svg: string, width: number): Buffer {
  return new Resvg(svg, { ...RENDER_OPTIONS, fitTo: { mode: 'width', value: width } }).render().asPng();
}

interface TextStyle {
  size: number;
  weight: 500 | 700;
}

const textElement = (text: string, x: number, y: number, { size, weight }: TextStyle, fill: string, extra = '') =>
  `<text x="${x}" y="${y}" font-family="${FONT_FAMILY}" font-size="${size}" font-weight="${weight}" fill="${fill}"${extra}>${escapeXml(text)}</text>`;

/** The largest size up to `style.size` at which `text` is at most `maxWidth` wide, measured as resvg sets it. */
function fitted(text: string, style: TextStyle, maxWidth: number): TextStyle {
  const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="400">${textElement(text, 0, 200, style, '#000')}</svg>`;
  const width = new Resvg(probe, RENDER_OPTIONS).getBBox()?.width ?? 0;
  return width <= maxWidth ? style : { ...style, size: Math.floor((style.size * maxWidth) / width) };
}

/**
 * The share picture: the hero's navy with its ledger grid and glow, the mark and the firm's
 * name, the headline in the hero's white and amber, the 'streepje', and the three services.
 */
export function shareImageSvg(): string {
  const { width, height } = SHARE_IMAGE;
  const left = 88;
  const textWidth = width - 2 * left;
  const markSize = 88;
  const name = fitted(firm.name, { size: 42, weight: 700 }, textWidth - markSize - 28);
  const lead = fitted(hero.headline.lead, { size: 80, weight: 700 }, textWidth);
  const accent = fitted(hero.headline.accent, { size: 80, weight: 700 }, textWidth);
  // En spaces around the dots: SVG collapses runs of ordinary spaces into one.
  const services = footer.tagline.split(' - ').join('\u2002·\u2002');
  const tagline = fitted(services, { size: 28, weight: 500 }, textWidth);
  const markScale = markSize / MARK.size;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs>',
    '<radialGradient id="glow" cx="0.9" cy="0.05" r="0.75"><stop offset="0" stop-color="#3d6bb3" stop-opacity="0.45"/><stop offset="1" stop-color="#3d6bb3" stop-opacity="0"/></radialGradient>',
    '<pattern id="grid" width="56" height="56" patternUnits="userSpaceOnUse"><path d="M56 0H0V56" fill="none" stroke="#ffffff" stroke-opacity="0.05"/></pattern>',
    '</defs>',
    `<rect width="${width}" height="${height}" fill="${BRAND_COLORS.navy}"/>`,
    `<rect width="${width}" height="${height}" fill="url(#grid)"/>`,
    `<rect width="${width}" height="${height}" fill="url(#glow)"/>`,
    `<g transform="translate(${left} 76) scale(${markScale})">${markSvg().replace(/^<svg[^>]*>|<\/svg>$/g, '')}</g>`,
    textElement(firm.name, left + markSize + 28, 76 + markSize / 2 + name.size * 0.36, name, '#ffffff'),
    textElement(hero.headline.lead, left, 330, lead, '#ffffff', ' letter-spacing="-1.5"'),
    textElement(hero.headline.accent, left, 330 + accent.size * 1.12, accent, BRAND_COLORS.accent, ' letter-spacing="-1.5"'),
    `<rect x="${left}" y="478" width="72" height="8" rx="4" fill="${BRAND_COLORS.accent}"/>`,
    textElement(services, left, 548, tagline, '#c3cfe2'),
    '</svg>',
  ].join('');
}

/**
 * The web manifest: name, icons and colours for a bookmark on a home screen; the site stays a
 * site. Chromium fetches a linked manifest after every page load to see whether the site can
 * be installed, so it is written without whitespace: it is the one brand file in the first view.
 */
export function webManifest(): string {
  return JSON.stringify({
    name: firm.name,
    description: seo.description,
    lang: 'nl',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'browser',
    theme_color: seo.themeColor,
    background_color: '#ffffff',
    icons: [
      { src: BRAND_FILES.faviconSvg, sizes: 'any', type: 'image/svg+xml' },
      { src: BRAND_FILES.icon192, sizes: '192x192', type: 'image/png' },
      { src: BRAND_FILES.icon512, sizes: '512x512', type: 'image/png' },
      { src: BRAND_FILES.maskableIcon, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  });
}

/** Every brand file by its address in the site, ready to write into dist/. */
export async function brandFiles(): Promise<Map<string, Buffer>> {
  const rounded = markSvg();
  // Platforms that shape icons themselves get a square tile: iOS rounds it, a maskable icon may be cut to a circle.
  const square = markSvg({ tileRadius: 0 });
  const maskable = markSvg({ tileRadius: 0, inset: 4 });
  return new Map([
    [BRAND_FILES.faviconSvg, Buffer.from(rounded)],
    [BRAND_FILES.faviconIco, await pngToIco([16, 32, 48].map((size) => renderPng(rounded, size)))],
    [BRAND_FILES.appleTouchIcon, renderPng(square, 180)],
    [BRAND_FILES.icon192, renderPng(rounded, 192)],
    [BRAND_FILES.icon512, renderPng(rounded, 512)],
    [BRAND_FILES.maskableIcon, renderPng(maskable, 512)],
    [BRAND_FILES.manifest, Buffer.from(webManifest())],
    [BRAND_FILES.shareImage, renderPng(shareImageSvg(), SHARE_IMAGE.width)],
  ]);
}
