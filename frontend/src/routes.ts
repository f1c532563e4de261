import { FORM_RESULT_PAGES, type FormResult } from '@site/core/contract';

/** The pages a form post without scripts is sent on to, one per result. */
export type FormResultRoute = `form-${FormResult}`;
export type Route = 'home' | 'privacy' | FormResultRoute | 'not-found';

/** The address of each page; the edge serves dist/<name>.html at /<name>. */
export const PATHS = {
  home: '/',
  privacy: '/privacy',
  'form-sent': FORM_RESULT_PAGES.sent,
  'form-crossSite': FORM_RESULT_PAGES.crossSite,
  'form-check': FORM_RESULT_PAGES.check,
  'form-failed': FORM_RESULT_PAGES.failed,
} as const satisfies Record<Exclude<Route, 'not-found'>, string>;

export function formResultOf(route: Route): FormResult | undefined {
  return route.startsWith('form-') ? (route.slice('form-'.length) as FormResult) : undefined;
}

/**
 * No router library: a fixed set of pages, and everything else is the 404 page. Like S3, the
 * edge also serves each page at its file name (/index.html, /privacy.html).
 */
export function routeFor(pathname: string): Route {
  if (pathname === PATHS.home || pathname === '/index.html') return 'home';
  for (const [route, path] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
    if (route !== 'home' && (pathname === path || pathname === `${path}.html`)) return route;
  }
  return 'not-found';
}
