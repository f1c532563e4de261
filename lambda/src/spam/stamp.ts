/**
 * The proof-of-work stamp (altcha-lib, deterministic mode): a challenge from our own API,
 * signed with a key derived from the origin secret, that the page's script solves while the
 * visitor types, and that the function accepts once, before it expires (minutes: decision
 * 0043), and only from the network it was given to. A stamp proves a browser on the sender's
 * network ran the page's script for the form (and when the form was first used); without one
 * a message is only scored higher (core/src/spam.ts), never refused. During a rotation of the
 * origin secret, stamps signed with the previous secret's keys are accepted too, as the secret
 * itself is. Pure but for the clock: whether a stamp was used before is the store's (useStamp
 * in spam-store.ts).
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge, Payload } from 'altcha-lib/types';
import * as v from 'valibot';
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

/** The keys new challenges are signed with, and during a rotation the previous secret's, still accepted. */
export interface StampKeyring {
  current: StampKeys;
  previous?: StampKeys;
}

export function stampKeyring(origin: { current: string; previous?: string }): StampKeyring {
  return { current: stampKeys(origin.current), ...(origin.previous !== undefined && { previous: stampKeys(origin.previous) }) };
}

/**
 * What a challenge carries of the network it was given to (visitor-limit.ts's budgetNetworks:
 * an IPv4 /24, an IPv6 /48; `-` when CloudFront named none): a keyed hash, so the challenge,
 * which the visitor sees, tells nothing of it, and a stamp solved elsewhere does not match.
 */
function networkTag(keys: StampKeys, network: string | undefined): string {
  return createHmac('sha256', keys.keySignature)
    .update(`network:${network ?? '-'}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
}

const sameTag = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A fresh challenge for a viewer on `network`, its issue time signed in with it (the form's
 * first use: how long the visitor took). `counter` is the puzzle's answer, which the solver
 * counts up to: random below STAMP_DIFFICULTY.maxCounter, as every visitor gets it; a test that
 * needs thousands of stamps gives a small one, since what it proves is where and when a stamp
 * was given, not the work (the bench's stamp part measures that).
 */
export async function newChallenge(
  keys: StampKeyring,
  network: string | undefined,
  now: Date,
  counter = randomInt(STAMP_DIFFICULTY.maxCounter, 0),
): Promise<Challenge> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return createChallenge({
    algorithm: STAMP_DIFFICULTY.algorithm,
    cost: STAMP_DIFFICULTY.cost,
    counter,
    deriveKey,
    // In the signed data rather than altcha-lib's own expiresAt, which it checks against the
    // system clock: the function's clock (dependencies.ts) is the one every rule reads.
    data: {
      issuedAt,
      expiresAt: issuedAt + STAMP_DIFFICULTY.expiresSeconds,
      id: randomBytes(8).toString('hex'),
      network: networkTag(keys.current, network),
    },
    hmacSignatureSecret: keys.current.signature,
    hmacKeySignatureSecret: keys.current.keySignature,
  });
}

export type StampCheck =
  | { kind: 'missing' }
  /** Not a payload, a forged or altered challenge, a wrong solution, an expired one, or one given to another network. */
  | { kind: 'invalid' }
  /** `id` and `expiresAt` (epoch seconds) to record its use; `issuedAt` (epoch seconds) when the form was first used. */
  | { kind: 'valid'; id: string; issuedAt: number; expiresAt: number };

/** Stamps longer than this are no page's: a payload is about 700 characters. */
const MAX_STAMP_LENGTH = 4096;

/** What newChallenge signs into a challenge's data. */
const SIGNED_DATA = v.object({ issuedAt: v.number(), expiresAt: v.number(), id: v.string(), network: v.string() });

/**
 * The payload as the page sends it: base64 of altcha-lib's Payload JSON, its challenge with
 * the data newChallenge signs. The signature is verified later; this only reads the shape.
 */
const PAYLOAD = v.looseObject({
  challenge: v.looseObject({ parameters: v.looseObject({ data: SIGNED_DATA }) }),
  solution: v.looseObject({}),
});

function payloadOf(stamp: string): (Payload & v.InferOutput<typeof PAYLOAD>) | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(stamp, 'base64').toString('utf8'));
  } catch {
    // Not JSON: the shape below refuses it.
  }
  const parsed = v.safeParse(PAYLOAD, json);
  return parsed.success ? (json as Payload & v.InferOutput<typeof PAYLOAD>) : undefined;
}

/**
 * Whether the body's stamp is a challenge of ours (signed with the current keys or, during a
 * rotation, the previous ones), given to the sender's `network`, solved, and not expired by
 * `now`. Never throws.
 */
export async function checkStamp(stamp: unknown, keys: StampKeyring, network: string | undefined, now: Date): Promise<StampCheck> {
  if (stamp === undefined || stamp === '') return { kind: 'missing' };
  if (typeof stamp !== 'string' || stamp.length > MAX_STAMP_LENGTH) return { kind: 'invalid' };
  const payload = payloadOf(stamp);
  if (!payload) return { kind: 'invalid' };
  const { issuedAt, expiresAt, id, network: tag } = payload.challenge.parameters.data;
  if (expiresAt <= now.getTime() / 1000) return { kind: 'invalid' };
  for (const keySet of keys.previous ? [keys.current, keys.previous] : [keys.current]) {
    if (await verified(payload, keySet)) {
      return sameTag(tag, networkTag(keySet, network)) ? { kind: 'valid', id, issuedAt, expiresAt } : { kind: 'invalid' };
    }
  }
  return { kind: 'invalid' };
}

/** Whether `keys` signed the payload's challenge and its solution is right; false, not an error, for whatever altcha-lib cannot read. */
function verified(payload: Payload, keys: StampKeys): Promise<boolean> {
  return verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  }).then(
    (result) => result.verified,
    () => false,
  );
}
