import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify, transformWithOxc, type Plugin } from 'vite';

const LOADER_SOURCE = join(import.meta.dirname, '..', 'src', 'loader.ts');

/** The module script Vite writes for the entry: the only script tag of the built index.html. */
const ENTRY_TAG = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/g;

/** src/loader.ts as the browser runs it: types stripped, minified. */
export async function loaderScript(): Promise<string> {
  const { code } = await transformWithOxc(await readFile(LOADER_SOURCE, 'utf8'), LOADER_SOURCE, { target: 'es2020' });
  const minified = await minify('loader.js', code, { compress: true, mangle: true });
  if (minified.errors.length > 0) throw new Error(`src/loader.ts: ${minified.errors.map((error) => error.message).join('; ')}`);
  return minified.code.trim();
}

/**
 * Replaces the entry's module script with the inline loader (src/loader.ts), which imports
 * the entry only after the first paint. A module script, even a deferred low-priority one,
 * is requested while the page is still loading; Lighthouse counts every request begun before
 * the largest paint towards it. The entry's address goes in data-entry, so the loader's text,
 * and with it the CSP hash, stays the same from build to build.
 */
export function inlineLoader(): Plugin {
  return {
    name: 'inline-loader',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const tags = [...html.matchAll(ENTRY_TAG)];
        if (tags.length !== 1) throw new Error(`Expected one entry module script in index.html, found ${tags.length}.`);
        const [tag, entry] = tags[0]!;
        const loader = await loaderScript();
        return html.replace(tag, () => `<script data-entry="${entry}">${loader}</script>`);
      },
    },
  };
}
