/**
 * The proof-of-work stamp (altcha-lib, deterministic mode): a challenge from our own API,
 * signed with a key derived from the origin secret, that the page's script solves while the
 * visitor types, and that the function accepts once, before it expires. A stamp proves a
 * browser ran the page's script for the form (and when the form was first used); without
 * one a message is only scored higher (core/src/spam.ts), never refused. Pure but for the
 * clock: whether a stamp was used before is the store's (stampsUsed in store.ts).
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge, Payload } from 'altcha-lib/types';
import { STAMP_DIFFICULTY } from '@site/core/spam';

/** The two HMAC keys altcha-lib signs with: the challenge's parameters, and the key that solves it. */
export interface StampKeys {
  signature: string;
  keySignature: string;
}

const derived = (originSecret: string, label: string) => Buffer.from(hkdfSync('sha256', originSecret, '', label, 32)).toString('hex');

/** Derived from the origin secret, like the other keys: no secret of its own to keep. */
export function stampKeys(originSecret: string): StampKeys {
  return { signature: derived(originSecret, 'stamp-signature'), keySignature: derived(originSecret, 'stamp-key-signature') };
}

/** A fresh challenge, its issue time signed in with it (the form's first use: how long the visitor took). */
export async function newChallenge(keys: StampKeys, now: Date): Promise<Challenge> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return createChallenge({
    algorithm: STAMP_DIFFICULTY.algorithm,
    cost: STAMP_DIFFICULTY.cost,
    counter: randomInt(STAMP_DIFFICULTY.maxCounter, 0),
    deriveKey,
    // In the signed data rather than altcha-lib's own expiresAt, which it checks against the
    // system clock: the function's clock (dependencies.ts) is the one every rule reads.
    data: { issuedAt, expiresAt: issuedAt + STAMP_DIFFICULTY.expiresSeconds, id: randomBytes(8).toString('hex') },
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
}

export type StampCheck =
  | { kind: 'missing' }
  /** Not a payload, a forged or altered challenge, a wrong solution, or an expired one. */
  | { kind: 'invalid' }
  /** `id` and `expiresAt` (epoch seconds) to record its use; `issuedAt` (epoch seconds) when the form was first used. */
  | { kind: 'valid'; id: string; issuedAt: number; expiresAt: number };

/** The payload as the page sends it: base64 of altcha-lib's Payload JSON. Anything else is no payload. */
function payloadOf(stamp: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(stamp, 'base64').toString('utf8')) as Payload;
    return typeof payload?.challenge?.parameters === 'object' && typeof payload.solution === 'object' ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** Stamps longer than this are no page's: a payload is about 700 characters. */
const MAX_STAMP_LENGTH = 4096;

/** Whether the body's stamp is a challenge of ours, solved, and not expired by `now`. Never throws. */
export async function checkStamp(stamp: unknown, keys: StampKeys, now: Date): Promise<StampCheck> {
  if (stamp === undefined || stamp === '') return { kind: 'missing' };
  if (typeof stamp !== 'string' || stamp.length > MAX_STAMP_LENGTH) return { kind: 'invalid' };
  const payload = payloadOf(stamp);
  if (!payload) return { kind: 'invalid' };
  const { data } = payload.challenge.parameters;
  const issuedAt = data?.issuedAt;
  const expiresAt = data?.expiresAt;
  const id = data?.id;
  if (typeof expiresAt !== 'number' || typeof issuedAt !== 'number' || typeof id !== 'string') return { kind: 'invalid' };
  if (expiresAt <= now.getTime() / 1000) return { kind: 'invalid' };
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: keys.signature,
      hmacKeySignatureSecret: keys.keySignature,
    });
    return result.verified ? { kind: 'valid', id, issuedAt, expiresAt } : { kind: 'invalid' };
  } catch {
    return { kind: 'invalid' };
  }
}
