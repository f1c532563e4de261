/**
 * Cache-Control per kind of file: one definition for the S3 object metadata that the
 * BucketDeployment writes and for the local edge.
 */

import { FORM_ANSWER_STYLESHEET } from './contract';

export const CACHE_CONTROL = {
  /** Vite's content-hashed files never change under the same name. */
  hashedAsset: 'public, max-age=31536000, immutable',
  /** HTML must be revalidated so a deploy is seen at once. */
  html: 'no-cache',
  /**
   * Icons and the share picture: fixed names that browsers, home screens and other sites ask
   * for, which change only with the brand. Fresh for a day, then used for up to a week more
   * while revalidated in the background, so no visit waits for an icon.
   */
  image: 'public, max-age=86400, stale-while-revalidate=604800',
  /** robots.txt, sitemap.xml, the web manifest: small, unhashed, may change with a deploy. */
  other: 'public, max-age=3600',
} as const;

/** Vite puts every hashed file under this prefix. */
export const HASHED_ASSET_PREFIX = '/assets/';

const IMAGE = /\.(png|ico|svg)$/;

export function cacheControlFor(path: string): string {
  if (path.startsWith(HASHED_ASSET_PREFIX)) return CACHE_CONTROL.hashedAsset;
  // The stylesheet under a fixed name changes with a deploy as a page does.
  if (path === '/' || path.endsWith('.html') || path === FORM_ANSWER_STYLESHEET) return CACHE_CONTROL.html;
  if (IMAGE.test(path)) return CACHE_CONTROL.image;
  return CACHE_CONTROL.other;
}
