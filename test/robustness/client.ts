/**
 * The suite's client: a JSON POST the way the page sends one, from a visitor address of its
 * own, retried with the SAME Idempotency-Key after 429, 503 or a lost connection, as the
 * page does. Every attempt is bounded by CLIENT_TIMEOUT_MS, every retry loop by a number of
 * attempts and a deadline.
 */
import { request } from 'node:http';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import type { Submission } from './submissions';

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

/** The default policy: quick retries that stop after `maxAttempts` or at the deadline. */
export function standardPolicy(maxAttempts: number, deadline: number, capMs = 1_000): RetryPolicy {
  return { maxAttempts, deadline, backoffMs: (n) => Math.min(capMs, 50 * 2 ** n) };
}
