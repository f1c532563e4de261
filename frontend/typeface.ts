/**
 * The site's typeface, made at build: Inter (OFL, the family of the share picture), one
 * variable file for every weight, its Latin subset only, served from the site's own origin as
 * a hashed asset and preloaded by every page. Until it has arrived the text is set in a local
 * Arial-metric font scaled to Inter's metrics, so nothing moves when Inter takes over.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createFontStack } from '@capsizecss/core';
import { fromFile } from '@capsizecss/unpack/fs';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

const PACKAGE = '@fontsource-variable/inter';
/** The file as Vite resolves it from the stylesheet; the build hashes it into /assets/. */
const FILE = `${PACKAGE}/files/inter-latin-wght-normal.woff2`;
const FAMILY = 'Inter Variable';
const FALLBACK_FAMILY = `${FAMILY} Fallback`;

/**
 * Arial's metrics as capsize publishes them (@capsizecss/metrics, `arial`: the font's hhea
 * ascender, descender and line gap, and its average Latin character width weighted by letter
 * frequency), in its 2048 units per em. Liberation Sans and Arimo are drawn to the same
 * metrics, so one set of overrides fits them all.
 */
const ARIAL_METRICS = { familyName: 'Arial', ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 913 };

/**
 * The local fonts the fallback may be, by the full and PostScript names `local()` matches,
 * for regular and bold text: Arial (Windows, macOS), Liberation Sans (most Linux systems),
 * Arimo (ChromeOS). A visitor with none of them gets the system's sans-serif unadjusted.
 */
const FALLBACK_FACES = [
  { weight: 400, names: ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo', 'Arimo-Regular'] },
  { weight: 700, names: ['Arial Bold', 'Arial-BoldMT', 'Liberation Sans Bold', 'LiberationSans-Bold', 'Arimo Bold', 'Arimo-Bold'] },
] as const;

/** The system fonts after the fallback: what a visitor without any of the above sees. */
const SYSTEM_STACK = ['system-ui', 'sans-serif'];

/** Which characters the file has: the package's Latin range (Dutch letters with their accents, €, typographic punctuation). */
export async function latinRange(): Promise<string> {
  const ranges = JSON.parse(await readFile(require.resolve(`${PACKAGE}/unicode.json`), 'utf8')) as Record<string, string>;
  return ranges.latin!;
}

/** The code points a unicode-range such as `U+0000-00FF,U+20AC` covers, as [first, last] pairs. */
export function codePointRanges(unicodeRange: string): [number, number][] {
  return unicodeRange.split(',').map((part) => {
    const [first, last = first] = part.trim().replace(/^U\+/i, '').split('-') as [string, string?];
    return [parseInt(first, 16), parseInt(last, 16)];
  });
}

const declarations = (properties: Record<string, string>) =>
  Object.entries(properties)
    .map(([name, value]) => `  ${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${value};`)
    .join('\n');

/**
 * The stylesheet of the typeface: Inter's face, the fallback faces with their overrides
 * computed by capsize from the metrics of the very file that ships (read at build) and
 * Arial's, and `--font-text`, the family list every text uses.
 */
export async function typefaceCss(): Promise<string> {
  const inter = { ...(await fromFile(require.resolve(FILE))), familyName: FAMILY };
  const { fontFaces } = createFontStack([inter, { ...ARIAL_METRICS, familyName: 'Fallback' }], { fontFaceFormat: 'styleObject' });
  const { fontFamily: _, src: __, ...overrides } = fontFaces[0]!['@font-face'];
  const faces = [
    declarations({
      fontFamily: `'${FAMILY}'`,
      fontStyle: 'normal',
      fontWeight: '100 900',
      fontDisplay: 'swap',
      src: `url('${FILE}') format('woff2')`,
      unicodeRange: await latinRange(),
    }),
    ...FALLBACK_FACES.map(({ weight, names }) =>
      declarations({
        fontFamily: `'${FALLBACK_FAMILY}'`,
        fontStyle: 'normal',
        fontWeight: String(weight),
        src: names.map((name) => `local('${name}')`).join(', '),
        ...(overrides as Record<string, string>),
      }),
    ),
  ];
  const family = [`'${FAMILY}'`, `'${FALLBACK_FAMILY}'`, ...SYSTEM_STACK].join(', ');
  return [...faces.map((face) => `@font-face {\n${face}\n}`), `:root {\n  --font-text: ${family};\n}`].join('\n\n') + '\n';
}

/** The stylesheet's module id: imported by the app's entry before every other style. */
export const TYPEFACE_MODULE = 'virtual:typeface.css';
const RESOLVED = `\0${TYPEFACE_MODULE}`;

/**
 * Serves the typeface's stylesheet to the build and the dev server, and puts a preload of
 * the font file in every page's head, beside the stylesheet: the text of the first view
 * (the largest paint among it) is set in it, and the browser would otherwise only find the
 * file once the stylesheet has arrived and been applied.
 */
export function typeface(): Plugin {
  return {
    name: 'typeface',
    resolveId: (id) => (id === TYPEFACE_MODULE ? RESOLVED : undefined),
    load: async (id) => (id === RESOLVED ? await typefaceCss() : undefined),
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const fonts = Object.values(bundle).filter((file) => file.type === 'asset' && file.fileName.endsWith('.woff2'));
        if (fonts.length !== 1) throw new Error(`Expected one font file in the build, found ${fonts.length}.`);
        return {
          html,
          tags: [
            {
              tag: 'link',
              attrs: { rel: 'preload', href: `/${fonts[0]!.fileName}`, as: 'font', type: 'font/woff2', crossorigin: true },
              injectTo: 'head',
            },
          ],
        };
      },
    },
  };
}
