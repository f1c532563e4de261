/**
 * The first-load JavaScript as its budget counts it, one way for every measure: the build's
 * test (test/browser/dist.spec.ts), size-limit (.size-limit.mjs) and, through size-limit, the
 * bench. It is what the first view runs: the inline scripts of index.html (the loader) and the
 * entry the loader names (data-entry) with every file the entry imports statically; the other
 * chunks load when the visitor acts. Each file is gzipped on its own at level 9, as size-limit
 * does (it lets no check choose another level); the budget is on their sum.
 *
 * Node imports this module by itself (.size-limit.mjs): it imports nothing but Node's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first-load budget of docs/design.md ("Budgets"), bytes gzip; bench/budgets.ts reads it. */
export const FIRST_LOAD_JS_BUDGET_BYTES = 85_000;
/** size-limit's level, which it does not let a check change. */
export const FIRST_LOAD_GZIP_LEVEL = 9;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** A script the browser runs: no type, or a JavaScript one (not JSON-LD, not the typeface's data). */
const RUN_TYPE = /^(|module|(text|application)\/javascript)$/i;

export interface FirstLoad {
  /** The inline scripts index.html runs, joined (the loader). */
  inline: string;
  /** The entry and what it imports statically, as paths under the site's folder (`assets/…`). */
  files: string[];
}

/** The files a module imports statically (`import … from "./x.js"`), not those it may import later (`import("./x.js")`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?<![\w$.])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map(([, file]) => file!);
}

/** What the built site in `dist` runs on its first view, by its index.html. */
export function firstLoadOf(dist: string): FirstLoad {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(SCRIPT)];
  const entry = scripts.map(([, attributes]) => /\bdata-entry="\/(assets\/[^"]+)"/.exec(attributes!)?.[1]).find(Boolean);
  if (!entry) throw new Error(`${join(dist, 'index.html')} names no entry (data-entry): has the loader changed?`);
  const inline = scripts
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes!) && RUN_TYPE.test(/\btype="([^"]*)"/.exec(attributes!)?.[1] ?? ''))
    .map(([, , text]) => text!);
  const files = new Set([entry]);
  for (const file of files) for (const imported of staticImports(readFileSync(join(dist, file), 'utf8'))) files.add(`assets/${imported}`);
  return { inline: inline.join('\n'), files: [...files] };
}

export const gzipBytes = (content: string | Buffer): number => gzipSync(content, { level: FIRST_LOAD_GZIP_LEVEL }).length;

/** The budget's figure for the built site in `dist`: each file gzipped on its own, summed. */
export function firstLoadBytes(dist: string): number {
  const { inline, files } = firstLoadOf(dist);
  return files.reduce((sum, file) => sum + gzipBytes(readFileSync(join(dist, file))), gzipBytes(inline));
}
