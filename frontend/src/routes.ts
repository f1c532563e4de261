export type Route = 'home' | 'privacy' | 'not-found';

/** The address of each page; the edge serves dist/<name>.html at /<name>. */
export const PATHS = { home: '/', privacy: '/privacy' } as const;

/**
 * No router library: a fixed set of pages, and everything else is the 404 page. Like S3, the
 * edge also serves each page at its file name (/index.html, /privacy.html).
 */
export function routeFor(pathname: string): Route {
  if (pathname === PATHS.home || pathname === '/index.html') return 'home';
  if (pathname === PATHS.privacy || pathname === `${PATHS.privacy}.html`) return 'privacy';
  return 'not-found';
}
