/**
 * The messages between the suite (parent) and the stack process (child). Kept in a module
 * of its own, with types only, so both sides import it without running the other's code.
 */

/** Given to the child in ROBUSTNESS_STACK_CONFIG, as JSON. */
export interface StackProcessConfig {
  /** A temp dir: dynalite keeps its LevelDB there, so a DynamoDB restart keeps the data. */
  dataDir: string;
  siteDir: string;
  /** Messages per visitor per window; 0 turns the limit off. Default: the deploy's. */
  visitorLimit?: number;
}

/** What the child reports once the stack listens. */
export interface ReadyMessage {
  type: 'ready';
  pid: number;
  urls: { site: string; dynamodb: string; ses: string };
  tableName: string;
  /** The handler's configuration as the stack set it, for the e-mail checks. */
  mailFrom: string;
  mailTo: string[];
}

export interface FatalMessage {
  type: 'fatal';
  error: string;
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface RetryRunOptions {
  /**
   * false: exactly what the schedule runs (the stack's runRetryJob, real grace period and
   * backoff). true: the job's own `retryUndelivered` with grace period and backoff set to 0,
   * as a later scheduled run would behave, without waiting minutes in the suite.
   */
  bypassGrace: boolean;
}

export interface RetryRunSummary {
  examined: number;
  delivered: number;
  deferred: number;
  failed: number;
  skipped: number;
}

/** Names added to a built-in prototype since the child started: any entry is pollution. */
export interface PrototypeReport {
  added: string[];
}

export interface ViewerPost {
  address: string;
  port: number;
  headers: Record<string, string>;
  body: string;
}

/** Commands and their results, one table so the client is typed end to end. */
export interface Commands {
  stopDynamoDb: { args: void; result: void };
  startDynamoDb: { args: void; result: void };
  stopSes: { args: void; result: void };
  startSes: { args: void; result: void };
  /** A second SES emulator on a free port (for the proxies); it shares the first one's outbox. */
  startSesBackend: { args: void; result: { url: string } };
  stopSesBackend: { args: void; result: void };
  /** Stops the stack's DynamoDB and serves its data from a free port, for a proxy to take the stack's port. */
  startDynamoDbBackend: { args: void; result: { url: string } };
  stopDynamoDbBackend: { args: void; result: void };
  runRetryJob: { args: RetryRunOptions; result: RetryRunSummary };
  /** A JSON POST to the API as the edge handles it from a viewer at `address` (IPv6 networks loopback cannot be). */
  postFromViewer: { args: ViewerPost; result: { status: number; body: string } };
  /** An SES event handed to the stack's delivery-event consumer, as EventBridge hands it one. */
  deliveryEvent: { args: { event: unknown }; result: void };
  memory: { args: { gc: boolean }; result: MemorySample };
  prototypes: { args: void; result: PrototypeReport };
  close: { args: void; result: void };
}

export type CommandName = keyof Commands;

export interface CommandRequest<K extends CommandName = CommandName> {
  id: number;
  cmd: K;
  args: Commands[K]['args'];
}

export type CommandReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
