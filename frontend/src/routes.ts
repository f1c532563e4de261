import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FORM_RESULT_PAGES, fieldNames, refusedFieldsPage, type ContactField, type FormResult } from '@site/core/contract';

/**
 * The pages a form post without scripts is sent on to, one per result; the check page also
 * once per combination of refused fields (`form-check/email-message`), which it names.
 */
export type FormResultRoute = `form-${FormResult}` | `form-check/${string}`;
export type Route = 'home' | 'privacy' | FormResultRoute | 'not-found';

/** The address of each page with a fixed name; the edge serves dist/<name>.html at /<name>. */
export const PATHS = {
  home: '/',
  privacy: '/privacy',
  'form-sent': FORM_RESULT_PAGES.sent,
  'form-crossSite': FORM_RESULT_PAGES.crossSite,
  'form-check': FORM_RESULT_PAGES.check,
  'form-failed': FORM_RESULT_PAGES.failed,
  'form-limited': FORM_RESULT_PAGES.limited,
  'form-busy': FORM_RESULT_PAGES.busy,
} as const satisfies Record<`form-${FormResult}` | 'home' | 'privacy', string>;

/** Every non-empty combination of the table's fields, each in the table's order: 2^n - 1 of them. */
function fieldCombinations(): ContactField[][] {
  const names = fieldNames(CONTACT_FIELDS);
  return Array.from({ length: 2 ** names.length - 1 }, (_, i) => names.filter((_, bit) => ((i + 1) >> bit) & 1));
}

/** The check page for each combination of refused fields, at the address the function sends it on to. */
const REFUSED_FIELD_PATHS = Object.fromEntries(
  fieldCombinations().map((fields) => [`form-check/${fields.join('-')}`, refusedFieldsPage(fields)]),
) as Record<`form-check/${string}`, string>;

/** Every prerendered page but the 404 page, by route. */
export const PAGE_PATHS: Readonly<Record<Exclude<Route, 'not-found'>, string>> = { ...PATHS, ...REFUSED_FIELD_PATHS };

export interface FormResultPage {
  result: FormResult;
  /** On a check page that names them: the refused fields, in the table's order. */
  refused?: readonly ContactField[];
}

export function formResultOf(route: Route): FormResultPage | undefined {
  if (!route.startsWith('form-')) return undefined;
  const [result, fields] = route.slice('form-'.length).split('/') as [FormResult, string | undefined];
  return fields === undefined ? { result } : { result, refused: fields.split('-') as ContactField[] };
}

/**
 * No router library: a fixed set of pages, and everything else is the 404 page. Like S3, the
 * edge also serves each page at its file name (/index.html, /privacy.html).
 */
export function routeFor(pathname: string): Route {
  if (pathname === PATHS.home || pathname === '/index.html') return 'home';
  for (const [route, path] of Object.entries(PAGE_PATHS) as [Exclude<Route, 'not-found'>, string][]) {
    if (route !== 'home' && (pathname === path || pathname === `${path}.html`)) return route;
  }
  return 'not-found';
}
