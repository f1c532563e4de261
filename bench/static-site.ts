/**
 * Other builds served exactly as the site is: the local edge with CloudFront's headers and
 * compression, on a free port. Used for the no-script baseline (so Lighthouse compares
 * content, not servers) and for the React-only page (so its bytes are compressed and its tasks timed as the site's are).
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
 * The limit for this content: the same prerendered HTML, CSS, fonts and images, with no
 * JavaScript. Whatever the site's LCP costs beyond this page is what its scripts cost.
 */
export function writeBaselineSite(distDir: string, outDir: string): { removed: number } {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} has no index.html: run \`npm run build\` first.`);
  rmSync(outDir, { recursive: true, force: true });
  cpSync(distDir, outDir, { recursive: true });
  const indexPath = join(outDir, 'index.html');
  const { html, removed } = stripScripts(readFileSync(indexPath, 'utf8'));
  writeFileSync(indexPath, html);
  return { removed };
}
