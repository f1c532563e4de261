/**
 * The three faults of issue 6, each against the running stack (the edge is never
 * restarted), each checked by reading the table and the outbox back:
 *   (a) DynamoDB stopped in the middle of a load run, then started again;
 *   (b) SES stopped, messages accepted, SES started, the retry job delivers;
 *   (c) SES slower than the handler's SES timeout, behind a delaying proxy.
 */
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import type { SentEmail } from '@site/emulators/servers';
import { sleep, type SuiteContext } from './context';
import { startDelayProxy, type DelayProxy } from './delay-proxy';
import { standardPolicy, submit, type SubmissionResult } from './client';
import { latencyStats, runPool } from './pool';
import { makeSubmissions, type Submission } from './submissions';
import type { RetryRunSummary } from './protocol';
import { count, ms } from './report';
import { markerOf, markerOfItem, messageIdOf, scanTable, sentEmails, tally, type Item } from './verify';

const FUNCTION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;

interface ReadBack {
  items: Map<string, Item[]>;
  emails: Map<string, SentEmail[]>;
}

/** This phase's items and e-mails, by content marker. */
async function readBack(ctx: SuiteContext, phase: string): Promise<ReadBack> {
  const prefix = `RB${ctx.runTag}${phase}N`;
  const contents = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  const items = new Map<string, Item[]>();
  for (const item of contents.messages) {
    const marker = markerOfItem(item);
    if (marker?.startsWith(prefix)) items.set(marker, [...(items.get(marker) ?? []), item]);
  }
  const emails = new Map<string, SentEmail[]>();
  for (const email of await sentEmails(ctx.ready.urls.ses)) {
    const marker = markerOf(email.body.text);
    if (marker?.startsWith(prefix)) emails.set(marker, [...(emails.get(marker) ?? []), email]);
  }
  return { items, emails };
}

/**
 * Message ids whose e-mail went out but whose status update failed (logged by the handler
 * or the retry job). For these the design accepts a second e-mail ("a second e-mail is
 * better than a message nobody reads"); a duplicate of any other message is a bug.
 */
function sentButNotRecorded(ctx: SuiteContext): Set<string> {
  const ids = new Set<string>();
  for (const entry of ctx.stack.logs) {
    const recordFailed =
      (entry.msg === 'contact request' && typeof entry.error === 'string' && entry.error.includes('record:')) ||
      (entry.msg === 'retry delivery' && entry.outcome === 'emailed' && typeof entry.recordError === 'string');
    if (recordFailed && typeof entry.messageId === 'string') ids.add(entry.messageId);
  }
  return ids;
}

/** Runs the retry job (grace period bypassed) until nothing of `phase` is left to send, at most `runs` times. */
async function retryUntilDelivered(ctx: SuiteContext, phase: string, runs = 10): Promise<RetryRunSummary & { runs: number }> {
  const total = { examined: 0, delivered: 0, deferred: 0, failed: 0, skipped: 0, runs: 0 };
  for (let run = 0; run < runs; run += 1) {
    const summary = await ctx.stack.call('runRetryJob', { bypassGrace: true }, 120_000);
    total.runs += 1;
    for (const key of ['examined', 'delivered', 'deferred', 'failed', 'skipped'] as const) total[key] += summary[key];
    const { items } = await readBack(ctx, phase);
    if ([...items.values()].flat().every((item) => item.status !== 'received')) break;
  }
  return total;
}

function accept(ctx: SuiteContext, phase: string, results: SubmissionResult[]): SubmissionResult[] {
  const ok = results.filter((result) => result.finalStatus === 200 && typeof result.id === 'string');
  for (const result of ok) ctx.ledger.accept({ id: result.id!, phase, marker: result.submission.marker });
  return ok;
}

/** Common end of every fault: one item per submission, the answered id, e-mails, duplicates. */
function checkDelivered(
  ctx: SuiteContext,
  area: string,
  results: SubmissionResult[],
  back: ReadBack,
  allowDuplicatesFor: Set<string> | 'all',
) {
  const { report } = ctx;
  const n = results.length;
  const items = [...back.items.values()];
  const oneEach = results.every((result) => back.items.get(result.submission.marker)?.length === 1);
  report.check(
    area,
    'exactly one stored item per submission (same key → one item)',
    oneEach && items.length === n,
    `${count(items.flat().length)} items for ${n} submissions`,
  );
  const idMatches = results.filter((result) => back.items.get(result.submission.marker)?.[0]?.id === result.id).length;
  report.check(area, 'every answered id is the stored item', idMatches === n, `${idMatches}/${n}`);
  const emailed = items.flat().filter((item) => item.status === 'emailed').length;
  report.check(area, "every message ends 'emailed'", emailed === n, `${emailed}/${n}`);
  const missing = results.filter((result) => !back.emails.get(result.submission.marker)?.length).length;
  report.check(area, 'every message e-mailed at least once (nothing lost)', missing === 0, `${missing} without e-mail`);
  const duplicated = results.filter((result) => (back.emails.get(result.submission.marker)?.length ?? 0) > 1);
  const extra = duplicated.reduce((sum, result) => sum + back.emails.get(result.submission.marker)!.length - 1, 0);
  if (allowDuplicatesFor !== 'all') {
    const unexplained = duplicated.filter((result) => !allowDuplicatesFor.has(result.id!));
    report.check(
      area,
      'no duplicate e-mail, except where the send succeeded but its status update failed',
      unexplained.length === 0,
      `${duplicated.length} messages with ${extra} extra e-mails, ${unexplained.length} unexplained`,
    );
  }
  // An e-mail must name the item it belongs to: a message that was not stored is never sent.
  const orphaned = [...back.emails.entries()].filter(([marker, emails]) =>
    emails.some((email) => messageIdOf(email) !== back.items.get(marker)?.[0]?.id),
  ).length;
  report.check(area, 'every e-mail names a stored item', orphaned === 0, `${orphaned} e-mails without their item`);
  return { duplicated: duplicated.length, extra };
}

// ---------------------------------------------------------------------------------------

/** When DynamoDB was stopped and started again (performance.now()). */
interface OutageWindow {
  stopAt: number;
  stopped: number;
  restartAt: number;
  restarted: number;
}

interface DynamoDbOutageOptions {
  count: number;
  concurrency: number;
  outageMs: number;
  /** How many submissions complete before DynamoDB is stopped. */
  stopAfter: number;
}

/** (a) DynamoDB stopped in the middle of a load run. */
export async function dynamoDbOutage(
  ctx: SuiteContext,
  options: DynamoDbOutageOptions = { count: 600, concurrency: 50, outageMs: 3_000, stopAfter: 150 },
): Promise<void> {
  const { report } = ctx;
  const area = 'fault: DynamoDB';
  console.log(`\n# Fault (a): DynamoDB stopped for ${options.outageMs} ms after ${options.stopAfter} of ${options.count} submissions`);
  const phaseStarted = performance.now();
  const { results, notRun, window } = await loadThroughOutage(ctx, options);
  const elapsed = performance.now() - phaseStarted;
  const ok = accept(ctx, 'fault-ddb', results);
  const felt = checkAnswersThroughOutage(ctx, area, results, window);
  report.check(
    area,
    'service resumed without restarting the edge: every client succeeded with its same key',
    ok.length === options.count && notRun === 0,
    `${ok.length}/${options.count} answered 200; ${results.filter((result) => result.attempts.length > 1).length} needed retries`,
  );

  // Messages stored before the outage whose 'emailed' update was cut off, and messages whose
  // store succeeded on a retry after an answer was lost, stay 'received': the retry job's
  // business. Run it as a later scheduled run would (grace period passed).
  const retry = await retryUntilDelivered(ctx, 'DDB');
  const back = await readBack(ctx, 'DDB');
  const { duplicated, extra } = checkDelivered(ctx, area, ok, back, sentButNotRecorded(ctx));
  report.timing('fault (a): DynamoDB outage', elapsed);
  report.row(
    'Fault (a): DynamoDB stopped mid-load',
    report.areaOk(area) ? 'survived' : '**FAILED**',
    `${options.count} submissions at concurrency ${options.concurrency}; down ${((window.restarted - window.stopAt) / 1000).toFixed(1)} s; ` +
      `${felt.answered503} × 503 (max ${ms(felt.outageLatency.max)} during outage, bound ${FUNCTION_TIMEOUT_SECONDS} s); ` +
      `during outage ${[...felt.outageStatuses].map(([s, n]) => `${s || 'none'}×${n}`).join(' ')}; ` +
      `${ok.length} succeeded after restart with the same key; retry job delivered ${retry.delivered}; ` +
      `${duplicated} messages e-mailed twice (${extra} extra)`,
  );
}

/** The load run, with DynamoDB stopped after `stopAfter` submissions and started again `outageMs` later. */
async function loadThroughOutage(
  ctx: SuiteContext,
  options: DynamoDbOutageOptions,
): Promise<{ results: SubmissionResult[]; notRun: number; window: OutageWindow }> {
  const { stack, site } = ctx;
  const submissions = makeSubmissions('DDB', ctx.runTag, options.count, ctx.seed + 3);
  const deadline = Date.now() + 120_000;
  // Patient clients: up to 60 attempts, back-off capped at 1 s, within the deadline.
  const policy = standardPolicy(60, deadline, 1_000);
  const window: OutageWindow = { stopAt: 0, stopped: 0, restartAt: 0, restarted: 0 };
  const stopAndRestart = async () => {
    window.stopAt = performance.now();
    await stack.call('stopDynamoDb', undefined);
    window.stopped = performance.now();
    await sleep(options.outageMs);
    window.restartAt = performance.now();
    await stack.call('startDynamoDb', undefined);
    window.restarted = performance.now();
  };
  let completed = 0;
  let outage: Promise<void> | undefined;
  const run = await runPool(
    submissions,
    options.concurrency,
    async (submission) => {
      const result = await submit(site, submission, policy);
      completed += 1;
      if (completed === options.stopAfter && !outage) outage = stopAndRestart();
      return result;
    },
    deadline,
  ).finally(async () => {
    // Whatever happened above, DynamoDB runs again before the next phase (idempotent).
    await outage?.catch(() => undefined);
    await stack.call('startDynamoDb', undefined);
  });
  await outage;
  return { results: run.results.filter((result): result is SubmissionResult => result !== undefined), notRun: run.notRun, window };
}

/** The outage was felt as 503s, and only as 503s, each within the function timeout. */
function checkAnswersThroughOutage(ctx: SuiteContext, area: string, results: SubmissionResult[], window: OutageWindow) {
  const { report } = ctx;
  const attempts = results.flatMap((result) => result.attempts);
  const duringOutage = attempts.filter((attempt) => attempt.endedAt >= window.stopAt && attempt.startedAt <= window.restartAt);
  const statuses = tally(attempts.map((attempt) => attempt.status)).counts;
  const outageStatuses = tally(duringOutage.map((attempt) => attempt.status)).counts;
  const answered503 = statuses.get(503) ?? 0;
  const maxLatency = Math.max(...attempts.map((attempt) => attempt.endedAt - attempt.startedAt));
  const outageLatency = latencyStats(duringOutage.map((attempt) => attempt.endedAt - attempt.startedAt));
  report.check(
    area,
    'the outage was felt: requests answered 503 while DynamoDB was down',
    answered503 > 0,
    `${answered503} × 503 of ${attempts.length} attempts`,
  );
  const unexpected = [...statuses].filter(([status]) => status !== 200 && status !== 503);
  report.check(
    area,
    'every answer was 200 or 503 (no 500, no timeout, no dropped connection)',
    unexpected.length === 0,
    [...statuses].map(([status, n]) => `${status || 'no answer'}×${n}`).join(', '),
  );
  report.check(
    area,
    `no hang: every answer within the function timeout (${FUNCTION_TIMEOUT_SECONDS} s)`,
    maxLatency < FUNCTION_TIMEOUT_MS,
    `max ${ms(maxLatency)}; during the outage p99 ${ms(outageLatency.p99)} max ${ms(outageLatency.max)} over ${outageLatency.count} attempts`,
  );
  return { answered503, outageStatuses, outageLatency };
}

/** (b) SES stopped: messages accepted and stored 'received'; after SES returns the retry job delivers each once. */
export async function sesOutage(ctx: SuiteContext, options = { count: 100, concurrency: 20 }): Promise<void> {
  const { report, stack } = ctx;
  const area = 'fault: SES down';
  console.log(`\n# Fault (b): SES stopped, ${options.count} submissions, then SES started and the retry job run`);
  const phaseStarted = performance.now();
  await stack.call('stopSes', undefined);
  let results: SubmissionResult[] = [];
  try {
    results = await sendAll(ctx, makeSubmissions('SESDOWN', ctx.runTag, options.count, ctx.seed + 4), options.concurrency, 5);
  } finally {
    // The outbox is read through SES's own HTTP API, so SES must be back before any check.
    await stack.call('startSes', undefined);
  }
  const ok = accept(ctx, 'fault-ses-down', results);
  const latency = latencyOf(results);
  report.check(
    area,
    'every submission answered 200 {id} while SES was down',
    ok.length === options.count,
    `${ok.length}/${options.count}; max ${ms(latency.max)}`,
  );
  report.check(
    area,
    `answers within the function timeout (${FUNCTION_TIMEOUT_SECONDS} s)`,
    latency.max < FUNCTION_TIMEOUT_MS,
    `max ${ms(latency.max)}`,
  );
  await checkHeldWhileSesDown(ctx, area, options.count);

  const retry = await retryUntilDelivered(ctx, 'SESDOWN');
  const back = await readBack(ctx, 'SESDOWN');
  const { duplicated, extra } = checkDelivered(ctx, area, ok, back, new Set());
  report.check(
    area,
    'the retry job delivered every message exactly once',
    retry.delivered === options.count && duplicated === 0,
    `delivered ${retry.delivered} in ${retry.runs} run(s); ${extra} extra`,
  );
  const elapsed = performance.now() - phaseStarted;
  report.timing('fault (b): SES down', elapsed);
  report.row(
    'Fault (b): SES stopped',
    report.areaOk(area) ? 'survived' : '**FAILED**',
    `${options.count} answered 200 (max ${ms(latency.max)}) and stored 'received'; after SES returned the retry job delivered ${retry.delivered} in ${retry.runs} run(s), ${duplicated} duplicates`,
  );
}

/**
 * Before any retry run: every message waits as 'received' with its failed attempt counted,
 * nothing went out, and the schedule's own run leaves messages younger than its grace
 * period alone (a request may still be sending them).
 */
async function checkHeldWhileSesDown(ctx: SuiteContext, area: string, expected: number): Promise<void> {
  const { report, stack } = ctx;
  const during = await readBack(ctx, 'SESDOWN');
  const received = [...during.items.values()].flat().filter((item) => item.status === 'received' && (item.attempts as number) >= 1).length;
  report.check(
    area,
    "every message stored as 'received' with its failed attempt counted",
    received === expected,
    `${received}/${expected}`,
  );
  const sentWhileDown = [...during.emails.values()].flat().length;
  report.check(area, 'nothing e-mailed while SES was down', sentWhileDown === 0, `${sentWhileDown}`);
  const scheduled = await stack.call('runRetryJob', { bypassGrace: false });
  report.check(
    area,
    'the scheduled run keeps its grace period (messages younger than it are not resent)',
    scheduled.delivered === 0,
    `delivered ${scheduled.delivered}, examined ${scheduled.examined}`,
  );
}

/**
 * (c) SES slower than the handler's SES request timeout. The handler must still answer in
 * time (200, 'received'); the retry job delivers later. A slow SES may still accept the
 * sends the handler gave up on, so more than one copy can arrive: measured and reported.
 */
export async function sesSlow(ctx: SuiteContext, options = { count: 10 }): Promise<void> {
  const { report } = ctx;
  const area = 'fault: SES slow';
  const requestTimeoutMs = AWS_CLIENT_OPTIONS.requestHandler.requestTimeout;
  const delayMs = requestTimeoutMs + 1_000;
  const sdkAttempts = AWS_CLIENT_OPTIONS.maxAttempts;
  console.log(
    `\n# Fault (c): SES behind a proxy that delays every request ${delayMs} ms (handler's SES request timeout ${requestTimeoutMs} ms)`,
  );
  const phaseStarted = performance.now();
  const { results, proxied } = await sendThroughSlowSes(ctx, options.count, delayMs, delayMs * sdkAttempts + 10_000);
  const ok = accept(ctx, 'fault-ses-slow', results);
  const latency = latencyOf(results);
  report.check(
    area,
    `every submission answered 200 inside the function timeout (${FUNCTION_TIMEOUT_SECONDS} s)`,
    ok.length === options.count && latency.max < FUNCTION_TIMEOUT_MS,
    `${ok.length}/${options.count}; latency p50 ${ms(latency.p50)} max ${ms(latency.max)}`,
  );
  const before = await readBack(ctx, 'SESSLOW');
  const stillReceived = [...before.items.values()].flat().filter((item) => item.status === 'received').length;
  const lateCopies = [...before.emails.values()].flat().length;
  report.check(
    area,
    "messages stored 'received' (the handler gave up on SES)",
    stillReceived === options.count,
    `${stillReceived}/${options.count}`,
  );

  const retry = await retryUntilDelivered(ctx, 'SESSLOW');
  const back = await readBack(ctx, 'SESSLOW');
  const { duplicated, extra } = checkDelivered(ctx, area, ok, back, 'all');
  const copies = tally([...back.emails.values()].map((emails) => emails.length)).counts;
  report.timing('fault (c): SES slow', performance.now() - phaseStarted);
  report.row(
    'Fault (c): SES slower than its timeout',
    report.areaOk(area) ? 'survived (at-least-once)' : '**FAILED**',
    `proxy delay ${delayMs} ms vs SES request timeout ${requestTimeoutMs} ms × ${sdkAttempts} SDK attempts; ${ok.length}/${options.count} answered 200, max ${ms(latency.max)}; ` +
      `proxy saw ${proxied.received} SendEmail calls, ${proxied.answeredAfterClientLeft} accepted after the handler gave up (${lateCopies} late copies in the outbox); ` +
      `retry job delivered ${retry.delivered}; copies per message ${[...copies].map(([k, n]) => `${k}×:${n}`).join(' ')}; ` +
      `${duplicated}/${options.count} messages duplicated (${extra} extra e-mails)`,
  );
}

/**
 * Sends `count` submissions at once with SES behind a proxy that holds every request
 * `delayMs`. Afterwards every held request reaches SES (a slow service finishes what it
 * received), within `drainMs`, and the emulator is back as it was.
 */
async function sendThroughSlowSes(
  ctx: SuiteContext,
  count: number,
  delayMs: number,
  drainMs: number,
): Promise<{ results: SubmissionResult[]; proxied: DelayProxy['stats'] }> {
  const { stack, ready } = ctx;
  await stack.call('stopSes', undefined);
  let proxy: DelayProxy | undefined;
  try {
    const backend = await stack.call('startSesBackend', undefined);
    proxy = await startDelayProxy({ port: Number(new URL(ready.urls.ses).port), target: backend.url, delayMs });
    const results = await sendAll(ctx, makeSubmissions('SESSLOW', ctx.runTag, count, ctx.seed + 5), count, 3);
    // Counted on as the proxy drains below.
    return { results, proxied: proxy.stats };
  } finally {
    await proxy?.drain(drainMs);
    await proxy?.close();
    await stack.call('stopSesBackend', undefined);
    await stack.call('startSes', undefined);
  }
}

/** Sends every submission, `concurrency` at a time, each retried up to `maxAttempts` within a minute. */
async function sendAll(
  ctx: SuiteContext,
  submissions: Submission[],
  concurrency: number,
  maxAttempts: number,
): Promise<SubmissionResult[]> {
  const deadline = Date.now() + 60_000;
  const run = await runPool(
    submissions,
    concurrency,
    (submission) => submit(ctx.site, submission, standardPolicy(maxAttempts, deadline)),
    deadline,
  );
  return run.results.filter((result): result is SubmissionResult => result !== undefined);
}

/** The latency of every attempt of these submissions. */
const latencyOf = (results: SubmissionResult[]) =>
  latencyStats(results.flatMap((result) => result.attempts.map((attempt) => attempt.endedAt - attempt.startedAt)));
