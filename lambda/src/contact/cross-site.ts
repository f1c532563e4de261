/**
 * Refusing cross-site posts: any page on another site could otherwise make its visitors'
 * browsers post the contact form (a classic form post needs no script and no CORS), each
 * browser a visitor of its own, so the visitor limit would not stop it. Browsers say where
 * a request comes from in three headers, which CloudFront forwards (core/src/api-origin.ts):
 *
 *   - `Sec-Fetch-Site` (every current browser): the site's own form posts and scripts send
 *     `same-origin`; anything else (`same-site`, `cross-site`, and `none`, which no POST has)
 *     is refused.
 *   - `Origin` (every browser, older ones too, on every POST, form posts included): refused
 *     unless it is the origin the viewer asked CloudFront for, scheme, host and port: the
 *     host the API's CloudFront Function passes on as VIEWER_HOST_HEADER, the scheme
 *     CloudFront reports in VIEWER_SCHEME_HEADER. `null` (an opaque origin: a sandboxed frame,
 *     a data: URL) is refused unless `Sec-Fetch-Site` vouches for it.
 *   - `Referer`, read only when neither of the others came: browsers old enough to send no
 *     Origin on a form post still send the page's address there. Another site's page, or an
 *     address that is none, is refused; the site's own page is fine.
 *
 * The viewer's host and scheme come from CloudFront; a request that carries an Origin or a
 * Referer without them (the API's CloudFront Function or the origin request policy missing)
 * cannot be judged and is refused, rather than let through for anyone to claim. A client that
 * sends none of the three is no browser (curl, a monitoring check) and cannot be made to post
 * by another site, so it keeps working. The same holds for GET /api/challenge (challenge.ts),
 * which another site's page could otherwise load as an image in its visitors' browsers.
 * Pure: no I/O.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { FETCH_SITE_HEADER, ORIGIN_HEADER, REFERER_HEADER, VIEWER_HOST_HEADER, VIEWER_SCHEME_HEADER } from '@site/core/api-origin';
import { headerValue } from './http';

/** What the function reads to decide; each undefined when the request did not carry it. */
export interface RequestSite {
  origin?: string;
  fetchSite?: string;
  referer?: string;
  /** The Host the viewer sent to CloudFront (or the local edge). */
  viewerHost?: string;
  /** The scheme the viewer used: `https` behind CloudFront, `http` from the local edge. */
  viewerScheme?: string;
}

/**
 * Why a request is refused as coming from another site: the header that showed it, or
 * `no-viewer` when an Origin or a Referer came without the viewer's host and scheme to compare
 * it with (a CloudFront misconfiguration, or a forged request that dropped them).
 */
export type CrossSiteSignal = 'sec-fetch-site' | 'origin' | 'referer' | 'no-viewer';

/** The URL of an address, or undefined when it is none (or an opaque origin). */
function parsed(url: string): URL | undefined {
  try {
    const result = new URL(url);
    return result.origin === 'null' ? undefined : result;
  } catch {
    return undefined;
  }
}

/** The origin the viewer asked for (`https://www.example.nl`), or undefined when CloudFront did not say. */
function viewerOrigin(site: RequestSite): string | undefined {
  const host = site.viewerHost?.trim();
  const scheme = site.viewerScheme?.trim().toLowerCase();
  if (!host || (scheme !== 'http' && scheme !== 'https')) return undefined;
  // Read as a URL, so a default port written out (`:443`) is the same origin as none.
  return parsed(`${scheme}://${host}`)?.origin;
}

/** Why the request is refused as coming from another site, or undefined when it is not. */
export function crossSiteSignal(site: RequestSite): CrossSiteSignal | undefined {
  const fetchSite = site.fetchSite?.trim().toLowerCase();
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return 'sec-fetch-site';
  const origin = site.origin?.trim();
  if (origin !== undefined) {
    if (origin.toLowerCase() === 'null') return fetchSite === 'same-origin' ? undefined : 'origin';
    return sameOrigin(origin, site, 'origin');
  }
  // A browser that sent Sec-Fetch-Site said where the post comes from; a Referer adds nothing.
  const referer = site.referer?.trim();
  if (fetchSite !== undefined || !referer) return undefined;
  return sameOrigin(referer, site, 'referer');
}

/** Undefined when `address` is on the origin the viewer asked for; else why not. */
function sameOrigin(address: string, site: RequestSite, header: 'origin' | 'referer'): CrossSiteSignal | undefined {
  const url = parsed(address);
  if (url === undefined) return header;
  const own = viewerOrigin(site);
  if (own === undefined) return 'no-viewer';
  return url.origin === own ? undefined : header;
}

/** Why the request is refused as coming from another site, read from its headers; undefined when it is not. */
export function crossSiteOf(event: APIGatewayProxyEventV2): CrossSiteSignal | undefined {
  return crossSiteSignal({
    origin: headerValue(event.headers, ORIGIN_HEADER),
    fetchSite: headerValue(event.headers, FETCH_SITE_HEADER),
    referer: headerValue(event.headers, REFERER_HEADER),
    viewerHost: headerValue(event.headers, VIEWER_HOST_HEADER),
    viewerScheme: headerValue(event.headers, VIEWER_SCHEME_HEADER),
  });
}
