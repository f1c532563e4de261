/**
 * A tiny site build with the shape of frontend/dist (pages and small files at the top,
 * hashed files under assets/), for tests of whatever serves or deploys a build, so they do
 * not depend on the site's content. One fixture for the local edge and the CDK stack.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The inline script every page carries, as the build's loader does; the CSP must allow it by its hash. */
export const SITE_INLINE_SCRIPT = 'import(document.currentScript.dataset.entry)';
const loader = `<script data-entry="/assets/index-Ab12Cd34.js">${SITE_INLINE_SCRIPT}</script>`;

/** URL path → content. The script is large enough for the edge to compress it. */
export const SITE_FILES: Readonly<Record<string, string>> = {
  '/index.html': `<!doctype html><html lang="nl"><title>Home</title>${loader}<p>Welkom</p></html>`,
  '/404.html': `<!doctype html><html lang="nl"><title>Oops! Page not found</title>${loader}<p>Oops! Page not found</p></html>`,
  '/privacy.html': `<!doctype html><html lang="nl"><title>Privacy</title>${loader}<p>Privacyverklaring</p></html>`,
  '/robots.txt': 'User-agent: *\nAllow: /\n',
  '/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  '/assets/index-Ab12Cd34.js': `export const text = ${JSON.stringify('x'.repeat(4000))};`,
  '/assets/index-Ef56Gh78.css': 'body{margin:0}',
  // A font's first bytes: a hashed file no page names, which the edge serves as it is.
  '/assets/inter-latin-wght-normal-Ij90Kl12.woff2': 'wOF2',
};

/** Writes `files` into a new temporary directory and returns its path. */
export function makeSiteDir(files: Readonly<Record<string, string>> = SITE_FILES): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-dist-'));
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, ...path.split('/').filter(Boolean));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}
