// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- dynalite has no types; this carries ours to every workspace that type-checks this file
/// <reference path="../types/dynalite.d.ts" />
/**
 * The local stand-ins for DynamoDB and SES, as in-process servers on loopback. One
 * definition, used by `npm start`, the tests, the robustness suite and the benchmarks.
 */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import dynalite from 'dynalite';
import sesModule from 'aws-ses-v2-local';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { keyAttributes, MESSAGE_TABLE, type KeyAttribute } from '@site/core/table';
import { emulatorClientConfig, loopbackUrl, LOOPBACK } from './connections';

// A CommonJS module with `__esModule`: Node's ESM loader hands us module.exports, Vite the default.
const startSesServer: typeof sesModule = (sesModule as unknown as { default?: typeof sesModule }).default ?? sesModule;

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens, or rejects with the listen error (EADDRINUSE included) instead of throwing later. */
export function listen(server: Server, port: number, host = LOOPBACK): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes at once: keep-alive connections from the SDK would otherwise hold the port. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/**
 * dynalite on loopback. With `path`, data is kept in LevelDB there and survives a restart;
 * without, it lives in memory. `port: 0` picks a free port.
 */
export async function startDynamoDb(options: { port: number; path?: string }): Promise<RunningServer> {
  if (options.path) mkdirSync(options.path, { recursive: true });
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const stop = drainBeforeClose(server);
  const port = await listen(server, options.port);
  return { url: loopbackUrl(port), port, close: stop };
}

/** How long a stop waits for requests dynalite is still working on. */
const DYNAMODB_DRAIN_LIMIT_MS = 5_000;

/**
 * dynalite closes its LevelDB when its server closes, and a request still running at that
 * moment throws 'Database is closed' from a callback: an uncaught exception that takes the
 * whole process down (seen under load in the robustness suite). So a stop refuses new
 * requests at once, as a dead server would, lets the running ones finish, and only then
 * closes the database.
 */
function drainBeforeClose(server: Server): () => Promise<void> {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  let stopping = false;
  let running = 0;
  let onDrained: (() => void) | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (stopping) {
      req.socket.destroy();
      return;
    }
    running += 1;
    // Counted on end(), not on 'close': a client that gives up closes the socket while
    // dynalite is still writing to LevelDB.
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    let ended = false;
    res.end = ((...args: unknown[]) => {
      if (!ended) {
        ended = true;
        running -= 1;
        if (running === 0) onDrained?.();
      }
      return end(...args);
    }) as ServerResponse['end'];
    for (const handler of handlers) handler.call(server, req, res);
  });
  return async () => {
    stopping = true;
    if (running > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DYNAMODB_DRAIN_LIMIT_MS);
        onDrained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await closeServer(server);
  };
}

/** aws-ses-v2-local on loopback: accepts SendEmail and shows every e-mail on its web page. */
export async function startSesEmulator(options: { port: number }): Promise<RunningServer> {
  // The package listens before it returns, so a busy port must be caught on the server it
  // creates; probing first with our own listener keeps the error the same as dynalite's.
  const probe = (await import('node:http')).createServer();
  const port = await listen(probe, options.port);
  await closeServer(probe);
  // aws-ses-v2-local keeps its outbox in the module, not in the server: every emulator one
  // process starts shares it, and one started again finds the mail of the one before
  // (startLocalStack empties it for a new stack).
  const server = await startSesServer({ host: LOOPBACK, port });
  return { url: loopbackUrl(port), port, close: () => closeServer(server) };
}

export interface SentEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

/** Every e-mail the SES emulator has accepted, read through its own HTTP API. */
export async function fetchSentEmails(sesUrl: string): Promise<SentEmail[]> {
  const response = await fetch(`${sesUrl}/store`);
  if (!response.ok) throw new Error(`SES emulator answered ${response.status}`);
  return ((await response.json()) as { emails: SentEmail[] }).emails;
}

/**
 * One e-mail the SES emulator accepted, as the message a mail client would receive: the
 * emulator writes it out as MIME (with nodemailer) from what SendEmail was given, headers
 * encoded and folded as a message writer does.
 */
export async function fetchRawEmail(sesUrl: string, messageId: string): Promise<Buffer> {
  const response = await fetch(`${sesUrl}/get-emlContent?messageId=${encodeURIComponent(messageId)}`);
  if (!response.ok) throw new Error(`SES emulator answered ${response.status} for e-mail ${messageId}`);
  const { body } = (await response.json()) as { body: { type: 'Buffer'; data: number[] } };
  return Buffer.from(body.data);
}

export async function clearSentEmails(sesUrl: string): Promise<void> {
  await fetch(`${sesUrl}/clear-store`, { method: 'POST' });
}

/** Creates the contact-messages table as the CDK stack defines it, unless it exists. */
export async function ensureMessageTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient(emulatorClientConfig(endpoint));
  const { partitionKey, indexes, timeToLiveAttribute } = MESSAGE_TABLE;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes().map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
        KeySchema: [{ AttributeName: partitionKey.name, KeyType: 'HASH' }],
        GlobalSecondaryIndexes: Object.entries<{ partitionKey: KeyAttribute; sortKey?: KeyAttribute }>(indexes).map(
          ([IndexName, index]) => ({
            IndexName,
            KeySchema: [
              { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
              ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ),
      }),
    );
    // dynalite accepts but does not enforce TTL; setting it keeps the table's shape honest.
    await client
      .send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: timeToLiveAttribute, Enabled: true },
        }),
      )
      .catch(() => undefined);
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await client.send(new DescribeTableCommand({ TableName: tableName }));
  client.destroy();
}
