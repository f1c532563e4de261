/**
 * The retry job: e-mails stored messages that SES did not accept the first time, backing
 * off exponentially per message, and gives up (status 'failed') after the last attempt. It
 * never sends a held message: it sends the firm's digest of them, at most hourly. Each run
 * also counts what the alarms watch, reading a bounded page whatever the backlog (COUNT_CAP
 * in store.ts): messages still waiting, and messages SES accepted whose delivery it has not
 * confirmed within the delivery alarm's time.
 */
import { RETRY_RUN_LOG } from '@site/core/log-lines';
import type { StoredMessage } from '@site/core/table';
import { deliver, type DeliverySetup, type DeliveryResult } from '../mail/delivery';
import { sendDigest } from '../spam/digest';
import { describeError, errorLocation, withoutDetails, writeLog } from '../shared/log';
import { deliverySetup, systemClock, type FunctionDependencies } from '../dependencies';
import { writeMetrics, type MetricValue } from '../shared/metrics';
import type { RetryConfig } from '../config';
import { countNotDelivered, countUndelivered, leaseForRetry, listUndelivered } from '../store/store';

export interface RetryOptions {
  now?: Date;
  /** Leaves younger messages to the request that is (or may still be) sending them; more than the function timeout. */
  minAgeMs?: number;
  /** Attempts in total, the handler's first one included, before a message is marked 'failed'. */
  maxAttempts?: number;
  /** Wait after the first failed attempt; it doubles after every further one. */
  backoffBaseMs?: number;
  /** Delivery attempts per run, so one run stays well inside its timeout. */
  limit?: number;
}

export interface RetrySummary {
  examined: number;
  delivered: number;
  deferred: number;
  failed: number;
  /** Not yet due, or taken by an overlapping run. */
  skipped: number;
  /** Messages past the grace period that are still undelivered after this run. */
  pending: number;
  /** Messages SES accepted, received longer ago than the delivery alarm's time, whose delivery it has not confirmed. */
  notDelivered: number;
  /** Held messages the firm's digest counted in this run (digest.ts); 0 when none was due or sent. */
  digested: number;
  /** The digest was due, but could not be read, claimed or sent (by error name); the next run tries again. */
  digestError?: string;
}

// The saved query behind the retry job's alarms shows these fields of the run's summary line.
[
  RETRY_RUN_LOG.pendingField,
  RETRY_RUN_LOG.failedField,
  RETRY_RUN_LOG.notDeliveredField,
  RETRY_RUN_LOG.digestErrorField,
] satisfies (keyof RetrySummary)[];

const RETRY_DEFAULTS = {
  minAgeMs: 60_000,
  maxAttempts: 8,
  // 5 min doubling over 7 waits: about 10.5 hours of SES trouble before a message is given up.
  backoffBaseMs: 5 * 60_000,
  limit: 20,
} as const;

// Stops reading the index after this many not-yet-due messages, to bound a run.
const MAX_EXAMINED = 500;
// Consecutive SES failures that mean SES is down: stop, and leave the rest for the next run.
const FAILURES_BEFORE_PAUSE = 3;

/** When the next attempt may start: right away if never tried, else after the doubling wait. */
export function nextAttemptAt(message: Pick<StoredMessage, 'attempts' | 'receivedAt' | 'lastAttemptAt'>, backoffBaseMs: number): number {
  if (message.attempts === 0 || message.lastAttemptAt === undefined) return Date.parse(message.receivedAt);
  return Date.parse(message.lastAttemptAt) + backoffBaseMs * 2 ** (message.attempts - 1);
}

/** One run of the job with these options. */
export type RetryJob = (options?: RetryOptions) => Promise<RetrySummary>;

function logAttempt(message: StoredMessage, result: DeliveryResult): void {
  writeLog({
    level: result.outcome === 'emailed' && !result.recordError ? 'info' : 'warn',
    msg: 'retry delivery',
    messageId: message.id,
    outcome: result.outcome,
    attempts: message.attempts + 1,
    error: result.error,
    recordError: result.recordError,
  });
}

async function runRetry(
  setup: DeliverySetup,
  options: RetryOptions & Pick<RetryConfig, 'deliveryAlarmMinutes' | 'heldLink'> & { now: Date },
): Promise<RetrySummary> {
  const { minAgeMs, maxAttempts, backoffBaseMs, limit } = { ...RETRY_DEFAULTS, ...options };
  const { now } = options;
  const { table } = setup;
  const summary: RetrySummary = { examined: 0, delivered: 0, deferred: 0, failed: 0, skipped: 0, pending: 0, notDelivered: 0, digested: 0 };
  let attemptsMade = 0;
  let failuresInARow = 0;

  for await (const message of listUndelivered(table, new Date(now.getTime() - minAgeMs))) {
    if (attemptsMade >= limit || summary.examined >= MAX_EXAMINED || failuresInARow >= FAILURES_BEFORE_PAUSE) break;
    summary.examined += 1;
    if (nextAttemptAt(message, backoffBaseMs) > now.getTime() || !(await leaseForRetry(table, message, now))) {
      summary.skipped += 1;
      continue;
    }
    attemptsMade += 1;
    const result = await deliver(setup, message, { at: now, isLast: message.attempts + 1 >= maxAttempts });
    failuresInARow = result.outcome === 'emailed' ? 0 : failuresInARow + 1;
    summary[result.outcome === 'emailed' ? 'delivered' : result.outcome] += 1;
    logAttempt(message, result);
  }
  // Held messages never reach this loop (it reads status 'received' only): the firm hears of them here.
  // A digest that cannot be read or sent (a denied read, SES down) is this run's to report, not
  // its end: the counts below are what the alarms on stored messages watch.
  const digest = await sendDigest(setup, options.heldLink, now).catch(
    (error: unknown) => ({ outcome: 'failed', error, count: 0 }) as const,
  );
  if (digest.outcome === 'sent') summary.digested = digest.count;
  if (digest.outcome === 'failed') summary.digestError = describeError(digest.error);
  summary.pending = await countUndelivered(table, new Date(now.getTime() - minAgeMs));
  summary.notDelivered = await countNotDelivered(table, new Date(now.getTime() - options.deliveryAlarmMinutes * 60_000));
  return summary;
}

/** The job, built from its dependencies. */
export function createRetryJob(dependencies: FunctionDependencies<RetryConfig>): RetryJob {
  const setup = deliverySetup(dependencies);
  const clock = dependencies.clock ?? systemClock;
  const { deliveryAlarmMinutes, heldLink } = dependencies.config;
  return (options = {}) => runRetry(setup, { ...options, now: options.now ?? clock(), deliveryAlarmMinutes, heldLink });
}

/** One retry run: its attempts, the e-mails SES took and the messages given up, its digest, and the two levels it found. */
function retryMetrics(summary: RetrySummary): MetricValue[] {
  return [
    { name: 'Retried', value: summary.delivered + summary.deferred + summary.failed },
    { name: 'Digested', value: summary.digested },
    { name: 'DigestFailed', value: summary.digestError === undefined ? 0 : 1 },
    { name: 'Emailed', value: summary.delivered },
    { name: 'GivenUp', value: summary.failed },
    { name: 'RetryBacklog', value: summary.pending },
    { name: 'NotDelivered', value: summary.notDelivered },
  ];
}

/** What the schedule runs: one run with the job's own options, then its metrics and one summary line. */
export function createRetryHandler(dependencies: FunctionDependencies<RetryConfig>): () => Promise<RetrySummary> {
  const job = createRetryJob(dependencies);
  return async () => {
    const started = performance.now();
    let summary: RetrySummary;
    try {
      summary = await job();
    } catch (error) {
      writeLog({ level: 'error', msg: RETRY_RUN_LOG.failedMsg, error: describeError(error), where: errorLocation(error) });
      throw withoutDetails(error);
    }
    writeMetrics(dependencies.config.stage, retryMetrics(summary));
    writeLog({
      level: summary.failed > 0 ? 'error' : 'info',
      msg: RETRY_RUN_LOG.msg,
      ...summary,
      durationMs: Math.round(performance.now() - started),
    });
    return summary;
  };
}
