/**
 * The response headers every page and asset is served with: one definition for the
 * CloudFront response headers policy and the local edge, so what is tested locally is
 * what ships.
 */

/**
 * Only what the site needs: its own scripts, styles, images and API. No 'unsafe-inline':
 * the prerendered HTML carries no inline script or style attribute (JSON-LD is a data block,
 * which CSP does not execute or block).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
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

export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Only features Chromium recognises, so the header itself causes no console warnings. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Every security header by its HTTP name. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': REFERRER_POLICY,
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
};
