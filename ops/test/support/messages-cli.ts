/**
 * `npm run messages` as the operator runs it, in a child process with exactly the environment
 * a test gives it, and stored messages as the handler writes them for it to find.
 */
import { fileURLToPath } from 'node:url';
import { emailKey, type StoredMessage } from '@site/core/table';
import { EMULATOR_CREDENTIALS, emulatorSdkEnv } from '@site/emulators/connections';
import { MAIL_FROM, MAIL_TO, TEST_CONFIGURATION_SET } from '@site/testing/test-values';
import { type LocalAws } from '@site/testing/local-aws';
import { runScript } from '@site/testing/run-script';

const SCRIPT = fileURLToPath(new URL('../../messages.ts', import.meta.url));

/** The parts of the environment that are not about AWS, so each test says exactly what it points at. */
export const BASE_ENV = { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp' };

/** Pointed at the stand-ins as an operator points it at AWS: endpoints, region, credentials, table, mail route. */
export const standInEnv = (aws: LocalAws) => ({
  ...BASE_ENV,
  // The account's administrator: the guides document no narrower policy for these commands.
  ...emulatorSdkEnv(aws.urls, EMULATOR_CREDENTIALS.accessKeyId),
  TABLE_NAME: aws.tableName,
  MAIL_FROM,
  MAIL_TO,
  SES_CONFIGURATION_SET: TEST_CONFIGURATION_SET,
});

/** Everything the commands wrote to stderr in this test file: it must never hold personal data. */
let stderrSoFar = '';
export const allStderr = () => stderrSoFar;

export async function runMessages(args: string[], env: Record<string, string>, input?: string) {
  const result = await runScript(SCRIPT, args, { env, input });
  stderrSoFar += result.stderr;
  return result;
}

let sequence = 0;
/** A stored message as the handler writes it; ids sort by age like the handler's ULIDs. */
export function message(minutesAgo: number, fields: Partial<StoredMessage> = {}): StoredMessage {
  sequence += 1;
  const email = fields.email ?? `afzender${sequence}@voorbeeld.nl`;
  return {
    id: `01JT${String(1_000_000 - minutesAgo).padStart(8, '0')}${String(sequence).padStart(14, '0')}`,
    receivedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    name: 'Jan de Vries',
    message: 'Vertrouwelijk',
    status: 'emailed',
    attempts: 1,
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ...fields,
    email,
    emailKey: emailKey(email),
  };
}
