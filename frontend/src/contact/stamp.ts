/**
 * The proof-of-work stamp (core/src/spam.ts): a challenge from the site's own API, solved with
 * altcha-lib, and sent back as the message body's STAMP_FIELD. This runs in the stamp worker
 * (stamp-worker.ts), off the page's main thread and outside its first-load script; the page
 * only starts the worker and takes what it posts. Any failure is no stamp: a message without
 * one is never refused, it only scores higher, so nothing here may trouble the visitor.
 */
import { solveChallenge, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { CHALLENGE_PATH } from '@site/core/contract';

/**
 * Past this a solve is given up: the difficulty makes one take a second or two on a phone
 * (the bench's stamp part), so a solve still running after a minute is a challenge not meant
 * for this page, and it should not keep a phone's CPU busy while the visitor types.
 */
export const SOLVE_TIMEOUT_MS = 60_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A signed altcha-lib challenge, as far as the solve and the server's check need it. */
export function isChallenge(value: unknown): value is Challenge {
  if (!isRecord(value) || !isRecord(value.parameters) || typeof value.signature !== 'string') return false;
  const { algorithm, nonce, salt, keyPrefix, cost } = value.parameters;
  return [algorithm, nonce, salt, keyPrefix].every((part) => typeof part === 'string') && typeof cost === 'number';
}

/** The API's challenge (`{ "challenge": … }`), or nothing when it did not answer one. Never a cached one: each is used once. */
export async function fetchChallenge(origin: string): Promise<Challenge | undefined> {
  const response = await fetch(new URL(CHALLENGE_PATH, origin), { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) return undefined;
  const answer = (await response.json()) as unknown;
  return isRecord(answer) && isChallenge(answer.challenge) ? answer.challenge : undefined;
}

/** What STAMP_FIELD carries: altcha-lib's payload (the challenge as signed, and its solution) as base64 of its JSON. */
export function encodeStamp(payload: Payload): string {
  return btoa(JSON.stringify(payload));
}

/** The stamp for `challenge`, or nothing when no solution was found in time. */
export async function solveStamp(challenge: Challenge): Promise<string | undefined> {
  const { parameters, signature } = challenge;
  const solution = await solveChallenge({ challenge: { parameters, signature }, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  return solution === null ? undefined : encodeStamp({ challenge: { parameters, signature }, solution });
}

/** A challenge from the API of `origin`, solved; nothing on any failure of the request, the answer or the solve. */
export async function requestStamp(origin: string): Promise<string | undefined> {
  try {
    const challenge = await fetchChallenge(origin);
    return challenge === undefined ? undefined : await solveStamp(challenge);
  } catch {
    return undefined;
  }
}
