/**
 * DynamoDB and SES stand-ins for one test file, started through the local stand-in (@site/local/emulators)
 * on free ports, and the environment the handler reads. Call before the handler module is
 * first imported: the SDK clients are created at import.
 */
import { createServer, type Server } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  EMULATOR_ENV,
  clearSentEmails,
  closeServer,
  ensureMessageTable,
  fetchSentEmails,
  listen,
  startDynamoDb,
  startSesEmulator,
  type RunningServer,
  type SentEmail,
} from '@site/local/emulators';
import { emulatorClientConfig } from '@site/local/defaults';
import type { StoredMessage } from '@site/core/table';
import type { VisitorLimit } from '../../src/visitor-limit';
import { TEST_ORIGIN_SECRET } from './events';

export const TEST_TABLE = 'contact-messages-test';
export const MAIL_FROM = 'website@firma.example';
export const MAIL_TO = 'info@firma.example';
/** The deploy's default: 5 messages per visitor per 10 minutes. */
export const TEST_VISITOR_LIMIT: VisitorLimit = { messages: 5, windowSeconds: 600 };

export interface LocalAws {
  tableName: string;
  /** Every item in the table, messages and idempotency records. */
  items(): Promise<Record<string, unknown>[]>;
  messages(): Promise<StoredMessage[]>;
  message(id: string): Promise<StoredMessage | undefined>;
  put(item: Record<string, unknown>): Promise<void>;
  sentEmails(): Promise<SentEmail[]>;
  /** Empties the SES outbox (kept per process by the emulator) and nothing else. */
  clearEmails(): Promise<void>;
  stopSes(): Promise<void>;
  startSes(): Promise<void>;
  /** Keeps SES's port open but never answers, as a stuck endpoint does. */
  hangSes(): Promise<void>;
  /** Requests the stuck SES has received since hangSes(). */
  hungSesRequests(): number;
  stopDynamoDb(): Promise<void>;
  /** Back on the same port, empty, with the table created again. */
  startDynamoDb(): Promise<void>;
  close(): Promise<void>;
}

/**
 * fetch keeps connections alive: right after the SES stand-in restarts, the first request
 * can go out on a connection the old server closed. A second try gets a fresh one.
 */
function onceMore<T>(request: () => Promise<T>): Promise<T> {
  return request().catch(() => request());
}

export async function startLocalAws(): Promise<LocalAws> {
  let dynamo: RunningServer | undefined = await startDynamoDb({ port: 0 });
  let ses: RunningServer | undefined = await startSesEmulator({ port: 0 });
  const dynamoPort = dynamo.port;
  const sesPort = ses.port;
  const sesUrl = ses.url;
  let hanging: Server | undefined;
  let hungRequests = 0;
  await ensureMessageTable(dynamo.url, TEST_TABLE);

  Object.assign(process.env, EMULATOR_ENV, {
    TABLE_NAME: TEST_TABLE,
    MAIL_FROM,
    MAIL_TO,
    RETENTION_DAYS: '365',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_ENDPOINT_URL_SES: ses.url,
    ORIGIN_VERIFY: TEST_ORIGIN_SECRET,
    VISITOR_LIMIT: String(TEST_VISITOR_LIMIT.messages),
    VISITOR_WINDOW_SECONDS: String(TEST_VISITOR_LIMIT.windowSeconds),
  });

  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(dynamo.url), maxAttempts: 1 }));
  const items = async () => {
    const found: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await documents.send(new ScanCommand({ TableName: TEST_TABLE, ConsistentRead: true, ExclusiveStartKey }));
      found.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return found;
  };
  const stopHanging = async () => {
    if (hanging) await closeServer(hanging);
    hanging = undefined;
  };
  const stopSes = async () => {
    await ses?.close();
    ses = undefined;
    await stopHanging();
  };

  return {
    tableName: TEST_TABLE,
    items,
    async messages() {
      return (await items()).filter((item) => 'status' in item) as unknown as StoredMessage[];
    },
    async message(id) {
      const { Item } = await documents.send(new GetCommand({ TableName: TEST_TABLE, Key: { id }, ConsistentRead: true }));
      return Item as StoredMessage | undefined;
    },
    async put(item) {
      await documents.send(new PutCommand({ TableName: TEST_TABLE, Item: item }));
    },
    sentEmails: () => onceMore(() => fetchSentEmails(sesUrl)),
    clearEmails: () => onceMore(() => clearSentEmails(sesUrl)),
    stopSes,
    async startSes() {
      ses = await startSesEmulator({ port: sesPort });
    },
    hungSesRequests: () => hungRequests,
    async hangSes() {
      await stopSes();
      hungRequests = 0;
      hanging = createServer(() => {
        hungRequests += 1;
      });
      await listen(hanging, sesPort);
    },
    async stopDynamoDb() {
      await dynamo?.close();
      dynamo = undefined;
    },
    async startDynamoDb() {
      dynamo = await startDynamoDb({ port: dynamoPort });
      await ensureMessageTable(dynamo.url, TEST_TABLE);
    },
    async close() {
      documents.destroy();
      await stopHanging();
      await Promise.all([dynamo?.close(), ses?.close()]);
    },
  };
}
