/**
 * The load generator: valid, distinct contact messages, each with its own Idempotency-Key,
 * sent through the edge the way the page sends them, by a pool of bounded concurrency.
 *
 * A client that gets 429 or 503 (or loses its connection) sends the same body again with
 * the SAME key, as the page does: that is the contract that makes retrying safe, and the
 * suite checks the other side of it (one item, one e-mail per key). Every loop here is
 * bounded twice, by a number of attempts and by a deadline.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { API_PATH, CONTACT_FIELDS, HONEYPOT_FIELD, IDEMPOTENCY_HEADER, type ContactRequestBody, type FieldKind } from '@site/core/contract';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { FIELDS, kindOf } from './contact-fields';
import type { SuiteContext } from './context';
import type { MemorySample } from './protocol';
import { count, mb, ms } from './report';
import {
  markerOf,
  markerOfItem,
  messageIdOf,
  problemsOfEmail,
  problemsOfStoredMessage,
  scanTable,
  sentEmails,
  tally,
  templateTags,
  type Item,
} from './verify';
import { newVisitor } from './visitors';

export interface Submission {
  phase: string;
  index: number;
  /** The loopback address it is sent from: a visitor of its own (see visitors.ts). */
  from?: string;
  key: string;
  /** Unique text inside the message, to find the stored item and the e-mail by content. */
  marker: string;
  body: ContactRequestBody;
}

export interface Attempt {
  /** HTTP status, or 0 when no answer came (connection error or client timeout). */
  status: number;
  startedAt: number;
  endedAt: number;
  error?: string;
}

export interface SubmissionResult {
  submission: Submission;
  attempts: Attempt[];
  /** Status of the last attempt. */
  finalStatus: number;
  id?: string;
}

export interface RetryPolicy {
  maxAttempts: number;
  /** Epoch ms after which no new attempt starts. */
  deadline: number;
  /** Wait before attempt n+1 (n from 1), before jitter. */
  backoffMs(attempt: number): number;
}

/** No request may wait longer than the function's timeout plus a margin: longer is a hang. */
export const CLIENT_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000 + 5_000;

const RETRYABLE = new Set([0, 429, 502, 503, 504]);

/** A small deterministic PRNG, so a run's content is reproducible from its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

const FIRST = [
  'Anna',
  'Bram',
  'Cor',
  'Daan',
  'Eva',
  'Fenna',
  'Gijs',
  'Hanna',
  'Isa',
  'Joost',
  'Kees',
  'Lotte',
  'Maarten',
  'Noor',
  'Olaf',
  'Pien',
];
const LAST = ['de Vries', 'Jansen', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters'];
const COMPANIES = ['Bakkerij Bos', 'Visser Logistiek', 'Meijer & Zn.', 'De Groot Bouw', 'Smit Advies', 'Mulder Techniek'];
const SENTENCES = [
  'Wij zoeken ondersteuning bij de maandafsluiting.',
  'Kunt u ons helpen met een interim controller voor zes maanden?',
  'Graag een offerte voor een doorlichting van onze administratie.',
  'Onze begroting voor volgend jaar moet strakker.',
  'Wij willen de rapportage aan de bank verbeteren.',
  'Is er ruimte voor een kennismakingsgesprek volgende week?',
];

/**
 * Valid messages whose content differs per submission: every field of the table filled by
 * its kind (a name or firm, an address, a number, a few sentences with the marker), the
 * optional ones half the time. Identical bodies would hide a bug that mixes two messages up.
 */
export function makeSubmissions(phase: string, runTag: string, count: number, seed: number): Submission[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const valueOf: Record<FieldKind, (index: number, marker: string) => string> = {
    text: (index) => `${random() < 0.5 ? `${pick(FIRST)} ${pick(LAST)}` : pick(COMPANIES)} ${index}`,
    email: (index) => `bezoeker.${phase.toLowerCase()}.${index}.${runTag.toLowerCase()}@example.nl`,
    phone: () => `06-${String(10_000_000 + Math.floor(random() * 89_999_999))}`,
    // Some messages carry line breaks, as real ones do; the marker stays on a line of its own.
    multiline: (_, marker) => {
      const sentences = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(SENTENCES));
      return `${sentences.join(random() < 0.3 ? '\n' : ' ')}\nKenmerk klant: ${marker}`;
    },
  };
  return Array.from({ length: count }, (_, index) => {
    const marker = `RB${runTag}${phase}N${index}`;
    const fields = FIELDS.filter((field) => CONTACT_FIELDS[field].required || random() < 0.5).map((field) => {
      const value = valueOf[kindOf(field)](index, marker);
      return [field, kindOf(field) === 'multiline' ? value : value.slice(0, CONTACT_FIELDS[field].limit)];
    });
    const body = { ...Object.fromEntries(fields), [HONEYPOT_FIELD]: '' } as ContactRequestBody;
    return { phase, index, from: newVisitor(), key: randomUUID(), marker, body };
  });
}

/**
 * One POST of JSON from `localAddress` (global fetch cannot bind one) on a connection of its
 * own; its status and body, or why none came within CLIENT_TIMEOUT_MS.
 */
function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  localAddress: string | undefined,
): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((settle) => {
    const resolve = (outcome: { status: number; text: string } | { error: string }) => {
      clearTimeout(timer);
      settle(outcome);
    };
    const req = request(url, { method: 'POST', headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.name }));
    });
    const timer = setTimeout(() => {
      resolve({ error: 'client timeout' });
      req.destroy();
    }, CLIENT_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.name }));
    req.end(body);
  });
}

async function attemptOnce(url: string, submission: Submission): Promise<Attempt & { id?: string }> {
  const startedAt = performance.now();
  const answer = await postJson(
    url + API_PATH,
    { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: submission.key },
    JSON.stringify(submission.body),
    submission.from,
  );
  if ('error' in answer) return { status: 0, startedAt, endedAt: performance.now(), error: answer.error };
  let id: string | undefined;
  if (answer.status >= 200 && answer.status < 300) {
    try {
      id = (JSON.parse(answer.text) as { id?: string }).id;
    } catch {
      /* a 2xx without JSON is caught by the checks: no id */
    }
  }
  return { status: answer.status, startedAt, endedAt: performance.now(), id };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one submission until it gets a final answer, retrying with the same key. */
export async function submit(url: string, submission: Submission, policy: RetryPolicy): Promise<SubmissionResult> {
  const attempts: Attempt[] = [];
  let id: string | undefined;
  for (let n = 1; n <= policy.maxAttempts; n += 1) {
    const { id: answeredId, ...attempt } = await attemptOnce(url, submission);
    attempts.push(attempt);
    id = answeredId;
    if (!RETRYABLE.has(attempt.status)) break;
    const wait = policy.backoffMs(n) * (0.5 + Math.random() * 0.5);
    if (Date.now() + wait > policy.deadline) break;
    await sleep(wait);
  }
  return { submission, attempts, finalStatus: attempts.at(-1)!.status, id };
}

/**
 * Runs `worker` over `items` with at most `concurrency` in flight. `stopAt` (epoch ms)
 * bounds the whole pool: items not started by then are reported as not run.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  stopAt = Number.POSITIVE_INFINITY,
): Promise<{ results: (R | undefined)[]; notRun: number }> {
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  let notRun = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      if (Date.now() > stopAt) {
        notRun += 1;
        continue;
      }
      results[index] = await worker(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return { results, notRun };
}

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencyStats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0);
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/** The default policy: quick retries that stop after `maxAttempts` or at the deadline. */
export function standardPolicy(maxAttempts: number, deadline: number, capMs = 1_000): RetryPolicy {
  return { maxAttempts, deadline, backoffMs: (n) => Math.min(capMs, 50 * 2 ** n) };
}

// ---------------------------------------------------------------------------------------
// The load phase: 2,000 messages at concurrency 100, then everything read back.
// ---------------------------------------------------------------------------------------

/**
 * The edge process's RSS, measured after a full GC, may grow by at most this much over the
 * 2,000-message run that follows a warm-up at the same concurrency. The warm-up matters: the
 * first 1,000 messages at concurrency 100 grow V8's heap (heapTotal +70 MB, kept after GC)
 * and the sockets, parsers and pools of 100 connections, a high-water mark of ~150 MB that
 * a leak check must not count. Measured after it, on this 2-core machine, 1,000 messages
 * at a time: +28, +8, +6 MB, and +43 MB over a whole 2,000-message run: what the emulators
 * keep (the SES outbox, ~5 MB per 1,000 e-mails; dynalite's LevelDB) and glibc's caching. A leak of 50 KB per request (an
 * event with its body, an SDK command and response) would add 100 MB over 2,000 requests.
 * The sharper leak detector is the live-heap bound below; the raw RSS is reported beside it.
 */
export const RSS_GROWTH_LIMIT_BYTES = 100 * 1024 * 1024;
/**
 * After a full GC, live heap may grow by at most this much: the outbox (~8 MB) plus margin.
 * Tighter than RSS because GC timing no longer matters: leaking 16 KB of JS objects per
 * request (a response body, a closure holding the event) would exceed it.
 */
export const HEAP_GROWTH_LIMIT_BYTES = 32 * 1024 * 1024;

export interface LoadOptions {
  count: number;
  concurrency: number;
  warmup: number;
}

export async function loadPhase(ctx: SuiteContext, options: LoadOptions): Promise<void> {
  const { report, stack, site, ready, runTag, seed, ledger } = ctx;
  const area = 'load';
  console.log(`\n# Load: ${options.count} valid submissions, concurrency ${options.concurrency}`);

  // Warm-up first, at the load's concurrency, so the memory baseline is taken after module
  // loading, JIT and the heap's growth to 100 concurrent requests, not before.
  const warm = makeSubmissions('WARM', runTag, options.warmup, seed + 1);
  const warmDeadline = Date.now() + 60_000;
  const warmRun = await runPool(
    warm,
    options.concurrency,
    (submission) => submit(site, submission, standardPolicy(10, warmDeadline)),
    warmDeadline,
  );
  const warmOk = warmRun.results.filter((result) => result?.id && result.finalStatus === 200) as SubmissionResult[];
  for (const result of warmOk) ledger.accept({ id: result.id!, phase: 'warm-up', marker: result.submission.marker });

  const rawBefore = await stack.call('memory', { gc: false });
  const gcBefore = await stack.call('memory', { gc: true });

  const submissions = makeSubmissions('LOAD', runTag, options.count, seed + 2);
  const deadline = Date.now() + 120_000;
  const started = performance.now();
  // Half-way sample (no GC, so the load is not paused): shows whether growth levels off.
  let done = 0;
  let midway: Promise<MemorySample> | undefined;
  const run = await runPool(
    submissions,
    options.concurrency,
    async (submission) => {
      const result = await submit(site, submission, standardPolicy(10, deadline));
      if (++done === Math.floor(options.count / 2)) midway = stack.call('memory', { gc: false });
      return result;
    },
    deadline,
  );
  const elapsed = performance.now() - started;
  const rawMidway = await midway;
  report.timing('load: 2,000 submissions', elapsed);

  const rawAfter = await stack.call('memory', { gc: false });
  const gcAfter = await stack.call('memory', { gc: true });

  const results = run.results.filter((result): result is SubmissionResult => result !== undefined);
  const ok = results.filter((result) => result.finalStatus >= 200 && result.finalStatus < 300 && typeof result.id === 'string');
  for (const result of ok) ledger.accept({ id: result.id!, phase: 'load', marker: result.submission.marker });
  const retried = results.filter((result) => result.attempts.length > 1).length;
  const statusCounts = tally(results.flatMap((result) => result.attempts.map((attempt) => attempt.status))).counts;
  const latency = latencyStats(results.flatMap((result) => result.attempts.map((attempt) => attempt.endedAt - attempt.startedAt)));

  report.check(
    area,
    `every submission answered 2xx with an id (${count(ok.length)}/${count(options.count)})`,
    ok.length === options.count && run.notRun === 0,
    `attempt statuses ${[...statusCounts].map(([status, n]) => `${status || 'no answer'}×${n}`).join(', ')}; ${retried} retried with the same key`,
  );

  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const byMarker = new Map<string, Item[]>();
  for (const item of contents.messages) {
    const marker = markerOfItem(item);
    if (marker?.startsWith(`RB${runTag}LOAD`)) byMarker.set(marker, [...(byMarker.get(marker) ?? []), item]);
  }
  const loadItems = [...byMarker.values()].flat();
  const expectedTotal = options.count + warmOk.length;
  report.check(
    area,
    `exactly ${count(options.count)} message items stored for the load (Scan, idempotency records excluded)`,
    loadItems.length === options.count && byMarker.size === options.count && contents.messages.length === expectedTotal,
    `${count(loadItems.length)} load items, ${count(contents.messages.length)} messages in the table incl. ${warmOk.length} warm-up, ${count(contents.idempotency.length)} idempotency records`,
  );
  const idMismatch = ok.filter((result) => byMarker.get(result.submission.marker)?.[0]?.id !== result.id).length;
  report.check(area, 'each answered id is the stored item of that submission', idMismatch === 0, `${idMismatch} mismatched`);
  const notEmailed = loadItems.filter((item) => item.status !== 'emailed').length;
  report.check(area, "every load item has status 'emailed'", notEmailed === 0, `${notEmailed} not emailed`);
  const invalid = loadItems.filter((item) => problemsOfStoredMessage(item).length > 0);
  report.check(
    area,
    'every stored item passes re-validation',
    invalid.length === 0,
    describeProblems(invalid.map((item) => problemsOfStoredMessage(item))),
  );

  const emails = await sentEmails(ready.urls.ses);
  const loadEmails = emails.filter((email) => markerOf(email.body.text)?.startsWith(`RB${runTag}LOAD`));
  const perMarker = tally(loadEmails.map((email) => markerOf(email.body.text)!));
  report.check(
    area,
    `exactly ${count(options.count)} e-mails, one per message, no duplicates (by content marker)`,
    loadEmails.length === options.count && perMarker.counts.size === options.count && perMarker.repeated.length === 0,
    `${count(loadEmails.length)} e-mails, ${count(perMarker.counts.size)} distinct markers, ${perMarker.repeated.length} duplicated`,
  );
  const itemsById = new Map(contents.messages.map((item) => [item.id, item]));
  const wrongId = loadEmails.filter((email) => byMarker.get(markerOf(email.body.text)!)?.[0]?.id !== messageIdOf(email)).length;
  report.check(area, 'each e-mail names the id of the item with the same content', wrongId === 0, `${wrongId} mismatched`);

  ctx.template = { tags: templateTags(loadEmails), skeleton: loadEmails[0]?.body.html ?? '' };
  const unsafe = loadEmails.filter(
    (email) => problemsOfEmail(email, { ...ready, ...ctx.template! }, itemsById.get(messageIdOf(email) ?? '')).length > 0,
  );
  report.check(area, 'every e-mail goes to MAIL_TO only, Reply-To the visitor', unsafe.length === 0, `${unsafe.length} unsafe`);

  const rssGrowth = gcAfter.rss - gcBefore.rss;
  const heapGrowth = gcAfter.heapUsed - gcBefore.heapUsed;
  report.check(
    area,
    `edge process RSS growth (after GC) < ${mb(RSS_GROWTH_LIMIT_BYTES)}`,
    rssGrowth < RSS_GROWTH_LIMIT_BYTES,
    `after GC ${mb(gcBefore.rss)} → ${mb(gcAfter.rss)} (+${mb(rssGrowth)}); raw ${mb(rawBefore.rss)} → ${mb(rawMidway?.rss ?? 0)} at half-way → ${mb(rawAfter.rss)}`,
  );
  report.check(
    area,
    `edge process live heap growth after GC < ${mb(HEAP_GROWTH_LIMIT_BYTES)}`,
    heapGrowth < HEAP_GROWTH_LIMIT_BYTES,
    `heapUsed ${mb(gcBefore.heapUsed)} → ${mb(gcAfter.heapUsed)} (+${mb(heapGrowth)})`,
  );

  const throughput = (options.count / elapsed) * 1000;
  report.row(
    'Load held',
    `${count(ok.length)}/${count(options.count)} 2xx`,
    `concurrency ${options.concurrency}, ${throughput.toFixed(0)} req/s, p50 ${ms(latency.p50)} p99 ${ms(latency.p99)} max ${ms(latency.max)}; ` +
      `${count(loadItems.length)} stored, ${count(loadEmails.length)} e-mailed, ${perMarker.repeated.length} duplicates; ` +
      `edge process RSS ${mb(gcBefore.rss)} → ${mb(gcAfter.rss)} after GC (+${mb(rssGrowth)}, bound +${mb(RSS_GROWTH_LIMIT_BYTES)}; raw peak ${mb(rawAfter.rss)}), live heap +${mb(heapGrowth)}`,
  );
}

/** "3× name is empty, 1× …": rule names only, never stored content. */
export function describeProblems(problemLists: string[][]): string {
  const counts = tally(problemLists.flat()).counts;
  return [...counts].map(([problem, n]) => `${n}× ${problem}`).join('; ') || 'none';
}

/**
 * A double click, or a client retrying while its first request is still running: the same
 * body and key sent several times at once. Whoever claims the key first decides the id;
 * every copy must get that id, and the message is stored and e-mailed once.
 */
export async function sameKeyAtOnce(ctx: SuiteContext, options = { messages: 50, copies: 4, concurrency: 10 }): Promise<void> {
  const { report, site, ready, runTag, seed, ledger } = ctx;
  const area = 'load';
  console.log(`\n# Same Idempotency-Key sent ${options.copies}× at once, for ${options.messages} messages`);
  const started = performance.now();
  const submissions = makeSubmissions('DUP', runTag, options.messages, seed + 6);
  const deadline = Date.now() + 60_000;
  const run = await runPool(
    submissions,
    options.concurrency,
    (submission) => Promise.all(Array.from({ length: options.copies }, () => submit(site, submission, standardPolicy(5, deadline)))),
    deadline,
  );
  const groups = run.results.filter((group): group is SubmissionResult[] => group !== undefined);
  const allOk = groups.every((group) => group.every((result) => result.finalStatus === 200 && result.id));
  const oneId = groups.filter((group) => new Set(group.map((result) => result.id)).size === 1);
  for (const group of oneId) ledger.accept({ id: group[0]!.id!, phase: 'same-key', marker: group[0]!.submission.marker });
  report.check(
    area,
    `every copy answered 200 with the same id (${options.messages} × ${options.copies})`,
    allOk && oneId.length === options.messages,
    `${oneId.length}/${options.messages} messages got one id for all copies`,
  );

  const prefix = `RB${runTag}DUPN`;
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const items = tally(
    contents.messages.map((item) => markerOfItem(item)).filter((marker): marker is string => !!marker?.startsWith(prefix)),
  );
  const emails = tally(
    (await sentEmails(ready.urls.ses))
      .map((email) => markerOf(email.body.text))
      .filter((marker): marker is string => !!marker?.startsWith(prefix)),
  );
  report.check(
    area,
    'one item and one e-mail per key despite concurrent copies',
    items.counts.size === options.messages &&
      items.repeated.length === 0 &&
      emails.counts.size === options.messages &&
      emails.repeated.length === 0,
    `${items.counts.size} items (${items.repeated.length} duplicated), ${emails.counts.size} e-mailed (${emails.repeated.length} more than once)`,
  );
  report.timing('same key at once', performance.now() - started);
  report.row(
    `Same key sent ${options.copies}× at once`,
    report.checks.slice(-2).every((check) => check.ok) ? 'held' : '**FAILED**',
    `${options.messages} messages × ${options.copies} concurrent copies: ${oneId.length} answered one id, ${items.counts.size} stored, ${[...emails.counts.values()].reduce((a, b) => a + b, 0)} e-mails`,
  );
}
