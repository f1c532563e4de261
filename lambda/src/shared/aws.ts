/**
 * The DynamoDB and SES clients the functions use, and their settings. The function has 10 s;
 * one stuck call must fail fast enough that the handler can still answer (503, or 200 with
 * the e-mail deferred) instead of being killed by Lambda with the visitor left waiting.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { SESClient, type SESClientConfig } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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

/** What the functions talk to: the message table (through the document client) and SES. */
export interface AwsClients {
  documents: DynamoDBDocumentClient;
  ses: SESClient;
}

/** Where a client connects (endpoint, region, credentials), on top of the options above. */
export type Connection = Pick<DynamoDBClientConfig & SESClientConfig, 'endpoint' | 'region' | 'credentials'>;

/**
 * Clients with the options above. Without connections (in Lambda) the SDK finds region,
 * credentials and endpoints itself, in its own environment variables; the local stack and
 * the tests give the emulators' endpoints. Building a client connects to nothing yet.
 */
export function createAwsClients(connections: { dynamodb?: Connection; ses?: Connection } = {}): AwsClients {
  return {
    documents: createDocumentClient(connections.dynamodb),
    ses: new SESClient({ ...SES_CLIENT_OPTIONS, ...connections.ses }),
  };
}

/** The table's client alone, for a function that sends no e-mail (and need not load SES's client). */
export function createDocumentClient(connection?: Connection): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({ ...AWS_CLIENT_OPTIONS, ...connection }));
}
