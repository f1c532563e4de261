/**
 * The stamp's check, case by case, as a forger would try it: each way a stamp can be wrong is
 * no valid stamp, and a stamp of ours from the network it was given to is one.
 */
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge } from 'altcha-lib/types';
import { describe, expect, it } from 'vitest';
import { STAMP_DIFFICULTY } from '@site/core/spam';
import { checkStamp, newChallenge, stampKeyring } from '../src/spam/stamp';

const KEYS = stampKeyring({ current: 'the-current-origin-secret-0123456789abcdef' });
const OTHER = stampKeyring({ current: 'another-origin-secret-0123456789abcdefghij' });
const NETWORK = '192.0.2.0/24';
const ISSUED = new Date('2026-12-04T10:00:00Z');
const LATER = new Date(ISSUED.getTime() + 60_000);

const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

/** `null`: a challenge given without a network (CloudFront named no viewer address). */
async function stamp(keys = KEYS, network: string | null = NETWORK): Promise<{ challenge: Challenge; text: string }> {
  const challenge = await newChallenge(keys, network ?? undefined, ISSUED);
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, text: encode({ challenge, solution }) };
}

describe('checkStamp', () => {
  it('accepts a stamp of ours from its network, and says when its challenge was given and when it expires', async () => {
    const { challenge, text } = await stamp();
    const issuedAt = ISSUED.getTime() / 1000;
    expect(await checkStamp(text, KEYS, NETWORK, LATER)).toEqual({
      kind: 'valid',
      id: challenge.parameters.data!.id,
      issuedAt,
      expiresAt: issuedAt + STAMP_DIFFICULTY.expiresSeconds,
    });
    expect(challenge.parameters.data!.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tells no stamp from a bad one', async () => {
    expect(await checkStamp(undefined, KEYS, NETWORK, LATER)).toEqual({ kind: 'missing' });
    expect(await checkStamp('', KEYS, NETWORK, LATER)).toEqual({ kind: 'missing' });
    const { challenge, text } = await stamp();
    const { solution } = JSON.parse(Buffer.from(text, 'base64').toString()) as { solution: unknown };
    for (const bad of [
      42,
      { challenge, solution },
      'not base64 json',
      encode(null),
      encode('a string'),
      encode({ challenge: {} }),
      encode({ solution: {} }),
      encode({ challenge: { parameters: {} }, solution }),
      encode({ challenge, solution: 'not an object' }),
      'a'.repeat(5000),
    ]) {
      expect(await checkStamp(bad, KEYS, NETWORK, LATER), JSON.stringify(bad).slice(0, 40)).toEqual({ kind: 'invalid' });
    }
  });

  it('refuses a challenge we signed whose data is not what newChallenge signs, without throwing', async () => {
    // Signed and solved as ours: only the reading of the signed data can refuse these.
    const complete = { issuedAt: 1_796_378_400, expiresAt: 1_796_379_300, id: '0123456789abcdef', network: 'f'.repeat(32) };
    const { network: _network, ...withoutNetwork } = complete;
    const { issuedAt: _issuedAt, ...withoutIssuedAt } = complete;
    const { expiresAt: _expiresAt, ...withoutExpiresAt } = complete;
    const { id: _id, ...withoutId } = complete;
    for (const data of [
      undefined,
      withoutNetwork,
      withoutIssuedAt,
      withoutExpiresAt,
      withoutId,
      { ...complete, id: 12 },
      { ...complete, issuedAt: 'then' },
      { ...complete, network: 'abc' },
    ]) {
      const challenge = await createChallenge({
        algorithm: STAMP_DIFFICULTY.algorithm,
        cost: STAMP_DIFFICULTY.cost,
        counter: 1,
        deriveKey,
        ...(data !== undefined && { data }),
        hmacSignatureSecret: KEYS.current.signature,
        hmacKeySignatureSecret: KEYS.current.keySignature,
      });
      const solution = await solveChallenge({ challenge, deriveKey });
      expect(await checkStamp(encode({ challenge, solution }), KEYS, NETWORK, LATER), JSON.stringify(data)).toEqual({ kind: 'invalid' });
    }
  });

  it('reads a stamp up to 4,096 characters and no further: a payload is about 700', async () => {
    const { challenge, text } = await stamp();
    const { solution } = JSON.parse(Buffer.from(text, 'base64').toString()) as { solution: unknown };
    // Base64 of n bytes is 4 × ceil(n / 3) characters: 3,072 bytes are 4,096, one byte more is 4,100.
    const padded = (bytes: number) => {
      const bare = JSON.stringify({ challenge, solution, padding: '' }).length;
      return encode({ challenge, solution, padding: 'x'.repeat(bytes - bare) });
    };
    expect(padded(3072)).toHaveLength(4096);
    expect(await checkStamp(padded(3072), KEYS, NETWORK, LATER)).toMatchObject({ kind: 'valid' });
    expect(padded(3073)).toHaveLength(4100);
    expect(await checkStamp(padded(3073), KEYS, NETWORK, LATER)).toEqual({ kind: 'invalid' });
  });

  it('refuses one given to another network, or to none when the sender has one', async () => {
    const { text } = await stamp();
    expect(await checkStamp(text, KEYS, '198.51.100.0/24', LATER)).toEqual({ kind: 'invalid' });
    expect(await checkStamp(text, KEYS, undefined, LATER)).toEqual({ kind: 'invalid' });
    const unknown = await stamp(KEYS, null);
    expect(await checkStamp(unknown.text, KEYS, undefined, LATER)).toMatchObject({ kind: 'valid' });
    expect(await checkStamp(unknown.text, KEYS, NETWORK, LATER)).toEqual({ kind: 'invalid' });
  });

  it('refuses one expired, one signed with other keys, and one whose signed data was changed', async () => {
    const { challenge, text } = await stamp();
    const expiry = new Date(ISSUED.getTime() + STAMP_DIFFICULTY.expiresSeconds * 1000);
    expect(await checkStamp(text, KEYS, NETWORK, new Date(expiry.getTime() - 1000))).toMatchObject({ kind: 'valid' });
    expect(await checkStamp(text, KEYS, NETWORK, expiry)).toEqual({ kind: 'invalid' });
    expect(await checkStamp(text, OTHER, NETWORK, LATER)).toEqual({ kind: 'invalid' });
    const payload = JSON.parse(Buffer.from(text, 'base64').toString()) as { challenge: Challenge; solution: unknown };
    for (const data of [
      { expiresAt: (challenge.parameters.data!.expiresAt as number) + 3600 },
      { network: 'f'.repeat(32) },
      { network: 7 },
      { id: 12 },
      { issuedAt: 'then' },
    ]) {
      const changed = {
        ...payload,
        challenge: {
          ...payload.challenge,
          parameters: { ...payload.challenge.parameters, data: { ...payload.challenge.parameters.data, ...data } },
        },
      };
      expect(await checkStamp(encode(changed), KEYS, NETWORK, LATER), JSON.stringify(data)).toEqual({ kind: 'invalid' });
    }
  });

  it('accepts one signed with the previous secret’s keys during a rotation', async () => {
    const before = await stamp(OTHER);
    const rotating = { current: KEYS.current, previous: OTHER.current };
    expect(await checkStamp(before.text, rotating, NETWORK, LATER)).toMatchObject({ kind: 'valid' });
    expect(await checkStamp((await stamp()).text, rotating, NETWORK, LATER)).toMatchObject({ kind: 'valid' });
    expect(await checkStamp(before.text, KEYS, NETWORK, LATER)).toEqual({ kind: 'invalid' });
    // A stamp of the previous keys for another network is no better for the rotation.
    expect(await checkStamp(before.text, rotating, '198.51.100.0/24', LATER)).toEqual({ kind: 'invalid' });
  });
});

describe('newChallenge', () => {
  it('gives every visitor a puzzle of the full difficulty: its answer anywhere below the maximum, never a fixed one', async () => {
    const answers = await Promise.all(
      Array.from(
        { length: 12 },
        async () => (await solveChallenge({ challenge: await newChallenge(KEYS, NETWORK, ISSUED), deriveKey }))!.counter,
      ),
    );
    expect(Math.max(...answers)).toBeLessThan(STAMP_DIFFICULTY.maxCounter);
    // Twelve answers all in the lowest tenth would happen once in 10^12 runs.
    expect(Math.max(...answers)).toBeGreaterThan(STAMP_DIFFICULTY.maxCounter / 10);
    expect(new Set(answers).size).toBeGreaterThan(1);
  });

  it('takes the answer a test gives it', async () => {
    const challenge = await newChallenge(KEYS, NETWORK, ISSUED, 3);
    expect((await solveChallenge({ challenge, deriveKey }))!.counter).toBe(3);
  });
});
