/**
 * What CloudFront passes on to the API: one definition for the origin request policy of
 * `/api/*`, the local edge and the contact function, so the function sees the same headers
 * behind both.
 */
import { IDEMPOTENCY_HEADER } from './contract';

/**
 * The custom origin header with the origin secret, which proves the request came through
 * CloudFront: nothing else knows its value.
 */
export const ORIGIN_VERIFY_HEADER = 'X-Origin-Verify';

/** `ip:port` of the viewer's connection, added by CloudFront when the origin request policy lists it. */
export const VIEWER_ADDRESS_HEADER = 'CloudFront-Viewer-Address';

/**
 * The viewer's request headers the function reads. Not Host: API Gateway answers only to its
 * own name. A header the function starts reading must be added here, or CloudFront drops it.
 */
export const API_VIEWER_HEADERS = ['Content-Type', IDEMPOTENCY_HEADER] as const;

/** Headers CloudFront itself adds when the policy lists them: the viewer's `ip:port` for the visitor limit. */
export const API_CLOUDFRONT_HEADERS = [VIEWER_ADDRESS_HEADER] as const;
