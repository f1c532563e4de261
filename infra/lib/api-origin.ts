/**
 * What CloudFront passes on to the API: one definition for the origin request policy of
 * `/api/*` and for the local edge, so the function sees the same headers in both.
 */
import { IDEMPOTENCY_HEADER } from '@site/lambda/contract';
import { ORIGIN_VERIFY_HEADER } from '@site/lambda/origin-verify';
import { VIEWER_ADDRESS_HEADER } from '@site/lambda/visitor-limit';

/**
 * The viewer's request headers the function reads. Not Host: API Gateway answers only to its
 * own name. A header the function starts reading must be added here, or CloudFront drops it.
 */
export const API_VIEWER_HEADERS = ['Content-Type', IDEMPOTENCY_HEADER] as const;

/** Headers CloudFront itself adds when the policy lists them: the viewer's `ip:port` for the visitor limit. */
export const API_CLOUDFRONT_HEADERS = [VIEWER_ADDRESS_HEADER] as const;

/** The custom origin header with the origin secret, which proves the request came through CloudFront. */
export { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER };
