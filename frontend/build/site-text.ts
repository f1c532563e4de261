/**
 * Every character the site can show, known at build: the typeface is cut down to these
 * (typeface.ts). The text of every prerendered page, what the app shows only once its script
 * runs (toasts, field messages, the counters, the confirmation card: every text of the
 * content modules), what the stylesheets write themselves (print's link addresses), the
 * digits of the numbers the app fills in, and every letter in both cases, for the texts set
 * in capitals by CSS.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['childNode'];
type RoutesModule = typeof import('../src/routes');
/** The server bundle's one export (src/entry-server.tsx), typed here: its components need the build's globals to type-check. */
interface EntryServerModule {
  render: (route: string) => Promise<{ html: string }>;
}

/**
 * The modules every text a visitor reads comes from (docs/design.md, "Texts"): the site's
 * own copy and what it shares with the contact function (field labels and messages, the
 * API's answers, which the form shows as toasts, the firm's facts).
 */
export const CONTENT_MODULES = [
  './src/content/site.ts',
  './src/content/form-results.ts',
  './src/content/privacy.ts',
  '@site/core/content/contact-fields',
  '@site/core/content/api-answers',
  '@site/core/content/firm',
];

/** Elements whose text is never set on the page. */
const UNSHOWN = new Set(['script', 'style', 'template']);
/** Attributes a browser sets as text in the page: a field's hint, a button's or a field's value. */
const SHOWN_ATTRIBUTES = new Set(['placeholder', 'value']);

/**
 * The text a page shows, from its HTML: its text nodes and the attributes drawn as text, and
 * the addresses of its links, which the print stylesheet writes after them.
 */
export function shownText(html: string): string {
  const parts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeName === '#text') parts.push((node as DefaultTreeAdapterMap['textNode']).value);
    if (!('tagName' in node) || UNSHOWN.has(node.tagName)) return;
    for (const { name, value } of node.attrs) {
      if (SHOWN_ATTRIBUTES.has(name) || (name === 'href' && node.tagName === 'a')) parts.push(value);
    }
    for (const child of node.childNodes) visit(child);
  };
  for (const node of parseFragment(html).childNodes) visit(node);
  return parts.join(' ');
}

/**
 * Argument lists a content text that is a function is called with: none, numbers that take
 * its singular and plural branches, a name. Whatever branch they miss is still covered when a
 * prerendered page shows it, and a character outside the subset is never lost: the rest of
 * the Latin range stays available (typeface.ts).
 */
const SAMPLE_ARGUMENTS: unknown[][] = [[], [0, 1], [1, 1], [7, 10], ['naam']];

/** Every string a content value holds or, for a function, returns. */
export function contentStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return [];
  seen.add(value);
  if (typeof value === 'function') {
    return SAMPLE_ARGUMENTS.flatMap((args) => {
      try {
        return contentStrings((value as (...args: unknown[]) => unknown)(...args), seen);
      } catch {
        return [];
      }
    });
  }
  return Object.values(value).flatMap((item) => contentStrings(item, seen));
}

/** The strings of the stylesheets' `content` declarations, with what the build fills in (the site's address) filled in. */
export function generatedContent(css: string, filled: Record<string, string> = {}): string[] {
  const fill = (text: string) => Object.entries(filled).reduce((out, [token, value]) => out.replaceAll(token, value), text);
  return [...css.matchAll(/\bcontent\s*:([^;}]*)/g)].flatMap(([, value]) =>
    [...value!.matchAll(/'([^']*)'|"([^"]*)"/g)].map(([, single, double]) => fill(single ?? double!)),
  );
}

/**
 * The characters of the texts, each once, sorted: every letter in both cases (`text-transform`
 * sets some texts in capitals), and the ten digits, which the app fills in (minutes to wait,
 * characters left, the year).
 */
export function charactersOf(texts: readonly string[]): string {
  const characters = new Set<string>('0123456789');
  for (const character of texts.join('')) {
    for (const form of [character, character.toLocaleUpperCase('nl'), character.toLocaleLowerCase('nl')]) {
      for (const single of form) characters.add(single);
    }
  }
  // Line breaks and tabs are never drawn: the text between them is.
  for (const control of [...characters].filter((character) => /\p{Cc}/u.test(character))) characters.delete(control);
  return [...characters].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!).join('');
}

async function stylesheets(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
      .map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')),
  );
}

/**
 * The characters of the built site: every route rendered by the server bundle (`vite build
 * --ssr`, in `ssrDir`), the content modules, and the stylesheets under src/ with `filled`
 * filled in.
 */
export async function siteCharacters(frontendDir: string, ssrDir: string, filled: Record<string, string>): Promise<string> {
  // Loaded here, not with the module: its compiler does not run in the component tests' jsdom.
  const { tsImport } = await import('tsx/esm/api');
  const { render } = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as EntryServerModule;
  const { PAGE_PATHS } = (await tsImport(join(frontendDir, 'src/routes.ts'), import.meta.url)) as RoutesModule;
  const routes = [...(Object.keys(PAGE_PATHS) as (keyof typeof PAGE_PATHS)[]), 'not-found' as const];
  const pages = await Promise.all(routes.map(async (route) => shownText((await render(route)).html)));
  const content = await Promise.all(
    CONTENT_MODULES.map(async (module) =>
      contentStrings(await tsImport(module.startsWith('.') ? join(frontendDir, module) : module, import.meta.url)),
    ),
  );
  const css = (await stylesheets(join(frontendDir, 'src'))).flatMap((sheet) => generatedContent(sheet, filled));
  return charactersOf([...pages, ...content.flat(), ...css]);
}
