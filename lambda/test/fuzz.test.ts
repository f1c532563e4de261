/**
 * Generated requests of every shape through the real handler and the stand-ins: whatever
 * a client sends, the answer is never a 5xx, always the agreed JSON, and every 200 stands
 * for a stored message that passes validation (a filled honeypot's held). The fields sent
 * are the field list's, each by its kind.
 */
import * as fc from 'fast-check';
import { expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames, HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { validateContactMessage } from '../src/contact/schema';
import { BOOKKEEPING_ATTRIBUTES } from '@site/core/table';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const RUNS = 2_000;

const stack = useContactStack();

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const FIELDS = fieldNames(CONTACT_FIELDS);
const nearLimits = FIELDS.flatMap((name) => [-1, 0, 1].map((step) => CONTACT_FIELDS[name].limit + step));

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  fc.string({ unit: fc.oneof(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }), loneSurrogate), maxLength: 20 }),
  fc.constantFrom(
    '<script>alert("x")</script>',
    `"'&<>`,
    'Jan\r\nBcc: piet@voorbeeld.nl',
    '\u0000\u0007\u2028\u2029\u0085',
    '   ',
    '',
    '😀'.repeat(60),
    '__proto__',
    'constructor',
  ),
  fc.constantFrom(...nearLimits).map((length) => 'y'.repeat(length)),
  fc.integer({ min: 0, max: 6_000 }).map((length) => 'é'.repeat(length)),
);

const email = fc.oneof(
  { weight: 12, arbitrary: fc.emailAddress() },
  text,
  fc.emailAddress().map((address) => `${address},${address}`),
  fc.emailAddress().map((address) => ` ${address}\r\n`),
  fc.emailAddress().map((address) => address.replace('@', ' @')),
);

const wrongType = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.anything({ maxDepth: 2 }),
);

/** Mostly the right type, sometimes anything at all, sometimes left out. */
const field = (values: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 16, arbitrary: values }, { weight: 1, arbitrary: wrongType }, { weight: 1, arbitrary: fc.constant(undefined) });

/** By the field's kind: an address for an e-mail field; for a required one, often what a visitor would type. */
const valuesOf = (name: (typeof FIELDS)[number]): fc.Arbitrary<unknown> => {
  const spec = CONTACT_FIELDS[name];
  if (spec.kind === 'email') return email;
  return spec.required ? fc.oneof({ weight: 3, arbitrary: fc.constant(VALID_BODY[name]) }, text) : text;
};

const contactBody = fc
  .record({
    fields: fc.record(Object.fromEntries(FIELDS.map((name) => [name, field(valuesOf(name))]))),
    honeypot: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, fc.constant(''), text, wrongType),
    extra: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    prototypeKeys: fc.subarray(['__proto__', 'constructor', 'prototype']),
    pollution: fc.jsonValue({ maxDepth: 2 }),
  })
  .map(({ honeypot, extra, prototypeKeys, pollution, fields }) => {
    const object = { ...extra, ...fields, ...(honeypot !== undefined && { [HONEYPOT_FIELD]: honeypot }) };
    // Own keys named __proto__ can only be written as JSON text.
    const json = JSON.stringify(object);
    const dangerous = prototypeKeys.map((key) => `${JSON.stringify(key)}:${JSON.stringify({ polluted: pollution })}`).join(',');
    return dangerous === '' ? json : `{${dangerous}${json === '{}' ? '' : `,${json.slice(1)}`}`;
  });

const bodyText = fc.oneof(
  { weight: 20, arbitrary: contactBody },
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc.integer({ min: 30_000, max: 40_000 }).map((length) => JSON.stringify({ ...VALID_BODY, message: 'x'.repeat(length) })),
);

const body = fc.oneof(
  { weight: 10, arbitrary: bodyText.map((text) => ({ body: text, isBase64Encoded: false })) },
  { weight: 2, arbitrary: bodyText.map((text) => ({ body: Buffer.from(text).toString('base64'), isBase64Encoded: true })) },
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ body: Buffer.from(bytes).toString('base64'), isBase64Encoded: true })),
  fc.string({ maxLength: 50 }).map((text) => ({ body: text, isBase64Encoded: true })),
  fc.constant({ body: undefined, isBase64Encoded: false }),
);

const request = fc.record({
  method: fc.oneof(
    { weight: 20, arbitrary: fc.constant('POST') },
    fc.constantFrom('GET', 'PUT', 'DELETE', 'OPTIONS', 'post', ''),
    fc.string({ maxLength: 8 }),
  ),
  contentTypeName: fc.constantFrom('content-type', 'Content-Type', 'CONTENT-TYPE'),
  contentType: fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8') },
    fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/jsonx', ''),
    fc.string({ maxLength: 30 }),
    fc.constant(undefined),
  ),
  idempotencyKey: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, fc.uuid(), fc.string({ maxLength: 40 })),
  otherHeaders: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
  body,
});

type GeneratedRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The JSON object the handler was sent, if there was one. */
function sentObject(generated: GeneratedRequest): Record<string, unknown> | undefined {
  const raw = generated.body.body ?? '';
  try {
    const parsed: unknown = JSON.parse(generated.body.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const honeypotFilled = (sent: Record<string, unknown>) => {
  const value = Object.hasOwn(sent, HONEYPOT_FIELD) ? sent[HONEYPOT_FIELD] : undefined;
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
};

it(`answers ${RUNS} generated requests without a 5xx, and stores exactly what it confirms`, { timeout: 60_000 }, async () => {
  const counts = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(request, async (generated) => {
      const headers: Record<string, string> = { ...generated.otherHeaders };
      if (generated.contentType !== undefined) headers[generated.contentTypeName] = generated.contentType;
      if (generated.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = generated.idempotencyKey;
      const result = await stack.handler(contactEvent({ method: generated.method, headers, ...generated.body }));

      const response = answer(result);
      counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1);
      expect([200, 400, 405, 413, 415, 422]).toContain(response.statusCode);
      expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
      expect(response.headers['Cache-Control']).toBe('no-store');
      if (response.statusCode !== 200) {
        expect(typeof response.json.error).toBe('string');
        expect(Object.keys(response.json).every((key) => key === 'error' || key === 'fields')).toBe(true);
        return;
      }

      expect(Object.keys(response.json)).toEqual(['id']);
      const sent = sentObject(generated);
      expect(sent).toBeDefined();
      const stored = await stack.aws.message(response.json.id!);
      expect(stored).toBeDefined();
      if (!stored) return;
      expect(stored.signals?.includes('honeypot')).toBe(honeypotFilled(sent!));
      if (honeypotFilled(sent!)) expect(stored.status).toBe('held');
      const storedFields = Object.fromEntries(FIELDS.flatMap((name) => (stored[name] === undefined ? [] : [[name, stored[name]]])));
      expect(validateContactMessage(storedFields)).toEqual({ ok: true, value: storedFields });
      expect(validateContactMessage(sent)).toEqual({ ok: true, value: storedFields });
      for (const key of Object.keys(stored)) {
        expect([...FIELDS, ...BOOKKEEPING_ATTRIBUTES]).toContain(key);
      }
      expect(stored).not.toHaveProperty('lastError');
    }),
    { numRuns: RUNS },
  );

  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(stack.logs.entries()).toHaveLength(RUNS);
  // The generators must reach storage often enough for the property to mean something (a
  // filled honeypot is validated like any message, so about a tenth of the runs are stored).
  expect(counts.get(200) ?? 0).toBeGreaterThan(RUNS / 12);
  for (const status of [400, 405, 413, 415]) expect(counts.get(status) ?? 0).toBeGreaterThan(0);

  const messages = await stack.aws.messages();
  const emailed = messages.filter((stored) => stored.status === 'emailed');
  expect(messages.every((stored) => (stored.status === 'emailed' && stored.attempts === 1) || stored.status === 'held')).toBe(true);
  expect(await stack.aws.sentEmails()).toHaveLength(emailed.length);
  for (const name of FIELDS) {
    expect(messages.every((stored) => (stored[name]?.length ?? 0) <= CONTACT_FIELDS[name].limit)).toBe(true);
  }
});
