/**
 * What a visitor does, through a stage's public address, as one run of steps
 * (core/src/outside-check.ts): the page, one of its hashed assets, the proof-of-work challenge
 * (solved here as the page's worker solves it), and a complete contact post with the stamp. A run
 * stops at the first step that fails and says why in one line: a status, a missing part, no
 * answer and why; never a page's text. The outside check's function runs it with its marker
 * (outside-check-handler.ts); `npm run smoke` runs the same steps, its `--deliver` post without
 * one. Its only I/O is fetch.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { HASHED_ASSET_PREFIX } from '@site/core/cache-control';
import { API_PATH, CHALLENGE_PATH, STAMP_FIELD, type ContactRequestBody } from '@site/core/contract';
import { OUTSIDE_CHECK, OUTSIDE_CHECK_HEADER, OUTSIDE_CHECK_STEPS, type OutsideCheckStep } from '@site/core/outside-check';

/** An answer as the steps read it: header names in lower case, the body as text. */
export interface SiteAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** No answer at all: the reason in a few words (`connection refused`, `TLS certificate expired`). */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What Node's network errors mean, by code. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed before an answer',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
};

/** Why a request got no answer, in a few words. */
export function noAnswerReason(error: unknown, timeoutMs: number): string {
  const { name, cause } = error as { name?: string; cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const code = cause?.code;
  if (code) return REASONS[code] ?? code;
  return cause?.message ?? (error as Error).message ?? String(error);
}

export interface SiteRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request; redirects are answers too, reported rather than followed. Throws NoAnswer when none came. */
export async function requestSite(request: SiteRequest, timeoutMs: number): Promise<SiteAnswer & { bytes: Buffer }> {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body: bytes.toString('utf8'), bytes };
  } catch (error) {
    throw new NoAnswer(noAnswerReason(error, timeoutMs));
  }
}

/** The first hashed asset the page loads (script or stylesheet). */
export function hashedAssetPath(html: string): string | undefined {
  const prefix = HASHED_ASSET_PREFIX.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?:src|href)="(${prefix}[^"?#]+)"`).exec(html)?.[1];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function json(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return isRecord(value) && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A signed altcha-lib challenge, as far as the solve needs it. */
function challengeOf(value: unknown): Challenge | undefined {
  if (!isRecord(value) || !isRecord(value.parameters) || typeof value.signature !== 'string') return undefined;
  const { algorithm, nonce, salt, keyPrefix, cost } = value.parameters;
  return [algorithm, nonce, salt, keyPrefix].every((part) => typeof part === 'string') && typeof cost === 'number'
    ? (value as unknown as Challenge)
    : undefined;
}

/** The stamp for `challenge` as the page's worker makes it: altcha-lib's payload as base64 of its JSON; undefined when unsolved. */
export async function solveStamp(challenge: Challenge, timeoutMs: number): Promise<string | undefined> {
  const { parameters, signature } = challenge;
  const solution = await solveChallenge({ challenge: { parameters, signature }, deriveKey, timeout: timeoutMs });
  return solution === null ? undefined : Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/** What the check's post answers besides the id: whether the stamp held and SES took its e-mail (contact-handler.ts). */
export interface CheckAnswer {
  stamp: string;
  emailed: boolean;
}

export interface StepResult {
  step: OutsideCheckStep;
  ms: number;
  /** Why it failed; none when it worked. */
  problem?: string;
}

export interface OutsideCheckRun {
  passed: boolean;
  steps: StepResult[];
  /** The step that failed and why, when one did. */
  failed?: { step: OutsideCheckStep; problem: string };
  /** The post's message id (the check's: `check#…`), when it was stored. */
  messageId?: string;
}

export interface OutsideCheckOptions {
  /** The site's base URL, without a trailing slash. */
  site: string;
  /** What the post sends, its stamp added; needed unless the run stops before the post (`until`). */
  message?: Pick<ContactRequestBody, 'name' | 'email' | 'message'>;
  /** The outside check's marker for its post; without it the post is a visitor's message (`npm run smoke -- --deliver`). */
  marker?: () => string;
  /** Each request's wait. */
  timeoutMs?: number;
  /** Awaited between the solve and the post, with when the challenge was issued. */
  beforePost?: (issuedAt: Date) => Promise<void>;
  /** The last step to take: `challenge` stops before anything is posted (`npm run smoke` without --deliver). */
  until?: OutsideCheckStep;
}

class StepFailed extends Error {}

const fail = (problem: string): never => {
  throw new StepFailed(problem);
};

/** `GET /` answered 503: `…`: the status and, from a JSON error answer, its text. */
function answered(request: string, answer: SiteAnswer): string {
  const location = answer.headers.location ? ` to ${answer.headers.location}` : '';
  const error = json(answer.body)?.error;
  return `${request} answered ${answer.status}${location}${typeof error === 'string' ? `: ${error}` : ''}`;
}

/** The steps in order, each handing the next what it needs. */
function steps(options: Required<Pick<OutsideCheckOptions, 'site' | 'timeoutMs'>> & OutsideCheckOptions) {
  const get = (path: string) => requestSite({ method: 'GET', url: `${options.site}${path}` }, options.timeoutMs);
  let assetPath: string | undefined;
  let stamp: string | undefined;
  let issuedAt = new Date();
  let messageId: string | undefined;
  return {
    messageId: () => messageId,
    run: {
      async page() {
        const answer = await get('/');
        if (answer.status !== 200) fail(answered('GET /', answer));
        if (!answer.headers['content-type']?.startsWith('text/html'))
          fail(`GET / is ${answer.headers['content-type'] ?? 'untyped'}, not HTML`);
        assetPath = hashedAssetPath(answer.body) ?? fail(`the page loads nothing from ${HASHED_ASSET_PREFIX}`);
      },
      async asset() {
        const answer = await get(assetPath!);
        if (answer.status !== 200) fail(answered(`GET ${assetPath}`, answer));
      },
      async challenge() {
        const answer = await get(CHALLENGE_PATH);
        if (answer.status !== 200) fail(answered(`GET ${CHALLENGE_PATH}`, answer));
        const challenge = challengeOf(json(answer.body)?.challenge) ?? fail(`GET ${CHALLENGE_PATH} answered no challenge`);
        const issued = (challenge.parameters.data as { issuedAt?: unknown } | undefined)?.issuedAt;
        if (typeof issued === 'number') issuedAt = new Date(issued * 1000);
        stamp =
          (await solveStamp(challenge, options.timeoutMs)) ?? fail(`the challenge was not solved within ${options.timeoutMs / 1000} s`);
      },
      async post() {
        const message = options.message ?? fail('no message to post');
        await options.beforePost?.(issuedAt);
        const answer = await requestSite(
          {
            method: 'POST',
            url: `${options.site}${API_PATH}`,
            headers: { 'Content-Type': 'application/json', ...(options.marker && { [OUTSIDE_CHECK_HEADER]: options.marker() }) },
            body: JSON.stringify({ ...message, [STAMP_FIELD]: stamp }),
          },
          options.timeoutMs,
        );
        const body = json(answer.body);
        if (answer.status !== 200) fail(answered(`POST ${API_PATH}`, answer));
        if (typeof body?.id !== 'string') fail(`POST ${API_PATH} answered 200 without a message id`);
        messageId = body!.id as string;
        if (!options.marker) return;
        const check = body!.check as Partial<CheckAnswer> | undefined;
        if (check === undefined) fail(`POST ${API_PATH} took the check's post for a visitor's: the marker did not reach the function`);
        if (check!.stamp !== 'valid') fail(`the contact function did not accept the solved stamp (${String(check!.stamp)})`);
        if (check!.emailed !== true) fail("SES did not accept the check's e-mail to the mailbox simulator");
      },
    } satisfies Record<OutsideCheckStep, () => Promise<void>>,
  };
}

/** One run: every step in order until one fails. Never throws for what the site answers. */
export async function runOutsideCheck(options: OutsideCheckOptions): Promise<OutsideCheckRun> {
  const timeoutMs = options.timeoutMs ?? OUTSIDE_CHECK.requestTimeoutSeconds * 1000;
  const run = steps({ ...options, timeoutMs });
  const results: StepResult[] = [];
  const last = OUTSIDE_CHECK_STEPS.indexOf(options.until ?? 'post');
  for (const step of OUTSIDE_CHECK_STEPS.slice(0, last + 1)) {
    const started = performance.now();
    try {
      await run.run[step]();
      results.push({ step, ms: Math.round(performance.now() - started) });
    } catch (error) {
      if (!(error instanceof StepFailed) && !(error instanceof NoAnswer)) throw error;
      const problem = error instanceof NoAnswer ? `no answer: ${error.reason}` : error.message;
      results.push({ step, ms: Math.round(performance.now() - started), problem });
      return { passed: false, steps: results, failed: { step, problem }, messageId: run.messageId() };
    }
  }
  return { passed: true, steps: results, messageId: run.messageId() };
}
