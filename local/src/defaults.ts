/**
 * The local stand-in's fixed settings: the ports `npm start` and `npm run dev` listen on (each
 * with the variable that moves it), and the region and credentials the emulators take. One
 * definition for the stack, its command-line programs, `npm run messages` and the tests.
 * No imports, so a light script can read it without loading the emulators.
 */

export const LOOPBACK = '127.0.0.1';

/** For the local stack only: overrides the deploy's messages per visitor per window; 0 turns the limit off. */
export const VISITOR_LIMIT_VARIABLE = 'VISITOR_LIMIT';

/** For the local stack only: the firm's address (contactRecipient), e.g. a mailbox simulator address. */
export const CONTACT_RECIPIENT_VARIABLE = 'CONTACT_RECIPIENT';

export interface PortSetting {
  /** The environment variable that overrides the port. */
  variable: string;
  port: number;
}

export const LOCAL_PORTS = {
  site: { variable: 'PORT', port: 8080 },
  dynamodb: { variable: 'DYNAMODB_PORT', port: 8000 },
  ses: { variable: 'SES_PORT', port: 8005 },
  /** The API's own address, as execute-api is beside CloudFront: what skips the edge is refused. */
  api: { variable: 'API_PORT', port: 8088 },
  /** The page of the path's counts, from the functions' metric lines. */
  metrics: { variable: 'METRICS_PORT', port: 8006 },
  dev: { variable: 'DEV_PORT', port: 5173 },
} as const satisfies Record<string, PortSetting>;

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

/**
 * The addresses of the local e-mails. Only the SES emulator ever sees them: .localhost
 * cannot receive mail, and the deploy's configuration refuses it.
 */
export const LOCAL_MAIL = { from: 'website@consultancy-site.localhost', to: 'info@consultancy-site.localhost' } as const;

/** The stage the local functions count their metrics under, as a deployed stage's do under its name. */
export const LOCAL_STAGE = 'local';

/** The configuration set of the local SES: the local stack's functions send through it, as a stage's do through its own. */
export const LOCAL_CONFIGURATION_SET = 'consultancy-site-local';
