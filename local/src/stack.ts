/**
 * The whole product on one machine, in one process: DynamoDB (dynalite), SES
 * (aws-ses-v2-local), the Lambda handler behind the local edge, and the retry job on an
 * interval. Used by `npm start`, the browser tests, the robustness suite and the benchmarks.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TABLE_NAME } from '@site/lambda/table';
import { CDK_JSON_CONTEXT } from '@site/infra/cdk-context';
import { retentionDaysFrom } from '@site/infra/config';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/infra/function-limits';
import { startEdge, type ApiHandler } from './edge';
import { LOCAL_MAIL, LOCAL_PORTS } from './defaults';
import { EMULATOR_ENV, ensureMessageTable, startDynamoDb, startSesEmulator, type RunningServer } from './emulators';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_SITE_DIR = join(REPO_ROOT, 'frontend/dist');
export const DEFAULT_DATA_DIR = join(REPO_ROOT, '.data/dynamodb');

export interface LocalStackOptions {
  /** 0 picks a free port. */
  port?: number;
  dynamoPort?: number;
  sesPort?: number;
  /** Where dynalite keeps its data; `null` keeps it in memory (tests). */
  dataDir?: string | null;
  siteDir?: string;
  /** How often the retry job runs; 0 turns it off (tests call `runRetryJob`). */
  retryIntervalMs?: number;
  functionTimeoutMs?: number;
  /** No access log lines. */
  quiet?: boolean;
}

export interface LocalStack {
  urls: { site: string; dynamodb: string; ses: string };
  tableName: string;
  /** Stops the DynamoDB server (a fault) and starts it again on the same port and data. */
  stopDynamoDb(): Promise<void>;
  startDynamoDb(): Promise<void>;
  stopSes(): Promise<void>;
  startSes(): Promise<void>;
  /** Runs the retry job once, as the schedule would. */
  runRetryJob(): Promise<unknown>;
  close(): Promise<void>;
}

/** Names the variable to change when a port is taken, instead of a stack trace. */
export class PortInUseError extends Error {
  constructor(port: number, variable: string) {
    super(`Port ${port} is in use; set ${variable} to a free port (for example ${variable}=${port + 1}).`);
  }
}

async function onPort<T>(start: () => Promise<T>, port: number, variable: string): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(port, variable);
    throw error;
  }
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.dataDir === undefined ? DEFAULT_DATA_DIR : options.dataDir;
  const started: RunningServer[] = [];
  const dynamoPort = options.dynamoPort ?? LOCAL_PORTS.dynamodb.port;
  let dynamo = await onPort(
    () => startDynamoDb({ port: dynamoPort, path: dataDir ?? undefined }),
    dynamoPort,
    LOCAL_PORTS.dynamodb.variable,
  );
  started.push(dynamo);
  try {
    const sesPort = options.sesPort ?? LOCAL_PORTS.ses.port;
    let ses = await onPort(() => startSesEmulator({ port: sesPort }), sesPort, LOCAL_PORTS.ses.variable);
    started.push(ses);

    const tableName = DEFAULT_TABLE_NAME;
    await ensureMessageTable(dynamo.url, tableName);
    // The handler reads its configuration and endpoints from the environment, as in Lambda;
    // the SDK's own AWS_ENDPOINT_URL_* variables point it at the emulators.
    Object.assign(process.env, EMULATOR_ENV, {
      TABLE_NAME: tableName,
      MAIL_FROM: LOCAL_MAIL.from,
      MAIL_TO: LOCAL_MAIL.to,
      // What a deploy with cdk.json as it is would use.
      RETENTION_DAYS: process.env.RETENTION_DAYS ?? String(retentionDaysFrom(CDK_JSON_CONTEXT)),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_ENDPOINT_URL_SES: ses.url,
    });
    const { handler } = (await import('@site/lambda/handlers/send-contact-email')) as { handler: ApiHandler };
    const retry = (await import('@site/lambda/handlers/retry-undelivered')) as { handler: (event: unknown) => Promise<unknown> };

    const sitePort = options.port ?? LOCAL_PORTS.site.port;
    const edge = await onPort(
      () =>
        startEdge({
          port: sitePort,
          siteDir: options.siteDir ?? DEFAULT_SITE_DIR,
          handler,
          functionName: 'send-contact-email',
          functionTimeoutMs: options.functionTimeoutMs ?? FUNCTION_TIMEOUT_SECONDS * 1000,
          accessLog: options.quiet ? undefined : (line) => console.log(`edge  ${line}`),
        }),
      sitePort,
      LOCAL_PORTS.site.variable,
    );
    started.push(edge);

    const runRetryJob = () => retry.handler({ source: 'local.schedule', 'detail-type': 'Scheduled Event', time: new Date().toISOString() });
    const interval = options.retryIntervalMs ?? 60_000;
    const timer =
      interval > 0
        ? setInterval(() => {
            runRetryJob().catch((error: Error) =>
              console.error(JSON.stringify({ level: 'error', msg: 'retry job failed', error: error.message })),
            );
          }, interval)
        : undefined;
    timer?.unref();

    return {
      urls: { site: edge.url, dynamodb: dynamo.url, ses: ses.url },
      tableName,
      async stopDynamoDb() {
        await dynamo.close();
      },
      async startDynamoDb() {
        dynamo = await startDynamoDb({ port: dynamo.port, path: dataDir ?? undefined });
        started[0] = dynamo;
        // An in-memory server comes back empty, as a fresh DynamoDB endpoint would be.
        await ensureMessageTable(dynamo.url, tableName);
      },
      async stopSes() {
        await ses.close();
      },
      async startSes() {
        ses = await startSesEmulator({ port: ses.port });
        started[1] = ses;
      },
      runRetryJob,
      async close() {
        clearInterval(timer);
        await Promise.allSettled(started.reverse().map((server) => server.close()));
      },
    };
  } catch (error) {
    await Promise.allSettled(started.map((server) => server.close()));
    throw error;
  }
}
