export type Route = 'home' | 'not-found';

/**
 * No router library: the site has one page, and everything else is the 404 page. The edge
 * serves the page at / and, like S3, also at /index.html.
 */
export function routeFor(pathname: string): Route {
  return pathname === '/' || pathname === '/index.html' ? 'home' : 'not-found';
}
