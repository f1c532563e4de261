/**
 * The whole product on one machine, in one process: DynamoDB (dynalite), SES
 * (aws-ses-v2-local behind the local SES, with the mailbox simulator's delivery events), the
 * Lambda handler behind the local edge, the retry job on an interval, and the consumer of the
 * delivery events. Used by `npm start`, the browser tests, the robustness suite and the benchmarks.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import {
  deliveryAlarmHoursFrom,
  ipv6NetworkLimitFrom,
  mailBudgetsFrom,
  retentionDaysFrom,
  spamRetentionDaysFrom,
  visitorLimitFrom,
  type Config,
} from '@site/core/node/deploy-config';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { DEFAULT_TABLE_NAME } from '@site/core/table';
import { stagePrefix } from '@site/core/names';
import { createAwsClients, createDocumentClient } from '@site/lambda/aws';
import { readContactConfig, readRetryConfig } from '@site/lambda/config';
import { createDeliveryEventHandler } from '@site/lambda/delivery-event-handler';
import { logLine } from '@site/lambda/log';
import { createRetryHandler, createRetryJob, type RetryJob, type RetrySummary } from '@site/lambda/retry';
import type { ApiResponse } from '@site/emulators/api-gateway';
import { postFromViewer, stageThrottle, startApiGateway, startEdge, type ApiHandler } from './edge';
import { emulatorClientConfig, emulatorConnections, emulatorSdkEnv, LOOPBACK, type EmulatorUrls } from '@site/emulators/connections';
import { LOCAL_CONFIGURATION_SET, LOCAL_MAIL, LOCAL_PORTS, LOCAL_STAGE } from '@site/local/defaults';
import { clearSentEmails, ensureMessageTable, startDynamoDb, type RunningServer } from '@site/emulators/servers';
import { startIamGate, type GatedService, type GateCall } from '@site/emulators/iam-gate';
import type { DeployedRoles, StageNames } from '@site/core/node/deployed-roles';
import { cachedDeployedRoles } from '@site/infra/roles-cache';
import { functionEnvironment, HELD_PAGE_ENV } from '@site/core/function-env';
import { startFunctionSandbox, type SandboxProbe } from './function-sandbox';
import { startLocalSes, type LocalSesOptions } from '@site/emulators/local-ses';
import { startLocalMonitoring, type LocalAlarm, type LocalRule } from '@site/emulators/local-monitoring';
import { countMetricLines, type MetricCounts } from './metric-counts';
import { startMetricsPage, type LastCheck } from './metrics-page';
import { checkMarkerKey } from '@site/lambda/check-marker';
import { createOutsideCheckHandler } from '@site/lambda/outside-check-handler';
import type { OutsideCheckRun } from '@site/lambda/outside-check';

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
  /**
   * How often the outside check runs against the local edge, as its schedule runs it against a
   * stage (core/src/outside-check.ts); 0, the default, turns it off (tests call
   * `outsideCheck.run`). `npm start` runs it every minute.
   */
  outsideCheckIntervalMs?: number;
  functionTimeoutMs?: number;
  /** No access log lines. */
  quiet?: boolean;
  /** The API's own address (execute-api's stand-in). Default: a free port; `npm start` passes API_PORT's. */
  apiPort?: number;
  /** The page of the path's counts. Default: a free port; `npm start` passes METRICS_PORT's. */
  metricsPort?: number;
  /** CloudWatch's and EventBridge's reads (local-monitoring.ts). Default: a free port; `npm start` passes MONITORING_PORT's. */
  monitoringPort?: number;
  /**
   * Messages per visitor address per window; 0 turns the limit off (load tests, browser
   * suites that send many). Default: what a deploy with cdk.json as it is would use.
   */
  visitorLimit?: number;
  /** Where the firm's e-mails go (contactRecipient); a mailbox simulator address makes SES answer as it does. */
  contactRecipient?: string;
  /**
   * SES's delivery events for every e-mail, through the consumer, as in AWS (`npm start`):
   * a message moves on to `delivered`, `bounced`, … Off by default, so a test sees the status
   * its own request left.
   */
  deliveryEvents?: boolean;
  /**
   * DynamoDB's and SES's stand-ins already running (a test run's, shared by its files), used
   * instead of starting a pair: the stack gets a table of its own there and an SES of its own
   * in front (its own outbox). It cannot stop them, so stopDynamoDb and stopSes refuse.
   */
  standIns?: EmulatorUrls;
  /**
   * The mail budgets (core/src/spam.ts). Default: what a deploy with cdk.json as it is would
   * use; a test that sends many messages and wants each e-mailed gives larger ones.
   */
  mailBudgets?: Pick<Config, 'mailBudget' | 'siteMailBudget'>;
  /**
   * The API stage's throttle, as the stack's apiRateLimit sets it. None by default: the local
   * product serves one machine, and load tests would hit it; a test of the throttle sets one.
   */
  stageThrottle?: Config['apiRateLimit'];
  /**
   * IAM as AWS evaluates it, in front of both stand-ins: each function's calls are signed with
   * its role and evaluated against the role the CDK app deploys, and refused as AWS refuses
   * them. By default the roles come from a synth of the app (kept between starts while the app is
   * unchanged: cachedDeployedRoles); a test run passes the roles it synthesized once. `false` runs the stand-ins without IAM: for measuring the
   * handler alone, never for a check of what a function may do.
   */
  iam?: LocalIam | false;
}

/** The roles the stand-ins enforce, and where each evaluated call is written down (callLog). */
export interface LocalIam {
  roles: DeployedRoles;
  record?: (call: GateCall) => void;
}

/** Budgets no local trial reaches: every message not suspect is e-mailed (MAIL_BUDGET=0, and every test stack). */
export const LIFTED_MAIL_BUDGETS = {
  mailBudget: { perHour: 100_000, perDay: 100_000 },
  siteMailBudget: { perHour: 100_000, perDay: 100_000 },
} as const satisfies LocalStackOptions['mailBudgets'];

/**
 * A stack of its own for one test file, a benchmark or a robustness run: free ports, data in
 * memory, no access log, and the retry job run only when called.
 */
export const EPHEMERAL_STACK = {
  port: 0,
  dynamoPort: 0,
  sesPort: 0,
  dataDir: null,
  retryIntervalMs: 0,
  quiet: true,
  // So every message a test or a benchmark sends is e-mailed: the budget's own tests give theirs.
  mailBudgets: LIFTED_MAIL_BUDGETS,
} as const satisfies LocalStackOptions;

export interface LocalStack {
  /**
   * `api` is the API without the edge in front: calls there did not come through CloudFront.
   * `metrics` is the page of the path's counts.
   */
  urls: { site: string; api: string; dynamodb: string; ses: string; metrics: string; monitoring: string };
  /** The path's counts, from the metric lines the functions wrote since the stack started. */
  metrics: MetricCounts;
  tableName: string;
  /**
   * The environment the functions are configured from, as Lambda would give it here: their
   * settings (the stack's names, core/src/function-env.ts) and the SDK's (the emulators).
   */
  lambdaEnv: Readonly<Record<string, string>>;
  /** Stops the DynamoDB server (a fault) and starts it again on the same port and data. */
  stopDynamoDb(): Promise<void>;
  startDynamoDb(): Promise<void>;
  stopSes(): Promise<void>;
  startSes(): Promise<void>;
  /**
   * A POST to the API from a viewer at `viewer`, handled as the edge handles one on its port
   * (postFromViewer in edge.ts): for viewers this machine cannot send from, such as IPv6 networks.
   */
  postFromViewer(viewer: { address: string; port: number }, request: { headers: IncomingHttpHeaders; body: Buffer }): Promise<ApiResponse>;
  /** What the contact function's environment holds: what requests added to built-in prototypes, its live heap. */
  probeContactFunction(options: { gc: boolean }): Promise<SandboxProbe>;
  /** Hands an SES event to the delivery-event consumer as EventBridge would, whether or not the local SES publishes its own. */
  deliveryEvent(event: unknown): Promise<void>;
  /** Runs the retry job once, as the schedule would. */
  runRetryJob(): Promise<RetrySummary>;
  /** The outside check: one run now, and the last run's result (the counts page shows it). */
  outsideCheck: { run(): Promise<OutsideCheckRun>; last(): LastCheck | undefined };
  /**
   * What the local CloudFront sends the API as the origin secret from now on: a wrong value, as
   * a rotation left half done would; undefined puts the stack's own back.
   */
  sendOriginSecret(value: string | undefined): void;
  /** The retry job itself, for a run with options of its own (no grace period, say); logs no summary. */
  retryJob: RetryJob;
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

/** A stand-in the stack starts (on a port it is given), or one already running that it only connects to. */
type StandIn = ((port: number) => Promise<RunningServer>) | { running: string };

/**
 * One stand-in behind IAM: its gate (emulators/src/iam-gate.ts) where the clients connect, on
 * `port`, and the stand-in on a port of its own behind it. Without IAM (`iam: false`) the
 * stand-in itself is on `port`. Stopped and started together, so a stopped one refuses
 * connections as a dead endpoint does, and comes back on the same port.
 */
async function behindIam(
  service: GatedService,
  standIn: StandIn,
  gate: { iam: LocalIam | false; names: StageNames },
  port: number,
  variable: string,
) {
  let own: RunningServer | undefined;
  if (typeof standIn === 'function') own = await (gate.iam === false ? onPort(() => standIn(port), port, variable) : standIn(0));
  const upstream = () => own?.url ?? (standIn as { running: string }).running;
  let front: RunningServer | undefined;
  const startGate = async (on: number) => {
    if (gate.iam === false) return undefined;
    const { roles, record } = gate.iam;
    return await startIamGate({ service, upstream: upstream(), roles, record, names: gate.names, port: on });
  };
  front = await onPort(() => startGate(port), port, variable);
  return {
    url: front?.url ?? upstream(),
    standInUrl: upstream(),
    stop: async () => {
      await front?.close();
      await own?.close();
    },
    start: async () => {
      if (typeof standIn === 'function') own = await standIn(own!.port);
      if (front) front = await startGate(front.port);
    },
    close: async () => {
      await Promise.allSettled([front?.close(), own?.close()]);
    },
  };
}

/** What IAM the stack's stand-ins enforce: the stage's roles (or none, `false`), and where each call is recorded. */
async function iamOf(options: LocalStackOptions): Promise<LocalIam | false> {
  if (options.iam !== undefined) return options.iam;
  return { roles: await cachedDeployedRoles() };
}

/**
 * The two stand-ins, each behind IAM, restartable in place: a fault stops one, and it comes
 * back on its port. The local SES hands its delivery events to the consumer, which reaches
 * DynamoDB signed with its own role. With running stand-ins (`standIns`), a table of the
 * stack's own there and an SES of its own in front of theirs, which it cannot stop.
 */
async function startEmulators(options: LocalStackOptions, started: RunningServer[]) {
  const iam = await iamOf(options);
  const shared = options.standIns;
  const path = (options.dataDir === undefined ? DEFAULT_DATA_DIR : options.dataDir) ?? undefined;
  const tableName = shared ? `${DEFAULT_TABLE_NAME}-${randomBytes(4).toString('hex')}` : DEFAULT_TABLE_NAME;
  const names: StageNames = { table: tableName, senderAddress: LOCAL_MAIL.from, configurationSet: LOCAL_CONFIGURATION_SET };

  const dynamo = await behindIam(
    'dynamodb',
    shared ? { running: shared.dynamodb } : (port) => startDynamoDb({ port, path }),
    { iam, names },
    options.dynamoPort ?? (shared ? 0 : LOCAL_PORTS.dynamodb.port),
    LOCAL_PORTS.dynamodb.variable,
  );
  started.push({ url: dynamo.url, port: 0, close: dynamo.close });
  // The table's own maintenance goes to the stand-in itself, as an administrator's would.
  await ensureMessageTable(shared?.dynamodb ?? dynamo.standInUrl, tableName);
  const consumer = deliveryEventConsumer(dynamo.url, tableName);
  const sesOptions: Omit<LocalSesOptions, 'port'> = {
    configurationSet: LOCAL_CONFIGURATION_SET,
    publish: options.deliveryEvents ? consumer : undefined,
    ...(shared && { emulator: shared.ses }),
  };
  const ses = await behindIam(
    'ses',
    (port) => startLocalSes({ ...sesOptions, port }),
    { iam, names },
    options.sesPort ?? (shared ? 0 : LOCAL_PORTS.ses.port),
    LOCAL_PORTS.ses.variable,
  );
  started.push({ url: ses.url, port: 0, close: ses.close });
  // A new stack's SES has sent nothing. aws-ses-v2-local keeps its outbox in its module, so an
  // earlier stack in this process (a test file before, sharing its module graph) left its mail
  // there. startSes below keeps it: a restarted SES has still delivered what it delivered.
  if (!shared) await clearSentEmails(ses.standInUrl);
  const refuse = () =>
    Promise.reject(new Error('A stack on shared stand-ins cannot stop or start them; start it with emulators of its own.'));
  return {
    urls: { dynamodb: dynamo.url, ses: ses.url } satisfies EmulatorUrls,
    gate: { iam, names },
    tableName,
    deliveryEvent: consumer,
    stopDynamoDb: shared ? refuse : dynamo.stop,
    startDynamoDb: shared
      ? refuse
      : async () => {
          await dynamo.start();
          // An in-memory server comes back empty, as a fresh DynamoDB endpoint would be.
          await ensureMessageTable(dynamo.standInUrl, tableName);
        },
    stopSes: shared ? refuse : ses.stop,
    startSes: shared ? refuse : ses.start,
  };
}

/** The consumer of SES's delivery events, as the stack deploys it, reaching the local table with its role. */
function deliveryEventConsumer(dynamodbUrl: string, tableName: string): (event: unknown) => Promise<void> {
  const consumer = createDeliveryEventHandler({
    config: { tableName, stage: LOCAL_STAGE },
    clients: { documents: createDocumentClient(emulatorClientConfig(dynamodbUrl, 'record-delivery-event')) },
  });
  return (event) => consumer(event);
}

/**
 * The functions as the stack deploys them, configured from the environment a deploy with
 * cdk.json as it is would give them (the mail addresses aside), with clients pointed at the
 * emulators. The origin secret is made for this stack, never written anywhere: the local
 * CloudFront (the edge) sends it, as CloudFront does.
 */
function localFunctions(urls: EmulatorUrls, tableName: string, options: LocalStackOptions) {
  const originSecret = randomBytes(32).toString('base64url');
  const visitorLimit = visitorLimitFrom(CDK_JSON_CONTEXT);
  const messages = options.visitorLimit ?? visitorLimit.messages;
  const settings = functionEnvironment({
    stage: LOCAL_STAGE,
    tableName,
    mail: { from: LOCAL_MAIL.from, to: options.contactRecipient ?? LOCAL_MAIL.to },
    configurationSet: LOCAL_CONFIGURATION_SET,
    retentionDays: retentionDaysFrom(CDK_JSON_CONTEXT),
    spamRetentionDays: spamRetentionDaysFrom(CDK_JSON_CONTEXT),
    // The edge's address is known once it listens: the retry job is given it then (retryJobs).
    siteUrl: `http://${LOOPBACK}`,
    deliveryAlarmHours: deliveryAlarmHoursFrom(CDK_JSON_CONTEXT),
    originSecret,
    visitorLimit: {
      messages,
      ipv6Network: ipv6NetworkLimitFrom(CDK_JSON_CONTEXT, messages),
      windowSeconds: visitorLimit.windowMinutes * 60,
    },
    ...(options.mailBudgets ?? mailBudgetsFrom(CDK_JSON_CONTEXT)),
  });
  // Read here as well, so a setting the function would refuse stops the start with its message.
  readContactConfig(settings);
  const lambdaEnv = { ...settings, ...emulatorSdkEnv(urls, 'send-contact-email') };
  return {
    originSecret,
    lambdaEnv,
    /** The contact function in an environment of its own, from its Lambda entry, ended at its timeout as in Lambda. */
    contact: () => startFunctionSandbox({ entry: CONTACT_FUNCTION.entry, functionName: CONTACT_FUNCTION.name, env: lambdaEnv }),
    /** The retry job, whose digest links to the page of held messages on the edge at `siteUrl`. */
    retryJobs(siteUrl: string) {
      const config = readRetryConfig({ ...settings, [HELD_PAGE_ENV.siteUrl]: siteUrl });
      const retryParts = { config, clients: createAwsClients(emulatorConnections(urls, 'retry-undelivered')) };
      return { runRetryJob: createRetryHandler(retryParts), retryJob: createRetryJob(retryParts) };
    },
  };
}

/** The contact function: its Lambda entry, and its name in logs and the Lambda context. */
const CONTACT_FUNCTION = { entry: '@site/lambda/handlers/send-contact-email', name: 'send-contact-email' } as const;

/** The local CloudFront in front of the handler, and the API's own address beside it. */
async function startFrontDoors(handler: ApiHandler, originSecret: string, options: LocalStackOptions, started: RunningServer[]) {
  const common = {
    handler,
    functionName: CONTACT_FUNCTION.name,
    functionTimeoutMs: options.functionTimeoutMs ?? FUNCTION_TIMEOUT_SECONDS * 1000,
    stageThrottle: options.stageThrottle && stageThrottle(options.stageThrottle),
  };
  const accessLog = (prefix: string) => (options.quiet ? undefined : (line: string) => console.log(`${prefix}${line}`));
  const sitePort = options.port ?? LOCAL_PORTS.site.port;
  const edgeOptions = {
    ...common,
    port: sitePort,
    siteDir: options.siteDir ?? DEFAULT_SITE_DIR,
    accessLog: accessLog('edge  '),
    originSecret,
  };
  const edge = await onPort(() => startEdge(edgeOptions), sitePort, LOCAL_PORTS.site.variable);
  started.push(edge);
  const apiPort = options.apiPort ?? 0;
  const api = await onPort(
    () => startApiGateway({ ...common, port: apiPort, accessLog: accessLog('api   ') }),
    apiPort,
    LOCAL_PORTS.api.variable,
  );
  started.push(api);
  return {
    urls: { site: edge.url, api: api.url },
    postFromViewer: (viewer: { address: string; port: number }, request: { headers: IncomingHttpHeaders; body: Buffer }) =>
      postFromViewer(edgeOptions, viewer, request),
    // The edge reads it for every request, as CloudFront adds its origin header to each.
    sendOriginSecret: (value: string | undefined) => {
      edgeOptions.originSecret = value ?? originSecret;
    },
  };
}

/**
 * The outside check as its function runs in a stage, against the local edge with the stack's
 * origin secret, every `intervalMs` (0: only when called); the last result is kept for the
 * counts page.
 */
function outsideCheck(site: string, originSecret: string, intervalMs: number) {
  const run = createOutsideCheckHandler({ config: { siteUrl: site, stage: LOCAL_STAGE, markerKey: checkMarkerKey(originSecret) } });
  let last: LastCheck | undefined;
  const runOnce = async () => {
    const result = await run();
    last = { ...result, at: new Date().toISOString() };
    return result;
  };
  const timer = intervalMs > 0 ? setInterval(() => void runOnce(), intervalMs) : undefined;
  timer?.unref();
  return { run: runOnce, last: () => last, stop: () => clearInterval(timer) };
}

/** Runs the retry job every `intervalMs` (0: never), as EventBridge's schedule does. */
function scheduleRetries(run: () => Promise<unknown>, intervalMs: number): NodeJS.Timeout | undefined {
  if (intervalMs <= 0) return undefined;
  const timer = setInterval(() => {
    run().catch((error: Error) => console.error(logLine({ level: 'error', msg: 'retry job failed', error: error.message })));
  }, intervalMs);
  timer.unref();
  return timer;
}

/**
 * The stack's alarm and schedules as CloudWatch and EventBridge answer them, behind IAM like
 * the other stand-ins: the outside check's alarm follows its last run, each schedule is enabled
 * when its job runs on an interval.
 */
async function startMonitoring(
  options: LocalStackOptions,
  started: RunningServer[],
  gate: { iam: LocalIam | false; names: StageNames },
  lastCheck: () => LastCheck | undefined,
) {
  const alarmName = `${stagePrefix(LOCAL_STAGE)}-OutsideCheckFailed`;
  let alarm: LocalAlarm = { name: alarmName, state: 'INSUFFICIENT_DATA', reason: 'The outside check has not run yet.', since: new Date() };
  const alarms = () => {
    const last = lastCheck();
    if (last === undefined) return [alarm];
    const state = last.passed ? 'OK' : 'ALARM';
    if (state !== alarm.state) {
      const reason = last.passed
        ? 'The outside check passed.'
        : `The outside check failed at ${last.failed?.step}: ${last.failed?.problem}`;
      alarm = { name: alarmName, state, reason, since: new Date(last.at) };
    }
    return [alarm];
  };
  const rule = (fn: 'retry-undelivered' | 'outside-check', intervalMs: number): LocalRule => ({
    name: `${stagePrefix(LOCAL_STAGE)}-${fn}`,
    state: intervalMs > 0 ? 'ENABLED' : 'DISABLED',
    schedule: `rate(${Math.max(1, Math.round(intervalMs / 1000))} seconds)`,
  });
  const rules = () => [
    rule('retry-undelivered', options.retryIntervalMs ?? 60_000),
    rule('outside-check', options.outsideCheckIntervalMs ?? 0),
  ];
  const port = options.monitoringPort ?? 0;
  const monitoring = await behindIam(
    'monitoring',
    (on) => startLocalMonitoring({ port: on, alarms, rules }),
    gate,
    port,
    LOCAL_PORTS.monitoring.variable,
  );
  started.push({ url: monitoring.url, port: 0, close: monitoring.close });
  return monitoring.url;
}

/** The path's counts from the functions' metric lines, and their page. */
async function startMetrics(options: LocalStackOptions, started: RunningServer[], lastCheck: () => LastCheck | undefined) {
  const counts = countMetricLines();
  started.push({ url: '', port: 0, close: () => Promise.resolve(counts.stop()) });
  const port = options.metricsPort ?? 0;
  const page = await onPort(() => startMetricsPage({ port, counts, lastCheck }), port, LOCAL_PORTS.metrics.variable);
  started.push(page);
  return { counts, url: page.url };
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const started: RunningServer[] = [];
  try {
    // First, so the counts include the first line any function writes.
    // The page starts before the check exists, and shows its runs once there are some.
    let lastCheck: () => LastCheck | undefined = () => undefined;
    const metrics = await startMetrics(options, started, () => lastCheck());
    const emulators = await startEmulators(options, started);
    const functions = localFunctions(emulators.urls, emulators.tableName, options);
    const contact = await functions.contact();
    started.push({ url: '', port: 0, close: () => contact.close() });
    const doors = await startFrontDoors(contact.handler, functions.originSecret, options, started);
    const retry = functions.retryJobs(doors.urls.site);
    const timer = scheduleRetries(retry.runRetryJob, options.retryIntervalMs ?? 60_000);
    const check = outsideCheck(doors.urls.site, functions.originSecret, options.outsideCheckIntervalMs ?? 0);
    lastCheck = check.last;
    started.push({ url: '', port: 0, close: () => Promise.resolve(check.stop()) });
    const monitoring = await startMonitoring(options, started, emulators.gate, check.last);
    return {
      urls: { ...doors.urls, ...emulators.urls, metrics: metrics.url, monitoring },
      metrics: metrics.counts,
      tableName: emulators.tableName,
      lambdaEnv: functions.lambdaEnv,
      stopDynamoDb: emulators.stopDynamoDb,
      startDynamoDb: emulators.startDynamoDb,
      stopSes: emulators.stopSes,
      startSes: emulators.startSes,
      postFromViewer: doors.postFromViewer,
      deliveryEvent: emulators.deliveryEvent,
      probeContactFunction: contact.probe,
      runRetryJob: retry.runRetryJob,
      retryJob: retry.retryJob,
      outsideCheck: { run: check.run, last: check.last },
      sendOriginSecret: doors.sendOriginSecret,
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
