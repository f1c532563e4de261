/**
 * Who may send, end to end against the DynamoDB and SES stand-ins: only requests that came
 * through CloudFront (the origin secret, the previous one during a rotation), refused before
 * anything about them is read; then at most the visitor limit per visitor address (an IPv6
 * /64, and its /48 against a higher cap) and window, counted only for valid messages. A
 * refused request stores and e-mails nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, HONEYPOT_FIELD, IDEMPOTENCY_HEADER, MAX_BODY_BYTES } from '@site/core/contract';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { visitorLimitSentence } from '@site/core/content/refused-post';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { secondsLeft, windowAt } from '../src/spam/visitor-limit';
import { answer, contactEvent, ownMessage, VALID_BODY, type EventParts } from '@site/testing/api-events';
import { TEST_ORIGIN_SECRET, TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import { useContactStack } from './support/contact-stack';
import { readContactConfig } from '../src/config';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';

/** The value CloudFront sent before the rotation now under way; the function still accepts it. */
const PREVIOUS_SECRET = randomBytes(32).toString('base64url');

const stack = useContactStack((aws) => readContactConfig({ ...aws.lambdaEnv, [ORIGIN_VERIFY_ENV.previous]: PREVIOUS_SECRET }));
beforeEach(async () => {
  await stack.aws.stopDynamoDb();
  await stack.aws.startDynamoDb();
  await stack.aws.clearEmails();
  stack.logs.clear();
  // Well inside a window: one that ended between two messages of a test would count afresh.
  const left = secondsLeft(windowAt(new Date(), TEST_VISITOR_LIMIT.windowSeconds), new Date());
  if (left < 5) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
});

const send = async (parts: EventParts) => answer(await stack.handler(contactEvent(parts)));
const JSON_TYPE = { 'content-type': 'application/json' };
/** Around CloudFront: the caller's own headers, whatever it claims in them. */
const direct = (headers: Record<string, string> = {}, parts: EventParts = {}) =>
  send({ body: VALID_BODY, ...parts, direct: true, headers: { ...JSON_TYPE, ...headers } });
const expectNothingKept = async () => {
  expect(await stack.aws.items()).toEqual([]);
  expect(await stack.aws.sentEmails()).toEqual([]);
};

describe('a request that did not come through CloudFront', () => {
  it('is refused with 403 and a Dutch message, and nothing is stored, counted or e-mailed', async () => {
    const response = await direct();
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual({ error: ERROR_TEXT.notThroughSite });
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    await expectNothingKept();
    expect(stack.logs.entries()).toEqual([expect.objectContaining({ level: 'info', outcome: 'not_through_cloudfront', status: 403 })]);
  });

  it('is refused before anything else about it is read: method, type, size, body, key', async () => {
    const cases: EventParts[] = [
      { method: 'GET' },
      { headers: { 'content-type': 'text/plain' } },
      { body: 'x'.repeat(MAX_BODY_BYTES + 1) },
      { body: '{not json' },
      { body: { ...VALID_BODY, email: 'geen adres' } },
      { body: { ...VALID_BODY, [HONEYPOT_FIELD]: 'https://spam.test' } },
      { headers: { [IDEMPOTENCY_HEADER]: 'geen-uuid' } },
    ];
    for (const parts of cases) {
      const response = await direct(parts.headers, { ...parts, headers: undefined });
      expect(response.statusCode, JSON.stringify(parts).slice(0, 80)).toBe(403);
    }
    await expectNothingKept();
  });

  it('is refused with a wrong, empty, partial or doubled secret, and a forged viewer address changes nothing', async () => {
    for (const secret of [
      '',
      'guess',
      TEST_ORIGIN_SECRET.slice(0, -1),
      `${TEST_ORIGIN_SECRET}x`,
      `${TEST_ORIGIN_SECRET},${TEST_ORIGIN_SECRET}`,
    ]) {
      expect((await direct({ [ORIGIN_VERIFY_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: '203.0.113.1:443' })).statusCode).toBe(403);
    }
    await expectNothingKept();
  });

  it('is accepted with the secret CloudFront sends, or the previous one while a rotation is under way', async () => {
    for (const secret of [TEST_ORIGIN_SECRET, PREVIOUS_SECRET]) {
      const response = await direct({ [ORIGIN_VERIFY_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: `203.0.113.${secret.length}:443` });
      expect(response.statusCode).toBe(200);
    }
    expect(await stack.aws.messages()).toHaveLength(2);
  });
});

describe('the visitor limit', () => {
  const from = (viewer: string, body: unknown = ownMessage(), headers: Record<string, string> = JSON_TYPE) =>
    send({ viewer, body, headers });

  it(`lets a visitor send ${TEST_VISITOR_LIMIT.messages} messages in a window, then answers 429 in Dutch with Retry-After, storing and e-mailing nothing`, async () => {
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) expect((await from('192.0.2.10')).statusCode).toBe(200);
    const refused = await from('192.0.2.10', { ...VALID_BODY, message: 'Nog eentje.' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json).toEqual({ error: ERROR_TEXT.tooManyMessages });
    const retryAfter = Number(refused.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(TEST_VISITOR_LIMIT.windowSeconds);
    const messages = await stack.aws.messages();
    expect(messages).toHaveLength(TEST_VISITOR_LIMIT.messages);
    expect(messages.map((message) => message.message)).not.toContain('Nog eentje.');
    expect(await stack.aws.sentEmails()).toHaveLength(TEST_VISITOR_LIMIT.messages);
    expect(stack.logs.entries().at(-1)).toMatchObject({ level: 'info', outcome: 'visitor_limited', status: 429 });
  });

  it('keeps two visitors apart', async () => {
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) await from('192.0.2.20');
    expect((await from('192.0.2.20')).statusCode).toBe(429);
    expect((await from('192.0.2.21')).statusCode).toBe(200);
  });

  it('stores no idempotency record for a refused message, so its key still works once the window has passed', async () => {
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) await from('192.0.2.30');
    const key = randomUUID();
    expect((await from('192.0.2.30', VALID_BODY, { ...JSON_TYPE, [IDEMPOTENCY_HEADER]: key })).statusCode).toBe(429);
    expect((await stack.aws.items()).map((item) => String(item.id)).filter((id) => id.includes(key))).toEqual([]);
    expect((await from('192.0.2.31', VALID_BODY, { ...JSON_TYPE, [IDEMPOTENCY_HEADER]: key })).statusCode).toBe(200);
  });

  it('counts only valid messages: invalid ones leave no counter and use up nothing', async () => {
    for (let i = 0; i < 2 * TEST_VISITOR_LIMIT.messages; i += 1) {
      expect((await from('192.0.2.40', { ...VALID_BODY, email: 'geen adres' })).statusCode).toBe(400);
    }
    await expectNothingKept();
    expect((await from('192.0.2.40')).statusCode).toBe(200);
  });

  it('counts a filled honeypot like any stored message: a bot that fills it is held, and limited like anyone', async () => {
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) {
      expect((await from('192.0.2.41', ownMessage({ [HONEYPOT_FIELD]: 'https://spam.test' }))).statusCode).toBe(200);
    }
    expect((await from('192.0.2.41', ownMessage({ [HONEYPOT_FIELD]: 'https://spam.test' }))).statusCode).toBe(429);
    const stored = await stack.aws.messages();
    expect(stored.map((message) => message.status)).toEqual(Array(TEST_VISITOR_LIMIT.messages).fill('held'));
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it('keeps no visitor address in the table or the logs', async () => {
    for (let i = 0; i <= TEST_VISITOR_LIMIT.messages; i += 1) await from('192.0.2.50');
    for (const text of [JSON.stringify(await stack.aws.items()), stack.logs.raw()]) expect(text).not.toContain('192.0.2');
  });

  it('answers 503 and stores nothing when DynamoDB is down before counting', async () => {
    await stack.aws.stopDynamoDb();
    try {
      const response = await from('192.0.2.60');
      expect(response.statusCode).toBe(503);
      expect(response.json).toEqual({ error: ERROR_TEXT.notStored });
    } finally {
      await stack.aws.startDynamoDb();
    }
    await expectNothingKept();
  });

  it('counts an IPv6 visitor by its /64, and a whole /48 (one subscriber) against its higher cap', async () => {
    const { messages, ipv6Network } = TEST_VISITOR_LIMIT;
    // One /64 is one visitor, whichever of its addresses it sends from.
    for (let i = 1; i <= messages; i += 1) expect((await from(`2001:db8:64:1::${i}`)).statusCode).toBe(200);
    expect((await from('2001:db8:64:1:ffff::1')).statusCode).toBe(429);
    // A sweep through the /64s of one /48: accepted up to the /48's cap, then refused from every fresh /64 of it.
    const sweep = [];
    for (let subnet = 0; subnet <= ipv6Network; subnet += 1) sweep.push((await from(`2001:db8:48:${subnet.toString(16)}::1`)).statusCode);
    expect(sweep.slice(0, ipv6Network)).toEqual(Array(ipv6Network).fill(200));
    expect(sweep.at(-1)).toBe(429);
    expect((await from('2001:db8:48:ffff::9')).statusCode).toBe(429);
    // Another /48 is another subscriber.
    expect((await from('2001:db8:49::1')).statusCode).toBe(200);
    expect(await stack.aws.messages()).toHaveLength(messages + ipv6Network + 1);
  });

  it('gives the /64 its place back when the /48 refuses, so each counter counts only stored messages', async () => {
    const { ipv6Network } = TEST_VISITOR_LIMIT;
    for (let subnet = 0; subnet < ipv6Network + 3; subnet += 1) await from(`2001:db8:4848:${subnet.toString(16)}::1`);
    const counted = (await stack.aws.items())
      .filter((item) => String(item.id).startsWith('visitor#'))
      .reduce((sum, counter) => sum + Number(counter.messageCount), 0);
    // Each stored message is counted twice (its /64 and its /48); the three refused ones nowhere.
    expect(await stack.aws.messages()).toHaveLength(ipv6Network);
    expect(counted).toBe(2 * ipv6Network);
  });

  it('lets a message through uncounted, with a warning, when CloudFront sent no viewer address', async () => {
    const response = await send({ body: VALID_BODY, direct: true, headers: { ...JSON_TYPE, [ORIGIN_VERIFY_HEADER]: TEST_ORIGIN_SECRET } });
    expect(response.statusCode).toBe(200);
    expect((await stack.aws.items()).filter((item) => String(item.id).startsWith('visitor#'))).toEqual([]);
    expect(stack.logs.entries().at(-1)).toMatchObject({
      level: 'warn',
      outcome: 'stored_and_emailed',
      visitorLimit: `not applied: no ${VIEWER_ADDRESS_HEADER}`,
    });
  });
});

describe("the page's form without scripts", () => {
  const formBody = (message: string) => new URLSearchParams({ ...VALID_BODY, message, [HONEYPOT_FIELD]: '' }).toString();

  it('past the limit gets the form again with what was typed and when to send it again, with nothing stored', async () => {
    const formPost = (message: string) =>
      stack.handler(contactEvent({ viewer: '192.0.2.70', headers: { 'content-type': FORM_CONTENT_TYPE }, body: formBody(message) }));
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) expect((await formPost(`Bericht ${i}`)).statusCode).toBe(303);
    const refused = await formPost('Te veel');
    expect(refused).toMatchObject({
      statusCode: 429,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    });
    expect(refused.body).toContain('>\nTe veel</textarea>');
    expect(refused.body).toContain(visitorLimitSentence(Math.ceil(Number(refused.headers!['Retry-After']) / 60)));
    expect((await stack.aws.messages()).map((message) => message.message)).not.toContain('Te veel');
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'visitor_limited', format: 'form', status: 429 });
  });

  it('around CloudFront is refused with 403 as it is, not sent on to a page of the site', async () => {
    const response = await direct({ 'content-type': FORM_CONTENT_TYPE }, { body: formBody('Direct') });
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual({ error: ERROR_TEXT.notThroughSite });
    await expectNothingKept();
  });
});
