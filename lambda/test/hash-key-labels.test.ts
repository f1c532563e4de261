/**
 * The keyed hashes are pinned by known answers: every salt, info and label string (and the
 * text of a counted network) is written out here and the expected key or hash is computed
 * from it with node:crypto, never from the function's own code. A label changed in the code
 * would make every idempotency record and visitor counter written before a deploy unreadable
 * after it, with no error anywhere: a retry of a stored message would become a second
 * message, every visitor would start counting afresh, and every stamp outstanding at the
 * deploy would be refused as forged.
 */
import { createHmac, hkdfSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { TEST_ORIGIN_SECRET, TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import { bodyHash, contentKey, idempotencyHashKeys } from '../src/contact/idempotency';
import { visitorHash, visitorHashKey } from '../src/spam/visitor-limit';
import { newChallenge, stampKeys } from '../src/spam/stamp';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

/** HKDF-SHA-256 of the secret with an empty salt and `info`, 32 bytes: how a deploy's keys have been derived. */
const derived = (secret: string, info: string) => Buffer.from(hkdfSync('sha256', secret, '', info, 32));
const hmacHex = (key: Buffer, ...parts: string[]) =>
  parts.reduce((hmac, part) => hmac.update(part, 'utf8'), createHmac('sha256', key)).digest('hex');

const SECRET = 'a-secret-only-these-known-answers-use-0123456789';
const VISITOR_KEY = derived(SECRET, 'visitor-address-hash');
const IDEMPOTENCY_KEY = derived(SECRET, 'idempotency-hash');

/** The fields as name/value pairs sorted by name, as the body hash has always read them. */
const MESSAGE = { name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Graag een afspraak.' };
const MESSAGE_PAIRS = '[["email","jan@voorbeeld.nl"],["message","Graag een afspraak."],["name","Jan de Vries"]]';

/** `uuid` and `hex` agree in every digit but the version (13th) and the variant (17th). */
function sameDigits(uuid: string, hex: string) {
  const digits = uuid.replaceAll('-', '');
  const skip = (text: string) => text.slice(0, 12) + text.slice(13, 16) + text.slice(17, 32);
  expect(skip(digits)).toBe(skip(hex));
}

describe('the visitor hash', () => {
  it('is HMAC-SHA-256 under the key derived with "visitor-address-hash", its first 128 bits', () => {
    expect(visitorHashKey(SECRET).equals(VISITOR_KEY)).toBe(true);
    for (const address of ['198.51.100.7', '2001:db8:3333:4444::/64', '2001:db8:3333::/48']) {
      expect(visitorHash(visitorHashKey(SECRET), address), address).toBe(hmacHex(VISITOR_KEY, address).slice(0, 32));
    }
  });
});

describe('the idempotency hashes', () => {
  const keys = idempotencyHashKeys({ current: SECRET, previous: TEST_ORIGIN_SECRET });

  it('are made under the key derived with "idempotency-hash", named by its HMAC of "key-name"', () => {
    expect(keys.current.key.equals(IDEMPOTENCY_KEY)).toBe(true);
    expect(keys.current.name).toBe(hmacHex(IDEMPOTENCY_KEY, 'key-name').slice(0, 12));
    const previous = derived(TEST_ORIGIN_SECRET, 'idempotency-hash');
    expect(keys.previous).toEqual({ key: previous, name: hmacHex(previous, 'key-name').slice(0, 12) });
  });

  it('hash a message as its sorted name/value pairs, and a form post’s key from "form-post:" and that hash', () => {
    const hash = hmacHex(IDEMPOTENCY_KEY, MESSAGE_PAIRS);
    expect(bodyHash(keys.current, MESSAGE)).toBe(hash);
    const key = contentKey(keys.current, MESSAGE);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    sameDigits(key, hmacHex(IDEMPOTENCY_KEY, 'form-post:', hash));
  });
});

describe('the stamp keys', () => {
  const signature = derived(SECRET, 'stamp-signature').toString('hex');
  const keySignature = derived(SECRET, 'stamp-key-signature').toString('hex');

  it('are the keys derived with "stamp-signature" and "stamp-key-signature", in hex', () => {
    expect(stampKeys(SECRET)).toEqual({ signature, keySignature });
  });

  it('tag a challenge with the HMAC of "network:" and its network, or "-" with none, under the key signature, its first 128 bits', async () => {
    const keys = { current: stampKeys(SECRET) };
    const at = new Date('2026-12-04T10:00:00Z');
    // The key is the hex text itself, as altcha-lib takes its secrets.
    const tag = (network: string) => createHmac('sha256', keySignature).update(network, 'utf8').digest('hex').slice(0, 32);
    expect((await newChallenge(keys, '192.0.2.0/24', at, 1)).parameters.data!.network).toBe(tag('network:192.0.2.0/24'));
    expect((await newChallenge(keys, undefined, at, 1)).parameters.data!.network).toBe(tag('network:-'));
  });
});

describe('the records the handler writes', () => {
  const stack = useContactStack();
  const visitorKey = derived(TEST_ORIGIN_SECRET, 'visitor-address-hash');
  const idempotencyKey = derived(TEST_ORIGIN_SECRET, 'idempotency-hash');
  /** The fields as name/value pairs sorted by name. */
  const pairsOf = (body: Record<string, string>) =>
    JSON.stringify(
      Object.keys(body)
        .sort()
        .map((name) => [name, body[name]]),
    );

  /** The counter a network's messages count in, in the window of `receivedAt`. */
  const counterId = (network: string, receivedAt: string) =>
    `visitor#${hmacHex(visitorKey, network).slice(0, 32)}#${Math.floor(Date.parse(receivedAt) / 1000 / TEST_VISITOR_LIMIT.windowSeconds)}`;
  const stored = async (id: string) => (await stack.aws.message(id))!;
  const item = async (id: string) => (await stack.aws.items()).find((candidate) => candidate.id === id);

  it('count an IPv4 visitor under the hash of its address', async () => {
    const response = answer(await stack.handler(contactEvent({ viewer: '198.51.100.207', body: VALID_BODY })));
    const { receivedAt } = await stored(response.json.id!);
    expect(await item(counterId('198.51.100.207', receivedAt))).toMatchObject({ [`message#${response.json.id}`]: expect.any(Number) });
  });

  it('count an IPv6 visitor under the hashes of its /64 and its /48', async () => {
    const response = answer(await stack.handler(contactEvent({ viewer: '2001:DB8:3333:4444:0:0:0:7', body: VALID_BODY })));
    const { receivedAt } = await stored(response.json.id!);
    for (const network of ['2001:db8:3333:4444::/64', '2001:db8:3333::/48']) {
      expect(await item(counterId(network, receivedAt)), network).toMatchObject({ messageCount: 1 });
    }
  });

  it('keep an Idempotency-Key’s body hash under the key’s name', async () => {
    const key = randomUUID();
    const headers = { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key };
    const response = answer(await stack.handler(contactEvent({ headers, body: VALID_BODY })));
    expect(await item(`idempotency#${key}`)).toMatchObject({
      messageId: response.json.id,
      bodyHash: hmacHex(idempotencyKey, pairsOf(VALID_BODY)),
      hashKeyName: hmacHex(idempotencyKey, 'key-name').slice(0, 12),
    });
  });

  it('give a form post the key made from "form-post:" and its body hash', async () => {
    const body = { ...VALID_BODY, message: 'Verstuurd met het formulier, zonder scripts.' };
    const result = await stack.handler(
      contactEvent({ headers: { 'content-type': FORM_CONTENT_TYPE }, body: new URLSearchParams(body).toString() }),
    );
    expect(result.statusCode).toBe(303);
    const message = (await stack.aws.messages()).find((candidate) => candidate.message === body.message);
    sameDigits(message!.idempotencyKey!, hmacHex(idempotencyKey, 'form-post:', hmacHex(idempotencyKey, pairsOf(body))));
  });
});
