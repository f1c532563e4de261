/**
 * The response headers every page and asset is served with: one definition for the
 * CloudFront response headers policy and the local edge, so what is tested locally is
 * what ships. Both build them from the same built site with securityHeaders(siteDir): the
 * stack at synth, the local edge at start.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSiteFiles } from './site-files';

/**
 * Only what the site needs: its own scripts, styles, images and API. No 'unsafe-inline':
 * the inline scripts the build puts in its pages (the app's loader) are allowed one by one
 * by their SHA-256 hash, and the pages carry no style attribute. JSON-LD is a data block,
 * which CSP does not execute or block, so it needs no hash.
 */
export function contentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes.map((hash) => `'${hash}'`)].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `<script …>text</script>`: its attributes and its text, which is what a CSP hash covers. */
const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** The types a browser runs as script; anything else (application/ld+json) is a data block. */
const SCRIPT_TYPE = /^\s*(|module|text\/javascript|application\/javascript)\s*$/i;

/** The text of every inline script in an HTML page that the browser would run. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(SCRIPT_ELEMENT)]
    .filter(([, attributes]) => !/(?:^|\s)src\s*=/i.test(attributes!))
    .filter(([, attributes]) => SCRIPT_TYPE.test(/(?:^|\s)type\s*=\s*["']?([^"'\s>]*)/i.exec(attributes!)?.[1] ?? ''))
    .map(([, , text]) => text!);
}

/** A CSP hash source without its quotes, as browsers compute it over the script's text in UTF-8. */
export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** The hashes of the inline scripts of every page in the built site, each once, sorted. */
export function siteInlineScriptHashes(siteDir: string): string[] {
  const pages = listSiteFiles(siteDir).filter((path) => path.endsWith('.html'));
  const hashes = pages.flatMap((path) => inlineScripts(readFileSync(join(siteDir, ...path.split('/')), 'utf8')).map(scriptHash));
  return [...new Set(hashes)].sort();
}

export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Only features Chromium recognises, so the header itself causes no console warnings. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

export interface SecurityHeaderOptions {
  /**
   * HSTS for every subdomain too. Off unless the deploy asks for it (hstsIncludeSubdomains):
   * on an apex domain it would force HTTPS for a year on every host of the firm's domain,
   * including ones this stack does not serve (an intranet, a mail web client, a shop).
   */
  hstsIncludeSubdomains?: boolean;
}

/** The Strict-Transport-Security value: a year of HTTPS for this host, and its subdomains when asked. */
export function strictTransportSecurity({ hstsIncludeSubdomains = false }: SecurityHeaderOptions = {}): string {
  return `max-age=${HSTS_MAX_AGE_SECONDS}${hstsIncludeSubdomains ? '; includeSubDomains' : ''}`;
}

/** Every security header by its HTTP name, for a site whose pages carry these inline scripts. */
export function securityHeadersFor(
  inlineScriptHashes: readonly string[],
  options: SecurityHeaderOptions = {},
): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(inlineScriptHashes),
    'Strict-Transport-Security': strictTransportSecurity(options),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': REFERRER_POLICY,
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** Every security header for the built site in `siteDir`: its CSP allows exactly the inline scripts its pages carry. */
export function securityHeaders(siteDir: string, options: SecurityHeaderOptions = {}): Readonly<Record<string, string>> {
  return securityHeadersFor(siteInlineScriptHashes(siteDir), options);
}
