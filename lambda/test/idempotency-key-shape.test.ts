/**
 * An Idempotency-Key is a UUID and nothing around it: a key with anything before it (the
 * `urn:uuid:` form of RFC 9562) or after it (a header sent twice, which arrives joined by a
 * comma) is answered 400 in Dutch, and nothing is stored, counted or e-mailed. Were either
 * end of the pattern open, such keys would be taken, and two different keys that merely
 * contain the same UUID would name different records.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { IDEMPOTENCY_HEADER } from '@site/core/contract';
import { normaliseIdempotencyKey } from '../src/contact/idempotency';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const UUID = '0f8fad5b-d19b-4fd0-a6f2-7a8e5b9c1d2e';

/** Keys that hold a UUID with something before it, after it, or both. */
const WRAPPED = [
  `urn:uuid:${UUID}`,
  `x${UUID}`,
  `${UUID}x`,
  `${UUID}, ${randomUUID()}`,
  `${UUID}${UUID}`,
  `{${UUID}}`,
  `${UUID}\n`.repeat(2),
];

describe('normaliseIdempotencyKey', () => {
  it('takes a UUID alone, in either case, around whitespace', () => {
    expect(normaliseIdempotencyKey(UUID)).toBe(UUID);
    expect(normaliseIdempotencyKey(` ${UUID.toUpperCase()}\t`)).toBe(UUID);
  });

  it('refuses a UUID with anything before or after it', () => {
    for (const key of WRAPPED) expect(normaliseIdempotencyKey(key), JSON.stringify(key)).toBeUndefined();
  });
});

describe('through the handler', () => {
  const stack = useContactStack();

  it('answers 400 in Dutch to a key with anything before or after the UUID, and keeps nothing', async () => {
    for (const key of WRAPPED.filter((wrapped) => !wrapped.includes('\n'))) {
      const headers = { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key };
      const response = answer(await stack.handler(contactEvent({ headers, body: VALID_BODY })));
      expect(response.statusCode, key).toBe(400);
      expect(response.json, key).toEqual({ error: ERROR_TEXT.invalidIdempotencyKey });
    }
    expect(await stack.aws.items()).toEqual([]);
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it('takes a UUID alone, written in capitals, as its one spelling', async () => {
    const key = randomUUID();
    const headers = { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key.toUpperCase() };
    const response = answer(await stack.handler(contactEvent({ headers, body: VALID_BODY })));
    expect(response.statusCode).toBe(200);
    expect(await stack.aws.message(response.json.id!)).toMatchObject({ idempotencyKey: key });
  });
});
