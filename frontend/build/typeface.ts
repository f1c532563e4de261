/**
 * The site's typeface, made at build: Inter (OFL, the family of the share picture), cut down
 * to the characters the site shows (site-text.ts) and to the weights its stylesheets use,
 * served from the site's own origin as hashed assets. The page never waits for it: it paints
 * in a local Arial-metric font scaled to Inter's metrics; the stylesheet declares Inter's
 * faces, which no text uses until the loader has fetched them once the page has painted and
 * sets the page in them a block at a time (src/loader.ts), so Inter takes over with nothing
 * moving.
 *
 * Two files: the first view's, with exactly the characters of the pages and the content,
 * and the rest of Inter's Latin range, which a browser fetches only when a page shows one of
 * its characters (a name a visitor typed, a text the firm adds before the next build).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFontStack } from '@capsizecss/core';
import { fromFile } from '@capsizecss/unpack/fs';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';
import { siteCharacters } from './site-text.ts';

const require = createRequire(import.meta.url);

const PACKAGE = '@fontsource-variable/inter';
/** Every weight of Inter's Latin characters in one variable file: what is cut down at build, and what the dev server serves whole. */
const SOURCE = `${PACKAGE}/files/inter-latin-wght-normal.woff2`;
export const FAMILY = 'Inter Variable';
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

/**
 * The OpenType features a browser applies by itself (composition, local forms, the variable
 * font's own substitutions, ligatures, contextual alternates, kerning, mark placement) and
 * the one the stylesheets ask for (`tabular-nums`, the form's counter). Inter's other
 * features (stylistic sets, character variants, fractions…) would bring their alternate
 * glyphs into the file; a stylesheet that starts using one adds it here.
 */
const FEATURES = ['ccmp', 'locl', 'rvrn', 'rlig', 'liga', 'clig', 'calt', 'kern', 'mark', 'mkmk', 'tnum'];

/** The weights CSS gives text that names none: normal, and bold for headings, `<strong>` and `<b>`. */
const DEFAULT_WEIGHTS = [400, 700];

/** One face of the family: its file's address and the characters it draws. */
export interface Face {
  src: string;
  unicodeRange: string;
}

/** The typeface as the stylesheet declares it: one family in a range of weights, in faces by character. */
export interface Typeface {
  family: string;
  /** The weights the file keeps, as the `font-weight` descriptor writes a range ("400 800"). */
  weight: string;
  faces: Face[];
}

/** The characters the package's Latin file has: Dutch letters with their accents, €, typographic punctuation. */
async function latinRange(): Promise<string> {
  const ranges = JSON.parse(await readFile(require.resolve(`${PACKAGE}/unicode.json`), 'utf8')) as Record<string, string>;
  return ranges.latin!;
}

/** The code points a unicode-range such as `U+0000-00FF,U+20AC` covers. */
export function codePointsOf(unicodeRange: string): Set<number> {
  const points = new Set<number>();
  for (const part of unicodeRange.split(',')) {
    const [first, last = first] = part.trim().replace(/^U\+/i, '').split('-') as [string, string?];
    for (let point = parseInt(first, 16); point <= parseInt(last, 16); point++) points.add(point);
  }
  return points;
}

/** The shortest unicode-range for a set of code points: runs as ranges, in order (`U+20-22,U+E9`). */
export function unicodeRangeOf(points: Iterable<number>): string {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const hex = (point: number) => point.toString(16).toUpperCase();
    runs.push(j === i ? `U+${hex(sorted[i]!)}` : `U+${hex(sorted[i]!)}-${hex(sorted[j]!)}`);
    i = j + 1;
  }
  return runs.join(',');
}

/**
 * The lightest and heaviest `font-weight` the stylesheets give (besides normal and bold): the
 * variable file keeps only the weights between, where Inter's outlines are interpolated.
 */
export function weightRange(stylesheets: readonly string[]): [number, number] {
  const weights = stylesheets.flatMap((css) => [...css.matchAll(/\bfont-weight\s*:\s*(\d{3})\b/g)].map(([, weight]) => Number(weight)));
  const all = [...DEFAULT_WEIGHTS, ...weights];
  return [Math.min(...all), Math.max(...all)];
}

/** The typeface cut for the site: the first view's file, the rest of the Latin range's, and what each covers. */
export interface CutTypeface {
  weights: [number, number];
  firstView: { file: Uint8Array; unicodeRange: string };
  /** Absent when the site shows every character of the Latin range. */
  rest?: { file: Uint8Array; unicodeRange: string };
}

/**
 * Cuts Inter's Latin file to `characters` (those it has: anything else is drawn by the
 * fallback, as before) and the rest of its Latin range into a second file, both kept to the
 * weights between `weights` and to the FEATURES.
 */
export async function cutTypeface(characters: string, weights: [number, number]): Promise<CutTypeface> {
  const source = await readFile(require.resolve(SOURCE));
  const latin = codePointsOf(await latinRange());
  const wanted = new Set([...characters].map((character) => character.codePointAt(0)!).filter((point) => latin.has(point)));
  const rest = [...latin].filter((point) => !wanted.has(point));
  const cut = (points: Iterable<number>) =>
    subsetFont(source, String.fromCodePoint(...points), {
      targetFormat: 'woff2',
      variationAxes: { wght: { min: weights[0], max: weights[1] } },
      // Not in @types/subset-font, which is older than the option.
      ...{ keepFeatures: FEATURES },
    });
  return {
    weights,
    firstView: { file: await cut(wanted), unicodeRange: unicodeRangeOf(wanted) },
    ...(rest.length ? { rest: { file: await cut(rest), unicodeRange: unicodeRangeOf(rest) } } : {}),
  };
}

const declarations = (properties: Record<string, string>) =>
  Object.entries(properties)
    .map(([name, value]) => `  ${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${value};`)
    .join('\n');

const fontFaceRule = (properties: Record<string, string>) => `@font-face {\n${declarations(properties)}\n}`;

/** The @font-face rules of the typeface's faces: in the site's stylesheet, used by no text until a block is set in Inter. */
export function faceRules({ family, weight, faces }: Typeface): string {
  return faces
    .map(({ src, unicodeRange }) =>
      fontFaceRule({
        fontFamily: `'${family}'`,
        fontStyle: 'normal',
        fontWeight: weight,
        fontDisplay: 'swap',
        src: `url('${src}') format('woff2')`,
        unicodeRange,
      }),
    )
    .join('\n\n');
}

/** Without the loader no block is set in Inter one by one: the whole page is, at once (the no-script pages' stylesheet, and the dev server's). */
const WHOLE_PAGE_RULE = 'html body {\n  font-family: var(--font-text);\n}\n';

/**
 * The stylesheet every page's text starts in: the fallback faces, with their overrides
 * computed by capsize from the metrics of Inter's Latin file (the cut files keep them) and
 * Arial's; `--font-fallback`, the family list every text starts in, and `--font-text`, the
 * same with Inter first, which a block of the page takes when the loader sets it in Inter.
 * Inter's own faces come before it (faceRules).
 */
export async function fallbackCss(): Promise<string> {
  const inter = { ...(await fromFile(require.resolve(SOURCE))), familyName: FAMILY };
  const { fontFaces } = createFontStack([inter, { ...ARIAL_METRICS, familyName: 'Fallback' }], { fontFaceFormat: 'styleObject' });
  const { fontFamily: _, src: __, ...overrides } = fontFaces[0]!['@font-face'];
  const faces = FALLBACK_FACES.map(({ weight, names }) =>
    fontFaceRule({
      fontFamily: `'${FALLBACK_FAMILY}'`,
      fontStyle: 'normal',
      fontWeight: String(weight),
      src: names.map((name) => `local('${name}')`).join(', '),
      ...(overrides as Record<string, string>),
    }),
  );
  const fallback = [`'${FALLBACK_FAMILY}'`, ...SYSTEM_STACK].join(', ');
  return [...faces, `:root {\n  --font-text: '${FAMILY}', ${fallback};\n  --font-fallback: ${fallback};\n}`].join('\n\n') + '\n';
}

/** The id of the element that hands the typeface to the loader (src/loader.ts). */
export const TYPEFACE_ELEMENT_ID = 'typeface';

/** The stylesheet's module id: imported by the app's entry before every other style. */
export const TYPEFACE_MODULE = 'virtual:typeface.css';
const RESOLVED = `\0${TYPEFACE_MODULE}`;

async function stylesheetsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(entries.filter((e) => e.isFile() && e.name.endsWith('.css')).map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
}

const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The typeface in the build: the two cut files (the characters come from every page rendered
 * by the server bundle, which `npm run build` makes first, in `ssrDir`), declared by the site's
 * stylesheet, whose url()s Vite turns into hashed assets; the family named in every page's head
 * for the loader (a JSON data block, which the CSP leaves alone: it is never run), and a
 * stylesheet that sets the whole page in it for pages without script (`<noscript>`).
 * `filled`: what the build writes into the stylesheets (siteOriginInCss), by its token.
 * The dev server sets the page in the whole Latin file at once.
 */
export function typeface({ ssrDir, filled }: { ssrDir: string; filled: Record<string, string> }): Plugin {
  let building = false;
  let declared: Typeface | undefined;
  let wholePageFile: string | undefined;
  let wholePageRef: string | undefined;
  let cutDir: string | undefined;
  return {
    name: 'typeface',
    configResolved(config) {
      building = config.command === 'build' && !config.build.ssr;
    },
    async buildStart() {
      if (!building) return;
      const frontendDir = join(import.meta.dirname, '..');
      const stylesheets = await stylesheetsUnder(join(frontendDir, 'src'));
      const cut = await cutTypeface(await siteCharacters(frontendDir, ssrDir, filled), weightRange(stylesheets));
      // Written where the stylesheet can name them by path: Vite emits what a url() names, hashed.
      const dir = (cutDir = await mkdtemp(join(tmpdir(), 'typeface-')));
      const face = async (name: string, { file, unicodeRange }: { file: Uint8Array; unicodeRange: string }): Promise<Face> => {
        const src = join(dir, name);
        await writeFile(src, file);
        return { src, unicodeRange };
      };
      declared = {
        family: FAMILY,
        weight: cut.weights.join(' '),
        faces: [await face('inter-first-view.woff2', cut.firstView), ...(cut.rest ? [await face('inter-latin-rest.woff2', cut.rest)] : [])],
      };
      wholePageRef = this.emitFile({ type: 'asset', name: 'typeface.css', source: WHOLE_PAGE_RULE });
    },
    // The stylesheet has been read by now, and what it names emitted.
    async buildEnd() {
      if (cutDir) await rm(cutDir, { recursive: true, force: true });
    },
    resolveId: (id) => (id === TYPEFACE_MODULE ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const fallback = await fallbackCss();
      if (building) return `${faceRules(declared!)}\n\n${fallback}`;
      const whole: Typeface = { family: FAMILY, weight: '100 900', faces: [{ src: SOURCE, unicodeRange: await latinRange() }] };
      return `${faceRules(whole)}\n\n${WHOLE_PAGE_RULE}\n${fallback}`;
    },
    renderStart() {
      if (wholePageRef) wholePageFile = this.getFileName(wholePageRef);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !wholePageFile) return html;
        return {
          html,
          tags: [
            {
              tag: 'script',
              attrs: { type: 'application/json', id: TYPEFACE_ELEMENT_ID },
              children: jsonInHtml({ family: FAMILY }),
              injectTo: 'head',
            },
            {
              tag: 'noscript',
              children: [{ tag: 'link', attrs: { rel: 'stylesheet', href: `/${wholePageFile}` } }],
              injectTo: 'head',
            },
          ],
        };
      },
    },
  };
}
