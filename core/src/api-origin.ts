/**
 * What CloudFront passes on to the API: one definition for the origin request policy of
 * `/api/*`, the local edge and the contact function, so the function sees the same headers
 * behind both.
 */
import { HELD_LINK_PARAMETER, IDEMPOTENCY_HEADER } from './contract';
import { OUTSIDE_CHECK_HEADER } from './outside-check';

/**
 * The custom origin header with the origin secret, which proves the request came through
 * CloudFront: nothing else knows its value.
 */
export const ORIGIN_VERIFY_HEADER = 'X-Origin-Verify';

/** `ip:port` of the viewer's connection, added by CloudFront when the origin request policy lists it. */
export const VIEWER_ADDRESS_HEADER = 'CloudFront-Viewer-Address';

/**
 * The Host the viewer asked for, under a name of our own: API Gateway needs Host to be its
 * own name, so the API behaviour's CloudFront Function (infra/lib/edge/api-request.js) copies
 * the viewer's Host here, over anything the viewer sent under this name. The function compares
 * a browser's Origin with it (lambda/src/contact/cross-site.ts).
 */
export const VIEWER_HOST_HEADER = 'X-Viewer-Host';

/**
 * The scheme the viewer used, `https` or `http`, added by CloudFront when the origin request
 * policy lists it: always `https` in AWS (the /api/* behaviour takes HTTPS only), `http` from
 * the local edge, which serves plain HTTP. The function compares a browser's Origin with it.
 */
export const VIEWER_SCHEME_HEADER = 'CloudFront-Forwarded-Proto';

/**
 * Where a browser says a request comes from: the page's origin, whether it is this site, and
 * (older browsers, which send no Origin on a form post) the page's address.
 */
export const ORIGIN_HEADER = 'Origin';
export const FETCH_SITE_HEADER = 'Sec-Fetch-Site';
export const REFERER_HEADER = 'Referer';

/**
 * The viewer's request headers the function reads, after the API's CloudFront Function ran.
 * Not Host: API Gateway answers only to its own name. A header the function starts reading
 * must be added here, or CloudFront drops it. The outside check's marker is one: without it
 * the check's post would reach the function as a visitor's message.
 */
export const API_VIEWER_HEADERS = [
  'Content-Type',
  IDEMPOTENCY_HEADER,
  ORIGIN_HEADER,
  FETCH_SITE_HEADER,
  REFERER_HEADER,
  VIEWER_HOST_HEADER,
  OUTSIDE_CHECK_HEADER,
] as const;

/**
 * Headers CloudFront itself adds when the policy lists them: the viewer's `ip:port` for the
 * visitor limit, and the scheme it used for the cross-site check.
 */
export const API_CLOUDFRONT_HEADERS = [VIEWER_ADDRESS_HEADER, VIEWER_SCHEME_HEADER] as const;

/**
 * The only query parameter CloudFront passes on to the API: the signed token of the digest's
 * link to the page of held messages (decision 0048). Any other is dropped at the edge.
 */
export const API_QUERY_PARAMETERS = [HELD_LINK_PARAMETER] as const;
