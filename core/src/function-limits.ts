/**
 * Limits of the API path that the local edge must reproduce to behave like AWS: one
 * definition for the CDK function and the local stand-in.
 */

/** The function's timeout; the SDK calls inside it time out well before this. */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/**
 * How long API Gateway waits for the function before it answers 503 itself, written on the
 * integration (AWS::ApiGatewayV2::Integration, TimeoutInMillis) so the stack and the local
 * edge cannot disagree: the most the CDK's HTTP integration takes (HTTP API itself allows 30
 * s, its default). The function's own timeout is shorter, so it is the one that ends a call
 * that runs too long (API Gateway then answers 500).
 */
export const API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS = 29;

/** API Gateway refuses larger payloads itself (HTTP API's hard limit), before the function runs. */
export const API_GATEWAY_MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * The most a function's bundle may weigh (bytes, as `npm run bench` and the stack's test both
 * count it): every byte is read and compiled on each cold start. 420 KB since the page of held
 * messages joined the contact function (decision 0049).
 */
export const FUNCTION_BUNDLE_MAX_BYTES = 420_000;
