/**
 * DynamoDB and SES stand-ins for one test file (started through emulators.ts on free ports),
 * and what a function needs to run against them: its configuration, read from the
 * environment the stack would give it, and SDK clients pointed at them. Tests build the
 * handler they test from these with the lambda's factories; nothing is written to
 * process.env.
 */
import { createServer, type Server } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULTS, defaultIpv6NetworkLimit } from '@site/core/deploy-config';
import type { StoredMessage } from '@site/core/table';
import { createAwsClients, type AwsClients } from '@site/lambda/aws';
import { readContactConfig, readRetryConfig, type ContactConfig, type RetryConfig } from '@site/lambda/config';
import type { MessageTable } from '@site/lambda/store';
import type { VisitorLimit } from '@site/lambda/visitor-limit';
import { emulatorClientConfig, emulatorConnections, emulatorSdkEnv, LOCAL_STAGE } from './defaults';
import {
  clearSentEmails,
  closeServer,
  ensureMessageTable,
  fetchRawEmail,
  fetchSentEmails,
  listen,
  startDynamoDb,
  type RunningServer,
  type SentEmail,
} from './emulators';
import { functionEnvironment } from './function-env';
import { startLocalSes } from './local-ses';

/** The origin secret the handlers of these tests are given, and the events of the tests send. */
export const TEST_ORIGIN_SECRET = 'origin-secret-of-the-lambda-tests-0123456789abcdef';
export const TEST_TABLE = 'contact-messages-test';
export const MAIL_FROM = 'website@firma.example';
export const MAIL_TO = 'info@firma.example';
/** The configuration set the functions of these tests send through: the one their SES knows. */
export const TEST_CONFIGURATION_SET = 'consultancy-site-lambda-tests';
/** The deploy's default visitor limit, which the handlers of these tests are given. */
export const TEST_VISITOR_LIMIT: VisitorLimit = {
  messages: DEFAULTS.visitorLimit.messages,
  ipv6Network: defaultIpv6NetworkLimit(DEFAULTS.visitorLimit.messages),
  windowSeconds: DEFAULTS.visitorLimit.windowMinutes * 60,
};

export interface LocalAws {
  tableName: string;
  urls: { dynamodb: string; ses: string };
  /**
   * The environment Lambda would give the function here: its settings (TABLE_NAME, …, the
   * deploy's default retention and visitor limit) and the SDK's (region, credentials,
   * endpoints). For a function run in a process of its own.
   */
  lambdaEnv: Record<string, string>;
  /** What the contact function and the retry job read from that environment. */
  config: ContactConfig & RetryConfig;
  /** Clients pointed at the stand-ins, with the functions' own options. */
  clients: AwsClients;
  /** The table, as the store's functions take it. */
  table: MessageTable;
  /** Every item in the table, messages and idempotency records. */
  items(): Promise<Record<string, unknown>[]>;
  messages(): Promise<StoredMessage[]>;
  message(id: string): Promise<StoredMessage | undefined>;
  put(item: Record<string, unknown>): Promise<void>;
  sentEmails(): Promise<SentEmail[]>;
  /** One of them as the MIME message a mail client receives. */
  rawEmail(messageId: string): Promise<Buffer>;
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

/** Every item of the table, page by page, read consistently. */
async function scanAll(documents: DynamoDBDocumentClient): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({ TableName: TEST_TABLE, ConsistentRead: true, ExclusiveStartKey }));
    found.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

/** The local SES with the tests' configuration set; no delivery events (the consumer's tests send their own). */
const startSes = (port: number) => startLocalSes({ port, configurationSet: TEST_CONFIGURATION_SET });

/** SES that can be stopped, started on the same port, or left hanging. */
function sesControl(first: RunningServer) {
  let ses: RunningServer | undefined = first;
  let hanging: Server | undefined;
  let hungRequests = 0;
  const stopHanging = async () => {
    if (hanging) await closeServer(hanging);
    hanging = undefined;
  };
  const stop = async () => {
    await ses?.close();
    ses = undefined;
    await stopHanging();
  };
  return {
    stop,
    start: async () => {
      ses = await startSes(first.port);
    },
    hang: async () => {
      await stop();
      hungRequests = 0;
      hanging = createServer(() => {
        hungRequests += 1;
      });
      await listen(hanging, first.port);
    },
    hungRequests: () => hungRequests,
    close: stop,
  };
}

export async function startLocalAws(): Promise<LocalAws> {
  let dynamo: RunningServer | undefined = await startDynamoDb({ port: 0 });
  const firstSes = await startSes(0);
  const dynamoPort = dynamo.port;
  const urls = { dynamodb: dynamo.url, ses: firstSes.url };
  await ensureMessageTable(dynamo.url, TEST_TABLE);

  const lambdaEnv = {
    ...functionEnvironment({
      stage: LOCAL_STAGE,
      tableName: TEST_TABLE,
      mail: { from: MAIL_FROM, to: MAIL_TO },
      configurationSet: TEST_CONFIGURATION_SET,
      retentionDays: DEFAULTS.retentionDays,
      deliveryAlarmHours: DEFAULTS.deliveryAlarmHours,
      originSecret: TEST_ORIGIN_SECRET,
      visitorLimit: TEST_VISITOR_LIMIT,
    }),
    ...emulatorSdkEnv(urls),
  };
  const clients = createAwsClients(emulatorConnections(urls));
  // The test's own reads: one attempt, so a stopped stand-in fails the test at once.
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(dynamo.url), maxAttempts: 1 }));
  const ses = sesControl(firstSes);

  return {
    tableName: TEST_TABLE,
    urls,
    lambdaEnv,
    config: { ...readContactConfig(lambdaEnv), ...readRetryConfig(lambdaEnv) },
    clients,
    table: { name: TEST_TABLE, client: clients.documents },
    items: () => scanAll(documents),
    async messages() {
      return (await scanAll(documents)).filter((item) => 'status' in item) as unknown as StoredMessage[];
    },
    async message(id) {
      const { Item } = await documents.send(new GetCommand({ TableName: TEST_TABLE, Key: { id }, ConsistentRead: true }));
      return Item as StoredMessage | undefined;
    },
    async put(item) {
      await documents.send(new PutCommand({ TableName: TEST_TABLE, Item: item }));
    },
    sentEmails: () => onceMore(() => fetchSentEmails(urls.ses)),
    rawEmail: (messageId) => onceMore(() => fetchRawEmail(urls.ses, messageId)),
    clearEmails: () => onceMore(() => clearSentEmails(urls.ses)),
    stopSes: ses.stop,
    startSes: ses.start,
    hangSes: ses.hang,
    hungSesRequests: ses.hungRequests,
    async stopDynamoDb() {
      await dynamo?.close();
      dynamo = undefined;
    },
    async startDynamoDb() {
      dynamo = await startDynamoDb({ port: dynamoPort });
      await ensureMessageTable(dynamo.url, TEST_TABLE);
    },
    async close() {
      // The clients' kept-alive connections end with the servers (closeServer).
      await Promise.all([dynamo?.close(), ses.close()]);
    },
  };
}
