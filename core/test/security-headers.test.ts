/**
 * The CSP built from the site: every inline script a browser would run is allowed by its
 * hash, nothing else is, and the hash is the one browsers compute.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  inlineScripts,
  scriptHash,
  securityHeaders,
  siteInlineScriptHashes,
} from '@site/core/node/security-headers';

/** A site of these pages only (core stands below the test support's site fixture). */
function siteOf(pages: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'csp-site-'));
  for (const [name, html] of Object.entries(pages)) writeFileSync(join(dir, name), html);
  return dir;
}

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

describe('inlineScripts', () => {
  it('finds the scripts a browser runs, and skips data blocks and scripts with a src', () => {
    const html = [
      '<script type="application/ld+json">{"@type":"Organization"}</script>',
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<script data-entry="/assets/index-1.js">import(document.currentScript.dataset.entry)</script>',
      '<script type="module">console.log(1)</script>',
      "<SCRIPT TYPE='text/javascript'>x()</SCRIPT>",
      '<script data-type="application/ld+json">y()</script>',
    ].join('\n');
    expect(inlineScripts(html)).toEqual(['import(document.currentScript.dataset.entry)', 'console.log(1)', 'x()', 'y()']);
  });
});

describe('scriptHash', () => {
  it('is the SHA-256 of the text in UTF-8, base64, as CSP hash sources are', () => {
    // Computed independently (echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64).
    expect(scriptHash('alert(1)')).toBe('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=');
    expect(scriptHash('€')).toBe(sha256('€'));
  });
});

describe('the CSP for a built site', () => {
  it("allows each inline script of the site's pages once, by its hash, and never 'unsafe-inline'", () => {
    const siteDir = siteOf({
      'robots.txt': 'User-agent: *',
      'index.html': '<script>a()</script><script type="application/ld+json">{}</script><p>Welkom</p>',
      '404.html': '<script>a()</script><p>Oops! Page not found</p>',
      'privacy.html': '<script>b()</script>',
    });
    const hashes = siteInlineScriptHashes(siteDir);
    expect(hashes).toEqual([sha256('a()'), sha256('b()')].sort());
    const csp = securityHeaders(siteDir)['Content-Security-Policy']!;
    expect(csp).toBe(contentSecurityPolicy(hashes));
    expect(csp.split('; ')).toContain(`script-src 'self' '${hashes[0]}' '${hashes[1]}'`);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('allows no inline script at all for a site without any', () => {
    const siteDir = siteOf({ 'index.html': '<p>Welkom</p>', '404.html': '<p>Oops</p>' });
    expect(securityHeaders(siteDir)['Content-Security-Policy']!.split('; ')).toContain("script-src 'self'");
  });
});
