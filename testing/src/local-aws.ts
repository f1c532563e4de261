/**
 * DynamoDB and SES for one test file: a table of its own in the run's shared dynalite, an SES
 * of its own (the local SES, which knows the tests' configuration set and shows only this
 * file's e-mails) in front of the run's shared SES emulator, both behind fault switches
 * (fault-switch.ts). With the environment Lambda would give a function here, and the
 * connections its SDK clients take, so a test builds the handler it tests with the function's
 * own factories. Nothing is written to process.env.
 *
 * The stand-ins come from the run's global setup (stand-ins.ts); a file run without it (a
 * script, a project that forgot it) starts a pair of its own.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { functionEnvironment } from '@site/core/function-env';
import type { StoredMessage } from '@site/core/table';
import { emulatorClientConfig, emulatorConnections, emulatorSdkEnv, type EmulatorUrls } from '@site/emulators/connections';
import { startLocalSes } from '@site/emulators/local-ses';
import {
  clearSentEmails,
  ensureMessageTable,
  fetchRawEmail,
  fetchSentEmails,
  startDynamoDb,
  startSesEmulator,
  type RunningServer,
  type SentEmail,
} from '@site/emulators/servers';
import { faultSwitch } from './fault-switch';
import { STAND_INS } from './provided';
import {
  MAIL_FROM,
  MAIL_TO,
  TEST_CONFIGURATION_SET,
  TEST_MAIL_BUDGETS,
  TEST_ORIGIN_SECRET,
  TEST_STAGE,
  TEST_VISITOR_LIMIT,
} from './test-values';

export interface LocalAws {
  tableName: string;
  /** This file's addresses of the stand-ins (behind its fault switches). */
  urls: EmulatorUrls;
  /**
   * The environment Lambda would give the function here: its settings (TABLE_NAME, …, the
   * deploy's default retention and visitor limit) and the SDK's (region, credentials,
   * endpoints). Read it with the function's own readers (readContactConfig, …).
   */
  lambdaEnv: Record<string, string>;
  /** What the function's createAwsClients takes to reach the stand-ins. */
  connections: ReturnType<typeof emulatorConnections>;
  /** The test's own client: one attempt, so a stopped stand-in fails the test at once. */
  documents: DynamoDBDocumentClient;
  /** Every item in the table, messages, idempotency records and visitor counters. */
  items(): Promise<Record<string, unknown>[]>;
  messages(): Promise<StoredMessage[]>;
  message(id: string): Promise<StoredMessage | undefined>;
  put(item: Record<string, unknown>): Promise<void>;
  /** Deletes the item with this id, as an erasure does (which the operator's commands make). */
  erase(id: string): Promise<void>;
  /** The e-mails this file's SES accepted. */
  sentEmails(): Promise<SentEmail[]>;
  /** One of them as the MIME message a mail client receives. */
  rawEmail(messageId: string): Promise<Buffer>;
  /** Empties this file's outbox and nothing else. */
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
 * fetch keeps connections alive: right after SES comes back, the first request can go out on
 * a connection the switch cut. A second try gets a fresh one.
 */
function onceMore<T>(request: () => Promise<T>): Promise<T> {
  return request().catch(() => request());
}

/** Every item of the table, page by page, read consistently. */
async function scanAll(documents: DynamoDBDocumentClient, tableName: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey }));
    found.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

/** The run's shared stand-ins, or a pair of this file's own when no global setup provided them. */
async function sharedStandIns(): Promise<{ urls: EmulatorUrls; own: RunningServer[] }> {
  const provided = inject(STAND_INS) as EmulatorUrls | undefined;
  if (provided) return { urls: provided, own: [] };
  const own = await Promise.all([startDynamoDb({ port: 0 }), startSesEmulator({ port: 0 })]);
  return { urls: { dynamodb: own[0].url, ses: own[1].url }, own };
}

export async function startLocalAws(): Promise<LocalAws> {
  const shared = await sharedStandIns();
  const tableName = `contact-messages-${randomUUID().slice(0, 8)}`;
  await ensureMessageTable(shared.urls.dynamodb, tableName);
  const ses = await startLocalSes({ port: 0, configurationSet: TEST_CONFIGURATION_SET, emulator: shared.urls.ses });
  const [dynamoSwitch, sesSwitch] = await Promise.all([faultSwitch(shared.urls.dynamodb), faultSwitch(ses.url)]);
  const urls = { dynamodb: dynamoSwitch.url, ses: sesSwitch.url };

  const lambdaEnv = {
    ...functionEnvironment({
      stage: TEST_STAGE,
      tableName,
      mail: { from: MAIL_FROM, to: MAIL_TO },
      configurationSet: TEST_CONFIGURATION_SET,
      retentionDays: DEFAULTS.retentionDays,
      deliveryAlarmHours: DEFAULTS.deliveryAlarmHours,
      originSecret: TEST_ORIGIN_SECRET,
      visitorLimit: TEST_VISITOR_LIMIT,
      ...TEST_MAIL_BUDGETS,
    }),
    ...emulatorSdkEnv(urls),
  };
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(urls.dynamodb), maxAttempts: 1 }));
  // The table's own maintenance goes to dynalite itself, whatever the switch is doing.
  const admin = new DynamoDBClient({ ...emulatorClientConfig(shared.urls.dynamodb), maxAttempts: 1 });

  return {
    tableName,
    urls,
    lambdaEnv,
    connections: emulatorConnections(urls),
    documents,
    items: () => scanAll(documents, tableName),
    async messages() {
      return (await scanAll(documents, tableName)).filter((item) => 'status' in item) as unknown as StoredMessage[];
    },
    async message(id) {
      const { Item } = await documents.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return Item as StoredMessage | undefined;
    },
    async put(item) {
      await documents.send(new PutCommand({ TableName: tableName, Item: item }));
    },
    async erase(id) {
      await documents.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
    },
    sentEmails: () => onceMore(() => fetchSentEmails(urls.ses)),
    rawEmail: (messageId) => onceMore(() => fetchRawEmail(urls.ses, messageId)),
    clearEmails: () => onceMore(() => clearSentEmails(urls.ses)),
    stopSes: sesSwitch.stop,
    startSes: sesSwitch.start,
    hangSes: sesSwitch.hang,
    hungSesRequests: sesSwitch.hungRequests,
    stopDynamoDb: dynamoSwitch.stop,
    async startDynamoDb() {
      await admin.send(new DeleteTableCommand({ TableName: tableName }));
      await ensureMessageTable(shared.urls.dynamodb, tableName);
      await dynamoSwitch.start();
    },
    async close() {
      await Promise.all([dynamoSwitch.close(), sesSwitch.close()]);
      await ses.close();
      await admin.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      admin.destroy();
      documents.destroy();
      await Promise.all(shared.own.map((server) => server.close()));
    },
  };
}
