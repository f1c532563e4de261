/**
 * Cache-Control per kind of file: one definition for the S3 object metadata that the
 * BucketDeployment writes and for the local edge.
 */

export const CACHE_CONTROL = {
  /** Vite's content-hashed files never change under the same name. */
  hashedAsset: 'public, max-age=31536000, immutable',
  /** HTML must be revalidated so a deploy is seen at once. */
  html: 'no-cache',
  /** robots.txt, sitemap.xml, favicon: small, unhashed, may change with a deploy. */
  other: 'public, max-age=3600',
} as const;

/** Vite puts every hashed file under this prefix. */
export const HASHED_ASSET_PREFIX = '/assets/';

export function cacheControlFor(path: string): string {
  if (path.startsWith(HASHED_ASSET_PREFIX)) return CACHE_CONTROL.hashedAsset;
  if (path === '/' || path.endsWith('.html')) return CACHE_CONTROL.html;
  return CACHE_CONTROL.other;
}
