/**
 * How a client reaches the stand-ins: loopback, the region and credentials they accept (the
 * SDK insists on both, and never gets real ones here), as client settings or as the SDK's own
 * environment variables. No imports, so a light script (`npm run messages`) reads it without
 * loading the servers.
 */

export const LOOPBACK = '127.0.0.1';

/** Any region works against the emulators; the SDK insists on one. */
export const EMULATOR_REGION = 'eu-west-1';

/** Credentials the emulators accept; the SDK insists on some. Never real ones. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** The same region and credentials as the environment variables the SDK reads. */
export const EMULATOR_ENV = {
  AWS_REGION: EMULATOR_REGION,
  AWS_ACCESS_KEY_ID: EMULATOR_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: EMULATOR_CREDENTIALS.secretAccessKey,
} as const;

/** Client settings for an emulator at `endpoint`, for code that builds its own SDK client. */
export function emulatorClientConfig(endpoint: string) {
  return { endpoint, region: EMULATOR_REGION, credentials: EMULATOR_CREDENTIALS };
}

/** Where the two emulators listen. */
export interface EmulatorUrls {
  dynamodb: string;
  ses: string;
}

/** How the functions' clients reach the emulators: what the lambda's createAwsClients takes. */
export function emulatorConnections(urls: EmulatorUrls) {
  return { dynamodb: emulatorClientConfig(urls.dynamodb), ses: emulatorClientConfig(urls.ses) };
}

/**
 * The same as the SDK's own environment variables (region, credentials, endpoints), for a
 * function run in a process of its own, whose clients read them as in Lambda.
 */
export function emulatorSdkEnv(urls: EmulatorUrls): Record<string, string> {
  return { ...EMULATOR_ENV, AWS_ENDPOINT_URL_DYNAMODB: urls.dynamodb, AWS_ENDPOINT_URL_SES: urls.ses };
}

export const loopbackUrl = (port: number) => `http://${LOOPBACK}:${port}`;
