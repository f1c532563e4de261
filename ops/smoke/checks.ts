/**
 * What a working stage answers, as pure checks of one answer each: the page, its assets, the
 * 404s, and the API reached through CloudFront and around it. Expected values come from the
 * definitions the stack and the local edge serve (headers, Cache-Control, content, API
 * texts), so the check can never disagree with what was deployed. Every request here is
 * refused before anything is stored or e-mailed.
 */
import { contact, contactForm, notFound } from '@site/frontend/content';
import { API_PATH, REQUIRED_FIELDS } from '@site/core/contract';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { BRAND_FILES, SHARE_IMAGE } from '@site/frontend/brand';
import { CACHE_CONTROL, cacheControlFor, HASHED_ASSET_PREFIX } from '@site/core/cache-control';
import { hashedAssetPath } from '@site/lambda/outside-check';
import {
  contentSecurityPolicy,
  inlineScripts,
  scriptHash,
  securityHeadersFor,
  strictTransportSecurity,
} from '@site/core/node/security-headers';

/** An answer as the checks see it: header names in lower case, the body as text (and as bytes, for images). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  bytes?: Buffer;
}

export interface SmokeRequest {
  /** The site (through CloudFront) or the API's own address (around it). */
  target: 'site' | 'api';
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface SmokeCheck {
  name: string;
  request: SmokeRequest;
  /** What is wrong with the answer; empty when it is right. */
  verify(answer: Answer): string[];
}

/** Besides the policy, the header checks the brief names: HTTPS only, and no type sniffing. */
const EXPECTED_HEADERS = securityHeadersFor([]);
/** A stage may add its subdomains to HSTS (hstsIncludeSubdomains): either value is one the stack deploys. */
const ALLOWED_HSTS = [false, true].map((hstsIncludeSubdomains) => strictTransportSecurity({ hstsIncludeSubdomains }));

/** A text as React writes it into prerendered HTML. */
export function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

const shown = (value: string | undefined) =>
  value === undefined ? 'none' : JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);

function status(answer: Answer, expected: number): string[] {
  if (answer.status === expected) return [];
  const location = answer.headers.location ? ` to ${answer.headers.location}` : '';
  return [`status ${answer.status}${location}, expected ${expected}`];
}

function header(answer: Answer, name: string, expected: string): string[] {
  const value = answer.headers[name.toLowerCase()];
  return value === expected ? [] : [`${name} ${shown(value)}, expected ${shown(expected)}`];
}

/**
 * The deployed policy allows the build's inline scripts by hash, and this check may run from
 * another checkout than the one deployed: so the policy must be the shipped one with its own
 * hash list, and on a page every inline script must be among those hashes.
 */
function contentSecurityPolicyProblems(answer: Answer, page?: string): string[] {
  const value = answer.headers['content-security-policy'];
  const hashes = [...(value ?? '').matchAll(/'(sha256-[A-Za-z0-9+/]+={0,2})'/g)].map(([, hash]) => hash!);
  const expected = contentSecurityPolicy(hashes);
  if (value !== expected) return [`Content-Security-Policy ${shown(value)}, expected ${shown(expected)}`];
  const blocked =
    page === undefined
      ? []
      : inlineScripts(page)
          .map(scriptHash)
          .filter((hash) => !hashes.includes(hash));
  return blocked.length === 0 ? [] : [`Content-Security-Policy blocks the page's inline script ${blocked.join(', ')}`];
}

function securityHeaders(answer: Answer, page?: string): string[] {
  return [
    ...contentSecurityPolicyProblems(answer, page),
    ...(ALLOWED_HSTS.includes(answer.headers['strict-transport-security'] ?? '')
      ? []
      : header(answer, 'Strict-Transport-Security', EXPECTED_HEADERS['Strict-Transport-Security']!)),
    ...header(answer, 'X-Content-Type-Options', EXPECTED_HEADERS['X-Content-Type-Options']!),
  ];
}

function mediaType(answer: Answer, expected: string): string[] {
  const value = answer.headers['content-type'];
  return value?.split(';')[0]?.trim().toLowerCase() === expected ? [] : [`Content-Type ${shown(value)}, expected ${expected}`];
}

/** Every space as a plain one: the site keeps the last words of headings and texts together with a no-break space. */
const asRead = (text: string) => text.replace(/\s/g, ' ');

function containsTexts(answer: Answer, what: string, texts: readonly string[]): string[] {
  const body = asRead(answer.body);
  const missing = texts.filter((text) => !body.includes(asRead(htmlEscaped(text))));
  return missing.length === 0 ? [] : [`${what} without ${missing.map((text) => JSON.stringify(text)).join(', ')}`];
}

function json(answer: Answer): { value?: Record<string, unknown>; problems: string[] } {
  try {
    const value: unknown = JSON.parse(answer.body);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { value: value as Record<string, unknown>, problems: [] };
  } catch {
    // Reported below, with what came instead.
  }
  return { problems: [`body is not a JSON object: ${shown(answer.body)}`] };
}

function errorText(answer: Answer, expected: string): string[] {
  const { value, problems } = json(answer);
  if (!value) return problems;
  return value.error === expected ? [] : [`error ${shown(String(value.error))}, expected ${shown(expected)}`];
}

/** The first hashed asset the page loads (script or stylesheet), to check its caching: the outside check's own choice. */
export { hashedAssetPath };

/** A path no build will ever have, different per run so no cache can answer it. */
const unknownName = (run: string) => `smoke-check-${run}`;

/** JSON that fails validation: no field at all. Nothing is stored for it, and it counts against no visitor limit. */
const INVALID_MESSAGE = '{}';

export const homeCheck: SmokeCheck = {
  name: 'home page',
  request: { target: 'site', method: 'GET', path: '/' },
  verify: (answer) => [
    ...status(answer, 200),
    ...mediaType(answer, 'text/html'),
    ...(answer.body.includes('<html lang="nl"') ? [] : ['not a Dutch page (no <html lang="nl">)']),
    ...containsTexts(answer, 'not prerendered: page', [contact.headline, contactForm.title, contactForm.submit]),
    ...securityHeaders(answer, answer.body),
    ...header(answer, 'Cache-Control', CACHE_CONTROL.html),
    ...(hashedAssetPath(answer.body) ? [] : [`page loads nothing from ${HASHED_ASSET_PREFIX}`]),
  ],
};

export function hashedAssetCheck(path: string | undefined): SmokeCheck {
  return {
    name: 'hashed asset',
    request: { target: 'site', method: 'GET', path: path ?? HASHED_ASSET_PREFIX },
    verify: (answer) =>
      path === undefined
        ? [`no ${HASHED_ASSET_PREFIX} file found on the home page to check`]
        : [...status(answer, 200), ...securityHeaders(answer), ...header(answer, 'Cache-Control', CACHE_CONTROL.hashedAsset)],
  };
}

export function unknownPageCheck(run: string): SmokeCheck {
  return {
    name: 'unknown page',
    request: { target: 'site', method: 'GET', path: `/${unknownName(run)}` },
    verify: (answer) => [
      ...status(answer, 404),
      ...mediaType(answer, 'text/html'),
      ...containsTexts(answer, 'not the 404 page:', [notFound.headline, notFound.text]),
      ...securityHeaders(answer),
    ],
  };
}

export function missingAssetCheck(run: string): SmokeCheck {
  return {
    name: 'missing asset',
    request: { target: 'site', method: 'GET', path: `${HASHED_ASSET_PREFIX}${unknownName(run)}.js` },
    // S3 answers 403 instead when the distribution may not list the bucket.
    verify: (answer) => status(answer, 404),
  };
}

export const invalidMessageCheck: SmokeCheck = {
  name: 'API through CloudFront',
  request: { target: 'site', method: 'POST', path: API_PATH, headers: { 'Content-Type': 'application/json' }, body: INVALID_MESSAGE },
  verify: (answer) => {
    const problems = [...status(answer, 400), ...mediaType(answer, 'application/json'), ...errorText(answer, ERROR_TEXT.invalidFields)];
    const fields = json(answer).value?.fields as Record<string, unknown> | undefined;
    const unexplained = REQUIRED_FIELDS.filter((field) => typeof fields?.[field] !== 'string' || fields[field] === '');
    if (unexplained.length > 0) problems.push(`no Dutch message for ${unexplained.join(', ')}`);
    return problems;
  },
};

export const wrongMethodCheck: SmokeCheck = {
  name: 'API method',
  request: { target: 'site', method: 'GET', path: API_PATH },
  verify: (answer) => [...status(answer, 405), ...header(answer, 'Allow', 'POST')],
};

export const directCallCheck: SmokeCheck = {
  name: 'API around CloudFront',
  request: { target: 'api', method: 'POST', path: API_PATH, headers: { 'Content-Type': 'application/json' }, body: INVALID_MESSAGE },
  verify: (answer) => [...status(answer, 403), ...mediaType(answer, 'application/json'), ...errorText(answer, ERROR_TEXT.notThroughSite)],
};

/** The value of `attribute` on the first `tag` of the page whose `key` attribute is `value`. */
function headAttribute(html: string, tag: 'meta' | 'link', key: string, value: string, attribute: string): string | undefined {
  for (const [element] of html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'gi'))) {
    if (new RegExp(`\\s${key}="${value}"`).test(element)) return new RegExp(`\\s${attribute}="([^"]*)"`).exec(element)?.[1];
  }
  return undefined;
}

/** The path of a URL the page names, on whatever host it names (the public origin may not be the one checked). */
function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url, 'https://site.invalid').pathname;
  } catch {
    return undefined;
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of exactly `width` × `height` pixels (its IHDR chunk, which always comes first). */
function pngOfSize(width: number, height: number): (bytes: Buffer) => string[] {
  return (bytes) => {
    if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return ['not a PNG'];
    const [w, h] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    return w === width && h === height ? [] : [`${w} × ${h} pixels, expected ${width} × ${height}`];
  };
}

/** An ICO file (reserved 0, type 1) with at least one image. */
function icoFile(bytes: Buffer): string[] {
  return bytes.length >= 6 && bytes.readUInt16LE(0) === 0 && bytes.readUInt16LE(2) === 1 && bytes.readUInt16LE(4) > 0
    ? []
    : ['not an ICO file'];
}

/** A web manifest with a name and icons, whose theme colour is the page's. */
function manifestFor(themeColor: string | undefined): (bytes: Buffer) => string[] {
  return (bytes) => {
    let manifest: { name?: unknown; icons?: unknown; theme_color?: unknown };
    try {
      manifest = JSON.parse(bytes.toString('utf8')) as typeof manifest;
    } catch {
      return ['not JSON'];
    }
    return [
      ...(typeof manifest.name === 'string' && manifest.name !== '' ? [] : ['no name']),
      ...(Array.isArray(manifest.icons) && manifest.icons.length > 0 ? [] : ['no icons']),
      ...(manifest.theme_color === themeColor
        ? []
        : [`theme_color ${shown(String(manifest.theme_color))}, expected the page's ${shown(themeColor)}`]),
    ];
  };
}

function brandFileCheck(
  name: string,
  path: string | undefined,
  mediaTypes: readonly string[],
  content: (bytes: Buffer) => string[],
): SmokeCheck {
  return {
    name,
    request: { target: 'site', method: 'GET', path: path ?? '/' },
    verify: (answer) => {
      if (path === undefined) return ['the home page does not name it'];
      const type = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      return [
        ...status(answer, 200),
        ...(type !== undefined && mediaTypes.includes(type) ? [] : [`Content-Type ${shown(type)}, expected ${mediaTypes.join(' or ')}`]),
        ...header(answer, 'Cache-Control', cacheControlFor(path)),
        ...(answer.status === 200 ? content(answer.bytes ?? Buffer.from(answer.body)) : []),
      ];
    },
  };
}

/**
 * What a shared link, a home-screen bookmark and a browser without SVG icons fetch: the files
 * the home page's head names, and /favicon.ico, which browsers ask for by name.
 */
export function brandFileChecks(home: string): SmokeCheck[] {
  const shareImage = pathOf(headAttribute(home, 'meta', 'property', 'og:image', 'content'));
  const twitterImage = pathOf(headAttribute(home, 'meta', 'name', 'twitter:image', 'content'));
  const themeColor = headAttribute(home, 'meta', 'name', 'theme-color', 'content');
  return [
    brandFileCheck(
      'share picture',
      shareImage !== undefined && shareImage === twitterImage ? shareImage : undefined,
      ['image/png'],
      pngOfSize(SHARE_IMAGE.width, SHARE_IMAGE.height),
    ),
    brandFileCheck(
      'touch icon',
      pathOf(headAttribute(home, 'link', 'rel', 'apple-touch-icon', 'href')),
      ['image/png'],
      pngOfSize(180, 180),
    ),
    brandFileCheck('favicon.ico', BRAND_FILES.faviconIco, ['image/x-icon', 'image/vnd.microsoft.icon'], icoFile),
    brandFileCheck(
      'web manifest',
      pathOf(headAttribute(home, 'link', 'rel', 'manifest', 'href')),
      ['application/manifest+json'],
      manifestFor(themeColor),
    ),
  ];
}
