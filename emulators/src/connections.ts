/**
 * How a client reaches the stand-ins: loopback, the region and credentials they accept (the
 * SDK insists on both, and never gets real ones here), as client settings or as the SDK's own
 * environment variables. No imports, so a light script (`npm run messages`) reads it without
 * loading the servers.
 */

export const LOOPBACK = '127.0.0.1';

/** Any region works against the emulators; the SDK insists on one. */
export const EMULATOR_REGION = 'eu-west-1';

/**
 * The stand-ins' own credentials: an administrator's, whose calls the IAM gate in front of
 * each stand-in passes unchecked (iam-gate.ts): the stack's and the tests' own setup. Never
 * real ones.
 */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * Credentials that sign a call as `principal`, a function's name (FUNCTION_NAMES) or an
 * operator policy's: the gate evaluates the call against that principal's policies, as IAM
 * evaluates a call signed with the role's credentials Lambda gives the function.
 */
export function principalCredentials(principal: string) {
  return { accessKeyId: principal, secretAccessKey: EMULATOR_CREDENTIALS.secretAccessKey };
}

/** Client settings for an emulator at `endpoint`, signed as `principal` (default: the administrator). */
export function emulatorClientConfig(endpoint: string, principal?: string) {
  return {
    endpoint,
    region: EMULATOR_REGION,
    credentials: principal === undefined ? EMULATOR_CREDENTIALS : principalCredentials(principal),
  };
}

/** Where the two emulators listen. */
export interface EmulatorUrls {
  dynamodb: string;
  ses: string;
}

/** How a function's clients reach the emulators, signed with its role: what the lambda's createAwsClients takes. */
export function emulatorConnections(urls: EmulatorUrls, principal: string) {
  return { dynamodb: emulatorClientConfig(urls.dynamodb, principal), ses: emulatorClientConfig(urls.ses, principal) };
}

/**
 * The same as the SDK's own environment variables (region, credentials, endpoints), for a
 * function run in a process of its own, whose clients read them as in Lambda.
 */
export function emulatorSdkEnv(urls: EmulatorUrls, principal: string): Record<string, string> {
  const { accessKeyId, secretAccessKey } = principalCredentials(principal);
  return {
    AWS_REGION: EMULATOR_REGION,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: urls.dynamodb,
    AWS_ENDPOINT_URL_SES: urls.ses,
  };
}

export const loopbackUrl = (port: number) => `http://${LOOPBACK}:${port}`;
