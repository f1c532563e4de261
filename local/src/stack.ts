/**
 * The whole product on one machine, in one process: DynamoDB (dynalite), SES
 * (aws-ses-v2-local), the Lambda handler behind the local edge, and the retry job on an
 * interval. Used by `npm start`, the browser tests, the robustness suite and the benchmarks.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TABLE_NAME } from '@site/core/table';
import { CDK_JSON_CONTEXT } from '@site/core/cdk-context';
import { retentionDaysFrom, visitorLimitFrom } from '@site/core/deploy-config';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';
import { VISITOR_LIMIT_ENV } from '@site/core/function-env';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { startApiGateway, startEdge, type ApiHandler } from './edge';
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
  /** The API's own address (execute-api's stand-in). Default: a free port; `npm start` passes API_PORT's. */
  apiPort?: number;
  /**
   * Messages per visitor address per window; 0 turns the limit off (load tests, browser
   * suites that send many). Default: what a deploy with cdk.json as it is would use.
   */
  visitorLimit?: number;
}

export interface LocalStack {
  /** `api` is the API without the edge in front: calls there did not come through CloudFront. */
  urls: { site: string; api: string; dynamodb: string; ses: string };
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

/**
 * What the local CloudFront sends the function as the origin secret: generated once per
 * process, never written anywhere, and given to the handler as the stack gives it, through
 * its environment. Once per process rather than per stack, because the handler reads its
 * environment once, as in Lambda.
 */
const ORIGIN_SECRET = randomBytes(32).toString('base64url');

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
    const visitorLimit = visitorLimitFrom(CDK_JSON_CONTEXT);
    Object.assign(process.env, EMULATOR_ENV, {
      TABLE_NAME: tableName,
      MAIL_FROM: LOCAL_MAIL.from,
      MAIL_TO: LOCAL_MAIL.to,
      // What a deploy with cdk.json as it is would use.
      RETENTION_DAYS: process.env.RETENTION_DAYS ?? String(retentionDaysFrom(CDK_JSON_CONTEXT)),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_ENDPOINT_URL_SES: ses.url,
      [ORIGIN_VERIFY_ENV.current]: ORIGIN_SECRET,
      [VISITOR_LIMIT_ENV.messages]: String(options.visitorLimit ?? visitorLimit.messages),
      [VISITOR_LIMIT_ENV.windowSeconds]: String(visitorLimit.windowMinutes * 60),
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
          originSecret: ORIGIN_SECRET,
        }),
      sitePort,
      LOCAL_PORTS.site.variable,
    );
    started.push(edge);

    const apiPort = options.apiPort ?? 0;
    const api = await onPort(
      () =>
        startApiGateway({
          port: apiPort,
          handler,
          functionName: 'send-contact-email',
          functionTimeoutMs: options.functionTimeoutMs ?? FUNCTION_TIMEOUT_SECONDS * 1000,
          accessLog: options.quiet ? undefined : (line) => console.log(`api   ${line}`),
        }),
      apiPort,
      LOCAL_PORTS.api.variable,
    );
    started.push(api);

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
      urls: { site: edge.url, api: api.url, dynamodb: dynamo.url, ses: ses.url },
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
