/**
 * `npm run messages [-- count]`: the latest contact messages and their delivery state, for
 * whoever runs the site. Reads TABLE_NAME (default contact-messages) wherever the AWS SDK
 * is pointed; with no endpoint and no region configured, that is the local stack.
 */
import { EMULATOR_ENV, LOCAL_PORTS, loopbackUrl } from '@site/local/defaults';
import { textTable } from '@site/local/text-table';
import { DEFAULT_TABLE_NAME, type StoredMessage } from '../src/table';

const LOCAL_DYNAMODB = loopbackUrl(LOCAL_PORTS.dynamodb.port);
const DEFAULT_COUNT = 20;

function usesLocalStack(env: NodeJS.ProcessEnv): boolean {
  return !env.AWS_ENDPOINT_URL_DYNAMODB && !env.AWS_ENDPOINT_URL && !env.AWS_REGION && !env.AWS_DEFAULT_REGION && !env.AWS_PROFILE;
}

function parseCount(argument: string | undefined): number {
  if (argument === undefined) return DEFAULT_COUNT;
  const count = Number(argument);
  if (!Number.isInteger(count) || count < 1 || count > 1000) {
    throw new Error(`Usage: npm run messages [-- count]; count is a whole number from 1 to 1000, not "${argument}".`);
  }
  return count;
}

function table(messages: StoredMessage[]): string {
  return textTable([
    ['id', 'received', 'status', 'attempts', 'from', 'last error'],
    ...messages.map((message) => [
      message.id,
      message.receivedAt,
      message.status,
      String(message.attempts),
      message.email,
      message.lastError ?? '',
    ]),
  ]);
}

/** A sentence for the failures an operator can fix, instead of an SDK stack trace. */
function explain(error: unknown, tableName: string, endpoint: string): string {
  const { name, code } = error as { name?: string; code?: string };
  if (name === 'ResourceNotFoundException')
    return `Table ${tableName} does not exist at ${endpoint}. Set TABLE_NAME, or start the local stack with npm start.`;
  if (code === 'ECONNREFUSED' || name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'ENOTFOUND') {
    return `DynamoDB is not reachable at ${endpoint}. Start the local stack with npm start, or set AWS_ENDPOINT_URL_DYNAMODB / AWS_REGION for AWS.`;
  }
  if (name === 'CredentialsProviderError' || name === 'UnrecognizedClientException' || name === 'AccessDeniedException') {
    return `AWS refused the credentials (${name}). Check AWS_PROFILE or the AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in use.`;
  }
  return `Could not read ${tableName} at ${endpoint}: ${name ?? 'Error'}${code ? ` (${code})` : ''}.`;
}

async function main(): Promise<number> {
  const count = parseCount(process.argv[2]);
  const tableName = process.env.TABLE_NAME || DEFAULT_TABLE_NAME;
  if (usesLocalStack(process.env)) {
    // The same variables the handler's SDK reads, so the store module needs no local branch.
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: LOCAL_DYNAMODB,
      AWS_REGION: EMULATOR_ENV.AWS_REGION,
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? EMULATOR_ENV.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? EMULATOR_ENV.AWS_SECRET_ACCESS_KEY,
    });
  }
  const endpoint =
    process.env.AWS_ENDPOINT_URL_DYNAMODB ??
    process.env.AWS_ENDPOINT_URL ??
    `DynamoDB in ${process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'the profile region'}`;
  // Imported after the environment is settled: the client is created when the module loads.
  const { listLatest } = await import('../src/store');
  try {
    const messages = await listLatest(tableName, count);
    console.log(messages.length === 0 ? `No messages in ${tableName}.` : table(messages));
    return 0;
  } catch (error) {
    console.error(explain(error, tableName, endpoint));
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
