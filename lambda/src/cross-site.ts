/**
 * Refusing cross-site posts: any page on another site could otherwise make its visitors'
 * browsers post the contact form (a classic form post needs no script and no CORS), each
 * browser a visitor of its own, so the visitor limit would not stop it. Browsers say where
 * a request comes from in two headers, which CloudFront forwards (core/src/api-origin.ts):
 *
 *   - `Sec-Fetch-Site` (every current browser): the site's own form posts and scripts send
 *     `same-origin`; anything else (`same-site`, `cross-site`, and `none`, which no POST has)
 *     is refused.
 *   - `Origin` (every browser, older ones too, on every POST, form posts included): refused
 *     unless its host is the host the viewer asked CloudFront for, which the API's
 *     CloudFront Function passes on as VIEWER_HOST_HEADER. `null` (an opaque origin: a
 *     sandboxed frame, a data: URL) is refused unless `Sec-Fetch-Site` vouches for it.
 *
 * A client that sends neither header is no browser (curl, a monitoring check) and cannot be
 * made to post by another site, so it keeps working. Pure: no I/O.
 */

/** What the function reads to decide; each undefined when the request did not carry it. */
export interface RequestSite {
  origin?: string;
  fetchSite?: string;
  /** The Host the viewer sent to CloudFront (or the local edge). */
  viewerHost?: string;
}

/** Which header showed the request came from another site. */
export type CrossSiteSignal = 'sec-fetch-site' | 'origin';

/** The URL of an origin, or undefined when it is not one. */
function parsed(url: string): URL | undefined {
  try {
    const result = new URL(url);
    return result.origin === 'null' ? undefined : result;
  } catch {
    return undefined;
  }
}

/** Whether `viewerHost` names the origin's host, read with the origin's scheme so a default port written out (`:443`) matches too. */
function isSameHost(origin: URL, viewerHost: string): boolean {
  return parsed(`${origin.protocol}//${viewerHost}`)?.host === origin.host;
}

/**
 * Why the request is refused as coming from another site, or undefined when it is not.
 * `originChecked` is false when an Origin could not be compared (no viewer host reached the
 * function, a misconfiguration): the request is then let through on Sec-Fetch-Site alone.
 */
export function crossSiteSignal(site: RequestSite): { signal?: CrossSiteSignal; originChecked: boolean } {
  const fetchSite = site.fetchSite?.trim().toLowerCase();
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return { signal: 'sec-fetch-site', originChecked: true };
  const origin = site.origin?.trim();
  if (origin === undefined) return { originChecked: true };
  if (origin.toLowerCase() === 'null')
    return fetchSite === 'same-origin' ? { originChecked: true } : { signal: 'origin', originChecked: true };
  const url = parsed(origin);
  if (url === undefined) return { signal: 'origin', originChecked: true };
  const viewerHost = site.viewerHost?.trim();
  if (!viewerHost) return { originChecked: false };
  return isSameHost(url, viewerHost) ? { originChecked: true } : { signal: 'origin', originChecked: true };
}
