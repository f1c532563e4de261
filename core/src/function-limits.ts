/**
 * Limits of the API path that the local edge must reproduce to behave like AWS: one
 * definition for the CDK function and the local stand-in.
 */

/** The function's timeout; the SDK calls inside it time out well before this. */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** API Gateway refuses larger payloads itself (HTTP API's hard limit), before the function runs. */
export const API_GATEWAY_MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
