/**
 * DynamoDB and SES for one test file: a table of its own in the run's shared dynalite, an SES
 * of its own (the local SES, which knows the tests' configuration set and shows only this
 * file's e-mails) in front of the run's shared SES emulator, each behind IAM as AWS evaluates
 * it (the stage's roles, emulators/src/iam-gate.ts) and a fault switch (fault-switch.ts). With
 * the environment Lambda would give a function here, and the connections its SDK clients take,
 * signed with the function's role, so a test builds the handler it tests with the function's
 * own factories and a call its role does not allow fails as in AWS. Nothing is written to
 * process.env.
 *
 * The stand-ins and the roles come from the run's global setup (test/setup/stand-ins.ts).
 */
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { functionEnvironment } from '@site/core/function-env';
import type { FunctionName } from '@site/core/names';
import type { StoredMessage } from '@site/core/table';
import { emulatorClientConfig, emulatorConnections, emulatorSdkEnv, type EmulatorUrls } from '@site/emulators/connections';
import { startIamGate } from '@site/emulators/iam-gate';
import { startLocalSes } from '@site/emulators/local-ses';
import { clearSentEmails, ensureMessageTable, fetchRawEmail, fetchSentEmails, type SentEmail } from '@site/emulators/servers';
import { faultSwitch } from './fault-switch';
import { runStandIns, type RunIam } from './stand-ins';
import {
  MAIL_FROM,
  MAIL_TO,
  TEST_CONFIGURATION_SET,
  TEST_MAIL_BUDGETS,
  TEST_ORIGIN_SECRET,
  TEST_SITE_URL,
  TEST_STAGE,
  TEST_VISITOR_LIMIT,
} from './test-values';

export interface LocalAws {
  tableName: string;
  /** This file's addresses of the stand-ins (behind its fault switches). */
  urls: EmulatorUrls;
  /**
   * The environment Lambda would give the contact function here: its settings (TABLE_NAME, …,
   * the deploy's default retention and visitor limit) and the SDK's (region, its role's
   * credentials, endpoints). Read it with the function's own readers (readContactConfig, …).
   */
  lambdaEnv: Record<string, string>;
  /** The same for another of the functions: its settings, and the SDK's signed with its role. */
  lambdaEnvOf(fn: FunctionName): Record<string, string>;
  /** What a function's createAwsClients takes to reach the stand-ins, signed with that function's role. */
  connectionsFor(fn: FunctionName): ReturnType<typeof emulatorConnections>;
  /** The roles the gates enforce, and where each call is written down. */
  iam: RunIam;
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

/**
 * `iam`: the roles the gates enforce and where each call is written down; the run's own by
 * default. A test of a role without one of its grants gives its own, recording nothing.
 */
export async function startLocalAws(options: { iam?: RunIam } = {}): Promise<LocalAws> {
  const run = runStandIns();
  const { standIns } = run;
  const iam = options.iam ?? run.iam;
  const tableName = `contact-messages-${randomUUID().slice(0, 8)}`;
  await ensureMessageTable(standIns.dynamodb, tableName);
  const ses = await startLocalSes({ port: 0, configurationSet: TEST_CONFIGURATION_SET, emulator: standIns.ses });
  const gated = { ...iam, names: { table: tableName, senderAddress: MAIL_FROM, configurationSet: TEST_CONFIGURATION_SET } };
  const gates = await Promise.all([
    startIamGate({ ...gated, service: 'dynamodb', upstream: standIns.dynamodb }),
    startIamGate({ ...gated, service: 'ses', upstream: ses.url }),
  ]);
  const [dynamoSwitch, sesSwitch] = await Promise.all([faultSwitch(gates[0].url), faultSwitch(gates[1].url)]);
  const urls = { dynamodb: dynamoSwitch.url, ses: sesSwitch.url };

  const settings = {
    ...functionEnvironment({
      stage: TEST_STAGE,
      tableName,
      mail: { from: MAIL_FROM, to: MAIL_TO },
      configurationSet: TEST_CONFIGURATION_SET,
      retentionDays: DEFAULTS.retentionDays,
      spamRetentionDays: DEFAULTS.spamRetentionDays,
      siteUrl: TEST_SITE_URL,
      deliveryAlarmHours: DEFAULTS.deliveryAlarmHours,
      originSecret: TEST_ORIGIN_SECRET,
      visitorLimit: TEST_VISITOR_LIMIT,
      ...TEST_MAIL_BUDGETS,
    }),
  };
  const lambdaEnvOf = (fn: FunctionName) => ({ ...settings, ...emulatorSdkEnv(urls, fn) });
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(urls.dynamodb), maxAttempts: 1 }));
  // The table's own maintenance goes to dynalite itself, whatever the switch is doing.
  const admin = new DynamoDBClient({ ...emulatorClientConfig(standIns.dynamodb), maxAttempts: 1 });

  return {
    tableName,
    urls,
    lambdaEnv: lambdaEnvOf('send-contact-email'),
    lambdaEnvOf,
    connectionsFor: (fn) => emulatorConnections(urls, fn),
    iam,
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
      await ensureMessageTable(standIns.dynamodb, tableName);
      await dynamoSwitch.start();
    },
    async close() {
      await Promise.all([dynamoSwitch.close(), sesSwitch.close()]);
      await Promise.all([...gates.map((gate) => gate.close()), ses.close()]);
      await admin.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      admin.destroy();
      documents.destroy();
    },
  };
}
