/**
 * Settings shared by the DynamoDB and SES clients. The function has 10 s; one stuck call
 * must fail fast enough that the handler can still answer (503, or 200 with the e-mail
 * deferred) instead of being killed by Lambda with the visitor left waiting.
 * Endpoints and region come from the SDK's own environment variables (AWS_REGION,
 * AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_SES), so the code is the same everywhere.
 */
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { SESClientConfig } from '@aws-sdk/client-ses';

export const AWS_CLIENT_OPTIONS = {
  // One retry absorbs a dropped connection; more would not fit in the function's time.
  maxAttempts: 2,
  // The SDK builds its NodeHttpHandler from these options.
  requestHandler: {
    connectionTimeout: 1_000,
    requestTimeout: 2_000,
    // Without this a request past requestTimeout only logs a warning and keeps waiting.
    throwOnRequestTimeout: true,
  },
} satisfies DynamoDBClientConfig & SESClientConfig;

/**
 * SES sends are not idempotent: a request that timed out may still be delivered, and the
 * SDK's retry would then send a second copy. One attempt with more time instead; a message
 * SES did not accept stays 'received' and the retry job is its retry path.
 */
export const SES_CLIENT_OPTIONS = {
  ...AWS_CLIENT_OPTIONS,
  maxAttempts: 1,
  requestHandler: { ...AWS_CLIENT_OPTIONS.requestHandler, requestTimeout: 3_000 },
} satisfies SESClientConfig;
