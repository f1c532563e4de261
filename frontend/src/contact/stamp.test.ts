/// <reference types="node" />
// A real HTTP server stands in for the API: this test runs in Node (vitest, jsdom), not in a page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge, Payload } from 'altcha-lib/types';
import { CHALLENGE_PATH } from '@site/core/contract';
import { STAMP_DIFFICULTY } from '@site/core/spam';
import { encodeStamp, isChallenge, requestStamp, solveStamp } from './stamp';

// The function's two keys are its own (derived from the origin secret); any pair proves the round trip.
const KEYS = { hmacSignatureSecret: 'signature key of this test', hmacKeySignatureSecret: 'key-signature key of this test' };

/** A challenge as the function makes one: STAMP_DIFFICULTY, a counter at random, an expiry and data signed in. */
function functionsChallenge(): Promise<Challenge> {
  const now = Math.floor(Date.now() / 1000);
  return createChallenge({
    algorithm: STAMP_DIFFICULTY.algorithm,
    cost: STAMP_DIFFICULTY.cost,
    counter: randomInt(STAMP_DIFFICULTY.maxCounter, 0),
    deriveKey,
    expiresAt: now + STAMP_DIFFICULTY.expiresSeconds,
    data: { issuedAt: now, id: 'a1b2c3d4e5f60718' },
    ...KEYS,
  });
}

const decode = (stamp: string) => JSON.parse(atob(stamp)) as Payload;
const verify = (payload: Payload) => verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...KEYS });

describe('isChallenge', () => {
  it('accepts the challenge the function makes', async () => {
    expect(isChallenge(await functionsChallenge())).toBe(true);
  });

  it.each([
    ['nothing', null],
    ['a string', 'challenge'],
    ['API Gateway’s error answer', { message: 'Not Found' }],
    ['no signature', { parameters: { algorithm: 'SHA-256', nonce: 'n', salt: 's', keyPrefix: 'k', cost: 1 } }],
    ['no parameters', { signature: 'abc' }],
    [
      'a cost that is no number',
      { parameters: { algorithm: 'SHA-256', nonce: 'n', salt: 's', keyPrefix: 'k', cost: '1' }, signature: 'abc' },
    ],
    ['no key prefix', { parameters: { algorithm: 'SHA-256', nonce: 'n', salt: 's', cost: 1 }, signature: 'abc' }],
  ])('refuses %s, so a wrong answer is no stamp rather than a solve that never ends', (_, value) => {
    expect(isChallenge(value)).toBe(false);
  });
});

describe('solveStamp and encodeStamp', () => {
  it('solve a challenge into the base64 payload that verifies with the keys that signed it', async () => {
    const challenge = await functionsChallenge();
    const stamp = await solveStamp(challenge);
    expect(stamp).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const payload = decode(stamp!);
    // The challenge goes back exactly as signed (its data with it: when the form was first used).
    expect(payload.challenge).toEqual({ parameters: challenge.parameters, signature: challenge.signature });
    expect((await verify(payload)).verified).toBe(true);
  });

  it('make a stamp whose altered challenge or solution no longer verifies', async () => {
    const payload = decode((await solveStamp(await functionsChallenge()))!);
    const longer = {
      ...payload,
      challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, expiresAt: 4_102_444_800 } },
    };
    // A key that was not derived: the key signature, not the counter, is what the check compares.
    const wrong = { ...payload, solution: { ...payload.solution, derivedKey: '0'.repeat(payload.solution.derivedKey.length) } };
    expect((await verify(longer)).verified).toBe(false);
    expect((await verify(wrong)).verified).toBe(false);
  });

  it('encode a payload as base64 of its JSON, as the function reads it', () => {
    const payload = { challenge: { parameters: { algorithm: 'SHA-256' }, signature: 'ab' }, solution: { counter: 7, derivedKey: 'cd' } };
    expect(decode(encodeStamp(payload as Payload))).toEqual(payload);
  });
});

describe('requestStamp', () => {
  let server: Server;
  let origin: string;
  let answer: { status: number; body: string };
  const asked: { method?: string; path?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push({ method: req.method, path: req.url });
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('asks its own origin’s challenge path and gives back the solved stamp', async () => {
    answer = { status: 200, body: JSON.stringify({ challenge: await functionsChallenge() }) };
    asked.length = 0;
    const stamp = await requestStamp(origin);
    expect(asked).toEqual([{ method: 'GET', path: CHALLENGE_PATH }]);
    expect((await verify(decode(stamp!))).verified).toBe(true);
  });

  it.each([
    ['API Gateway’s 404 before the route exists', 404, '{"message":"Not Found"}'],
    ['the stage throttle', 429, '{"message":"Too Many Requests"}'],
    ['a function error', 500, '{"message":"Internal Server Error"}'],
    ['an answer that is no challenge', 200, '{"challenge":{"parameters":{}}}'],
    ['an answer that is no JSON', 200, '<html>'],
  ])('gives no stamp, and throws nothing, on %s', async (_, status, body) => {
    answer = { status, body };
    await expect(requestStamp(origin)).resolves.toBeUndefined();
  });

  it('gives no stamp when the API cannot be reached at all', async () => {
    await expect(requestStamp('http://127.0.0.1:9')).resolves.toBeUndefined();
  });
});
