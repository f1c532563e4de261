/**
 * Other builds served exactly as the site is: the local edge with CloudFront's headers and
 * compression, on a free port. Used for the no-script and no-font pages (so Lighthouse
 * compares content, not servers) and for the React-only page (so its bytes are compressed and
 * its tasks timed as the site's are).
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TYPEFACE_ELEMENT_ID } from '@site/frontend/typeface';
import { startEdge } from '@site/local/edge';
import type { RunningServer } from '@site/emulators/servers';

export function startStaticSite(siteDir: string): Promise<RunningServer> {
  return startEdge({
    port: 0,
    siteDir,
    // These copies have no API; nothing on their pages calls it.
    handler: () => Promise.resolve({ statusCode: 404, body: '' }),
    functionName: 'none',
    functionTimeoutMs: 1000,
    originSecret: 'none: no function to prove anything to',
  });
}

/** Every `<script>` element (module entry, JSON-LD, anything) and every modulepreload link. */
const SCRIPT_ELEMENT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
const MODULEPRELOAD_LINK = /<link\b[^>]*\brel\s*=\s*["']?modulepreload\b[^>]*>/gi;

export function stripScripts(html: string): { html: string; removed: number } {
  let removed = 0;
  const out = html.replace(SCRIPT_ELEMENT, () => (removed++, '')).replace(MODULEPRELOAD_LINK, () => (removed++, ''));
  return { html: out, removed };
}

/**
 * Where the page names its web font: the typeface's data block, from which the loader takes
 * the family it loads at the first paint and sets the page in, and the stylesheet that sets
 * the page in it for a browser without script (frontend/build/typeface.ts). Without either,
 * the faces the stylesheet declares are used by no text and never fetched.
 */
const TYPEFACE_DATA = new RegExp(`<script\\b[^>]*\\bid="${TYPEFACE_ELEMENT_ID}"[^>]*>[\\s\\S]*?</script\\s*>`, 'gi');
const TYPEFACE_NOSCRIPT = /<noscript>\s*<link\b[^>]*\brel="stylesheet"[^>]*\/typeface-[^>]*>\s*<\/noscript>/gi;

export function stripTypeface(html: string): { html: string; removed: number } {
  let removed = 0;
  const out = html.replace(TYPEFACE_DATA, () => (removed++, '')).replace(TYPEFACE_NOSCRIPT, () => (removed++, ''));
  return { html: out, removed };
}

/** A copy of the build with its home page changed by `change`, which must remove something. */
function writeChangedSite(
  distDir: string,
  outDir: string,
  what: string,
  change: (html: string) => { html: string; removed: number },
): { removed: number } {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} has no index.html: run \`npm run build\` first.`);
  rmSync(outDir, { recursive: true, force: true });
  cpSync(distDir, outDir, { recursive: true });
  const indexPath = join(outDir, 'index.html');
  const { html, removed } = change(readFileSync(indexPath, 'utf8'));
  // A page the same as the site's would compare the site with itself and pass whatever it costs.
  if (removed === 0) throw new Error(`The built index.html has no ${what} to remove: the bench no longer knows how the page names it.`);
  writeFileSync(indexPath, html);
  return { removed };
}

/**
 * The limit for this content: the same prerendered HTML, CSS and images, with no JavaScript
 * (and so no web font: the loader sets the page in it). Whatever the site's LCP costs beyond this page is
 * what its scripts and its typeface cost.
 */
export function writeBaselineSite(distDir: string, outDir: string): { removed: number } {
  return writeChangedSite(distDir, outDir, 'script', stripScripts);
}

/**
 * The site as built, scripts and all, set in the fallback fonts only: what the first view
 * costs without the typeface, which its budgets (LCP, Speed Index, Performance) are set against.
 */
export function writeNoFontSite(distDir: string, outDir: string): { removed: number } {
  return writeChangedSite(distDir, outDir, 'typeface', stripTypeface);
}
