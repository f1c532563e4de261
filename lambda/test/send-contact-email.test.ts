/**
 * The handler end to end against the DynamoDB and SES stand-ins: what is stored, what is
 * e-mailed, what a visitor gets back for every kind of request, and what is logged.
 */
import { randomUUID } from 'node:crypto';
import { decodeTime, isValid } from 'ulid';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  FIELD_LIMITS,
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TTL_SECONDS,
  MAX_BODY_BYTES,
  type ContactField,
} from '@site/core/contract';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { bodyHash } from '../src/contact/idempotency';
import { mailbox } from '../src/mail/mail-header';
import { validateContactMessage } from '../src/contact/schema';
import { answer, contactEvent, distinctText, ownMessage, VALID_BODY, type EventParts } from '@site/testing/api-events';
import { MAIL_FROM, MAIL_TO } from '@site/testing/test-values';
import { useContactStack } from './support/contact-stack';

const stack = useContactStack();

beforeEach(() => stack.aws.clearEmails());

const send = async (parts: EventParts) => answer(await stack.handler(contactEvent(parts)));
/** The same text for the same key (a retry), another for another key: one text from many visitors is a wave's mark. */
const keyedBody = (key: string) => ({ ...VALID_BODY, message: distinctText(key.toLowerCase()) });
const withKey = (key: string, body: unknown = keyedBody(key)): EventParts => ({
  headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER.toLowerCase()]: key },
  body,
});
const lastLog = () => stack.logs.entries().at(-1);

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

describe('a valid message', () => {
  const hostile = {
    name: 'Jan <script>alert("naam")</script>',
    email: "o'brien@voorbeeld.nl",
    phone: '+31 6 "1234" <b>',
    company: 'Vries & Zonen "B.V."',
    message: 'Eerste regel <img src=x onerror=alert(1)>\nTweede "regel"',
  };

  it('is stored, e-mailed to the firm with replies to the visitor, and answered with its id', async () => {
    const before = Date.now();
    const response = await send({ body: hostile });

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject(JSON_HEADERS);
    const id = response.json.id!;
    expect(Object.keys(response.json)).toEqual(['id']);
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before - 1);

    const [email, ...others] = await stack.aws.sentEmails();
    expect(others).toEqual([]);
    expect(email).toMatchObject({
      from: mailbox(NOTIFICATION_TEXT.sender, MAIL_FROM),
      destination: { to: [MAIL_TO], cc: [], bcc: [] },
      replyTo: [hostile.email],
      subject: `Nieuw contactbericht van ${hostile.name} (${hostile.company})`,
    });
    expect(email!.body.html).not.toMatch(/<script|<img|<b>|"regel"|"1234"|"B\.V\."|o'brien/);
    expect(email!.body.html).toContain('Jan &lt;script&gt;alert(&quot;naam&quot;)&lt;/script&gt;');
    expect(email!.body.html).toContain('Vries &amp; Zonen &quot;B.V.&quot;');
    expect(email!.body.html).toContain('&lt;img src=x onerror=alert(1)&gt;<br>Tweede &quot;regel&quot;');
    expect(email!.body.text).toContain(hostile.message);

    const stored = await stack.aws.message(id);
    expect(stored).toEqual({
      ...hostile,
      emailKey: hostile.email,
      id,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: 'emailed',
      attempts: 1,
      expiresAt: expect.any(Number),
      sesMessageId: email!.messageId,
      // The attempt that SES id is of: only that id's events count for it (delivery-events.test.ts).
      emailedAttempt: 1,
      // Its delivery events come back through this set (delivery-events.test.ts).
      configurationSet: stack.aws.config.configurationSet,
      emailedAt: expect.any(String),
      lastAttemptAt: expect.any(String),
      // Sent without the page's script (no stamp), and nothing else: within the mail budget (spam.test.ts).
      score: 2,
      signals: ['noStamp'],
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const receivedSeconds = Date.parse(stored!.receivedAt) / 1000;
    const retention = stack.aws.config.retentionDays * 86_400;
    expect(stored!.expiresAt - receivedSeconds).toBeGreaterThan(retention - 2);
    expect(stored!.expiresAt - receivedSeconds).toBeLessThanOrEqual(retention);
    expect(lastLog()).toMatchObject({ level: 'info', outcome: 'stored_and_emailed', status: 200, attempts: 1, messageId: id });
  });

  it('is stored without the optional fields left empty, and trimmed', async () => {
    const response = await send({ body: { name: ' Piet ', email: ' piet@voorbeeld.nl ', phone: '', company: '  ', message: ' Vraag ' } });
    expect(response.statusCode).toBe(200);
    const stored = await stack.aws.message(response.json.id!);
    expect(stored).toMatchObject({ name: 'Piet', email: 'piet@voorbeeld.nl', message: 'Vraag' });
    expect(stored).not.toHaveProperty('phone');
    expect(stored).not.toHaveProperty('company');
  });

  it('is accepted base64-encoded, with any header case and a UTF-8 charset', async () => {
    const response = await send({
      headers: { 'Content-Type': 'Application/JSON; Charset="UTF-8"' },
      body: Buffer.from(JSON.stringify({ ...VALID_BODY, name: 'Zoë Ångström 😀' })).toString('base64'),
      isBase64Encoded: true,
    });
    expect(response.statusCode).toBe(200);
    expect((await stack.aws.message(response.json.id!))?.name).toBe('Zoë Ångström 😀');
  });

  it.each(['application/json; charset=utf8', 'application/json; boundary=x; charset=utf-8'])(
    'is accepted with the charset written %j',
    async (contentType) => {
      const response = await send({ headers: { 'content-type': contentType }, body: VALID_BODY });
      expect(response.statusCode).toBe(200);
    },
  );

  it('is refused as too large one byte over the limit, base64-encoded as long as the limit itself encodes', async () => {
    // 32,769 bytes take as many base64 characters as 32,768 do: only the decoded length tells them apart.
    const skeleton = JSON.stringify({ ...VALID_BODY, padding: '' });
    const body = JSON.stringify({ ...VALID_BODY, padding: 'x'.repeat(MAX_BODY_BYTES + 1 - Buffer.byteLength(skeleton)) });
    const encoded = Buffer.from(body).toString('base64');
    expect(encoded.length).toBe(Buffer.from('x'.repeat(MAX_BODY_BYTES)).toString('base64').length);
    const response = await send({ body: encoded, isBase64Encoded: true });
    expect(response.statusCode).toBe(413);
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it.each([false, true])('is accepted at exactly the body limit in bytes (base64: %s)', async (isBase64Encoded) => {
    const skeleton = JSON.stringify({ ...VALID_BODY, padding: '' });
    const body = JSON.stringify({ ...VALID_BODY, padding: 'x'.repeat(MAX_BODY_BYTES - Buffer.byteLength(skeleton)) });
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const response = await send({ body: isBase64Encoded ? Buffer.from(body).toString('base64') : body, isBase64Encoded });
    expect(response.statusCode).toBe(200);
    expect(await stack.aws.message(response.json.id!)).not.toHaveProperty('padding');
  });

  it('is stored with its address as typed, and lower-cased for the byEmail index', async () => {
    const response = await send({ body: { ...VALID_BODY, email: ' Jan.De.Vries@Voorbeeld.NL ' } });
    expect(await stack.aws.message(response.json.id!)).toMatchObject({
      email: 'Jan.De.Vries@Voorbeeld.NL',
      emailKey: 'jan.de.vries@voorbeeld.nl',
    });
  });

  it('gets a new id every time when no Idempotency-Key is sent', async () => {
    const body = ownMessage();
    const first = await send({ body });
    const second = await send({ body });
    expect(first.json.id).not.toBe(second.json.id);
    expect(await stack.aws.sentEmails()).toHaveLength(2);
  });
});

const FIELDS_ERROR = 'Controleer de gemarkeerde velden.';
const UNREADABLE = 'Het bericht kon niet worden gelezen.';
const euroBody = (bytes: number) => JSON.stringify({ ...VALID_BODY, message: '€'.repeat(Math.ceil(bytes / 3)) });
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
/** `body` as JSON of a whole number of 3-byte groups, so its base64 has no padding. */
const unpadded = (body: object) => {
  const json = JSON.stringify(body);
  return json + ' '.repeat((3 - (Buffer.byteLength(json) % 3)) % 3);
};
const overLimit = (field: ContactField) =>
  field === 'email' ? `${'a'.repeat(64)}@${'b'.repeat(FIELD_LIMITS.email - 64)}.nl` : 'x'.repeat(FIELD_LIMITS[field] + 1);

describe('a refused request stores nothing, sends nothing and says why in Dutch', () => {
  const cases: [label: string, status: number, parts: EventParts, error: string, fields?: Record<string, string>][] = [
    ['GET', 405, { method: 'GET', body: VALID_BODY }, 'Deze methode is niet toegestaan; verzend het bericht met POST.'],
    ['OPTIONS', 405, { method: 'OPTIONS' }, 'Deze methode is niet toegestaan; verzend het bericht met POST.'],
    [
      'text/plain',
      415,
      { headers: { 'content-type': 'text/plain' }, body: VALID_BODY },
      'Verzend het bericht als JSON (Content-Type: application/json).',
    ],
    ['no Content-Type', 415, { headers: {}, body: VALID_BODY }, 'Verzend het bericht als JSON (Content-Type: application/json).'],
    [
      'a multipart form',
      415,
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' },
      'Verzend het bericht als JSON (Content-Type: application/json).',
    ],
    [
      'JSON in Latin-1',
      415,
      { headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: VALID_BODY },
      'Verzend het bericht als JSON (Content-Type: application/json).',
    ],
    [
      'a JSON look-alike type',
      415,
      { headers: { 'content-type': 'application/json-patch+json' }, body: VALID_BODY },
      'Verzend het bericht als JSON (Content-Type: application/json).',
    ],
    [
      'one byte over the limit in multi-byte characters',
      413,
      { body: euroBody(MAX_BODY_BYTES + 1) },
      'Uw bericht is te groot om te verzenden.',
    ],
    [
      'over the limit once base64-decoded',
      413,
      { body: base64(euroBody(MAX_BODY_BYTES + 1)), isBase64Encoded: true },
      'Uw bericht is te groot om te verzenden.',
    ],
    ['invalid JSON', 400, { body: '{"name": "Jan",' }, UNREADABLE],
    ['an empty body', 400, {}, UNREADABLE],
    ['a JSON array', 400, { body: [VALID_BODY] }, UNREADABLE],
    ['JSON null', 400, { body: 'null' }, UNREADABLE],
    ['a JSON string', 400, { body: '"hallo"' }, UNREADABLE],
    ['invalid UTF-8', 400, { body: base64(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), isBase64Encoded: true }, UNREADABLE],
    ['half a surrogate pair', 400, { body: `{"name":"\ud800"}` }, UNREADABLE],
    ['broken base64', 400, { body: '{not base64}', isBase64Encoded: true }, UNREADABLE],
    // A decoder skips what is not base64 and drops a lone last character; no gateway sends either.
    [
      'base64 of a valid message after characters outside base64',
      400,
      { body: `!!!!${base64(JSON.stringify(VALID_BODY))}`, isBase64Encoded: true },
      UNREADABLE,
    ],
    [
      'base64 of a valid message before characters outside base64',
      400,
      { body: `${base64(JSON.stringify(VALID_BODY))}!!!!`, isBase64Encoded: true },
      UNREADABLE,
    ],
    [
      'base64 of a valid message with one character more than any bytes make',
      400,
      { body: `${base64(unpadded(VALID_BODY))}A`, isBase64Encoded: true },
      UNREADABLE,
    ],
    ['an Idempotency-Key that is not a UUID', 400, withKey('1234'), 'De Idempotency-Key moet een UUID zijn.'],
    [
      'no fields',
      400,
      { body: {} },
      FIELDS_ERROR,
      { name: 'Vul uw naam in.', email: 'Vul uw e-mailadres in.', message: 'Vul uw bericht in.' },
    ],
    [
      'blank required fields',
      400,
      { body: { ...VALID_BODY, name: ' ', message: '\n' } },
      FIELDS_ERROR,
      { name: 'Vul uw naam in.', message: 'Vul uw bericht in.' },
    ],
    ['a number as name', 400, { body: { ...VALID_BODY, name: 7 } }, FIELDS_ERROR, { name: 'Vul uw naam in.' }],
    ...(Object.keys(FIELD_LIMITS) as ContactField[]).map((field): [string, number, EventParts, string, Record<string, string>] => [
      `${field} over its limit`,
      400,
      { body: { ...VALID_BODY, [field]: overLimit(field) } },
      FIELDS_ERROR,
      { [field]: expect.stringMatching(new RegExp(`te lang \\(maximaal ${FIELD_LIMITS[field]} tekens\\)\\.$`)) },
    ]),
    ...['jan@voorbeeld.nl, piet@voorbeeld.nl', 'jan @voorbeeld.nl', 'jan@voorbeeld.nl\r\nBcc: piet@voorbeeld.nl', 'jan@voorbeeld'].map(
      (email): [string, number, EventParts, string, Record<string, string>] => [
        `the address ${JSON.stringify(email)}`,
        400,
        { body: { ...VALID_BODY, email } },
        FIELDS_ERROR,
        { email: 'Vul een geldig e-mailadres in.' },
      ],
    ),
  ];

  it.each(cases)('%s → %i', async (_, status, parts, error, fields) => {
    const itemsBefore = (await stack.aws.items()).length;
    const response = await send(parts);
    expect(response.statusCode).toBe(status);
    expect(response.headers).toMatchObject(JSON_HEADERS);
    expect(response.json).toEqual(fields ? { error, fields } : { error });
    if (status === 405) expect(response.headers.Allow).toBe('POST');
    expect((await stack.aws.items()).length).toBe(itemsBefore);
    expect(await stack.aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({ outcome: 'invalid', status, attempts: 0 });
  });
});

describe('the honeypot', () => {
  it('answers an otherwise valid message like any other, stores it held for the digest, and e-mails nothing', async () => {
    const response = await send({ body: { ...ownMessage(), [HONEYPOT_FIELD]: 'https://spam.example' } });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json)).toEqual(['id']);
    expect(isValid(response.json.id!)).toBe(true);
    const stored = await stack.aws.message(response.json.id!);
    expect(stored).toMatchObject({ status: 'held', heldFor: 'suspect', signals: expect.arrayContaining(['honeypot']) });
    expect(stored).not.toHaveProperty(HONEYPOT_FIELD);
    expect(await stack.aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({ outcome: 'stored_held', status: 200, heldFor: 'suspect' });
    // The privacy statement's "technische logboeken": why held, never the score or the signals (kept with the message only).
    expect(lastLog()).not.toHaveProperty('score');
    expect(lastLog()).not.toHaveProperty('signals');
  });

  it('refuses an otherwise invalid message like any other: the field named, nothing stored', async () => {
    const itemsBefore = (await stack.aws.items()).length;
    const response = await send({ body: { name: '', [HONEYPOT_FIELD]: 'spam' } });
    expect(response.statusCode).toBe(400);
    expect((await stack.aws.items()).length).toBe(itemsBefore);
    expect(lastLog()).toMatchObject({ outcome: 'invalid', status: 400 });
  });
});

describe('Idempotency-Key', () => {
  const messageItems = async (id: string) => (await stack.aws.items()).filter((item) => item.id === id);

  it('gives the same id for the same key twice, with one message and one e-mail', async () => {
    const key = randomUUID();
    const first = await send(withKey(key));
    const second = await send(withKey(key.toUpperCase()));
    expect(first.statusCode).toBe(200);
    expect(second).toEqual(first);
    expect(await messageItems(first.json.id!)).toHaveLength(1);
    expect(await stack.aws.sentEmails()).toHaveLength(1);
    expect(lastLog()).toMatchObject({ outcome: 'duplicate', status: 200, attempts: 0, messageId: first.json.id });
  });

  it('keeps its record out of the status index and expires it after the idempotency window', async () => {
    const key = randomUUID();
    const before = Math.floor(Date.now() / 1000);
    const { json } = await send(withKey(key));
    const record = (await stack.aws.items()).find((item) => item.id === `idempotency#${key}`);
    expect(record).toEqual({
      id: `idempotency#${key}`,
      messageId: json.id,
      bodyHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      hashKeyName: stack.aws.config.idempotencyHashKeys.current.name,
      expiresAt: expect.any(Number),
    });
    expect(record!.expiresAt).toBeGreaterThanOrEqual(before + IDEMPOTENCY_TTL_SECONDS);
    expect(record!.expiresAt).toBeLessThanOrEqual(before + IDEMPOTENCY_TTL_SECONDS + 2);
  });

  it('refuses the same key for a different message with 422', async () => {
    const key = randomUUID();
    const first = await send(withKey(key));
    const other = await send(withKey(key, { ...VALID_BODY, message: 'Een ander bericht.' }));
    expect(other.statusCode).toBe(422);
    expect(other.json).toEqual({ error: 'Deze Idempotency-Key is al gebruikt voor een ander bericht.' });
    expect(await messageItems(first.json.id!)).toHaveLength(1);
    expect(await stack.aws.sentEmails()).toHaveLength(1);
    expect(lastLog()).toMatchObject({ outcome: 'idempotency_conflict', status: 422 });
  });

  it('treats the same fields with other JSON spacing and key order as the same message', async () => {
    const key = randomUUID();
    const first = await send(withKey(key));
    const { name, email, phone, company, message } = keyedBody(key);
    const second = await send(withKey(key, JSON.stringify({ message, company, phone, email: ` ${email}`, name }, null, 2)));
    expect(second.json.id).toBe(first.json.id);
    expect(await stack.aws.sentEmails()).toHaveLength(1);
  });

  it('stores one message and sends one e-mail for 50 concurrent duplicates', async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(withKey(key))));
    const ids = new Set(responses.map((response) => response.json.id));
    const outcomes = stack.logs
      .entries()
      .slice(-50)
      .map((entry) => `${String(entry.status)} ${String(entry.outcome)}`);
    expect(outcomes.filter((outcome) => !outcome.startsWith('200 '))).toEqual([]);
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(await messageItems(id!)).toHaveLength(1);
    expect((await stack.aws.items()).filter((item) => String(item.id).startsWith(`idempotency#${key}`))).toHaveLength(1);
    expect(await stack.aws.sentEmails()).toHaveLength(1);
    expect(
      stack.logs
        .entries()
        .slice(-50)
        .filter((entry) => entry.outcome === 'stored_and_emailed'),
    ).toHaveLength(1);
  });

  it('stores the message on a retry when an earlier request reserved the key but could not store it', async () => {
    const key = randomUUID();
    const reservedId = '01JD5R5XKQ0000000000000000';
    const validated = validateContactMessage(keyedBody(key));
    if (!validated.ok) throw new Error('the keyed body must be valid');
    await stack.aws.put({
      id: `idempotency#${key}`,
      messageId: reservedId,
      bodyHash: bodyHash(stack.aws.config.idempotencyHashKeys.current, validated.value),
      hashKeyName: stack.aws.config.idempotencyHashKeys.current.name,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });

    const response = await send(withKey(key));
    expect(response.json).toEqual({ id: reservedId });
    expect(await stack.aws.message(reservedId)).toMatchObject({ status: 'emailed', name: VALID_BODY.name });
    expect(await stack.aws.sentEmails()).toHaveLength(1);
  });

  it('treats a key past its window as new', async () => {
    const key = randomUUID();
    const { json: old } = await send(withKey(key));
    await stack.aws.put({ id: `idempotency#${key}`, messageId: old.id, bodyHash: 'stale', expiresAt: Math.floor(Date.now() / 1000) - 1 });
    await stack.aws.clearEmails();

    const response = await send(withKey(key));
    expect(response.statusCode).toBe(200);
    expect(response.json.id).not.toBe(old.id);
    expect(await stack.aws.message(response.json.id!)).toMatchObject({ status: 'emailed' });
    expect(await stack.aws.sentEmails()).toHaveLength(1);
  });
});

describe('the log', () => {
  const distinctive = {
    name: 'Quirijn Zwanenburg-Oudshoorn',
    email: 'q.zwanenburg.oudshoorn@uniek-voorbeeld.nl',
    phone: '+31 6 98765432',
    company: 'Zwanenburg Oudshoorn Holding',
    message: 'Vertrouwelijke vraag over de jaarrekening van Zwanenburg.',
  };

  it('has exactly one line per request with the agreed fields', async () => {
    stack.logs.clear();
    const key = randomUUID();
    const requests: EventParts[] = [
      { body: distinctive },
      withKey(key, distinctive),
      withKey(key, distinctive),
      withKey(key, { ...distinctive, message: `${distinctive.message} Anders.` }),
      { body: { ...distinctive, email: `${distinctive.email},${distinctive.email}` } },
      { body: { ...distinctive, name: distinctive.name.repeat(5) } },
      { body: { ...distinctive, [HONEYPOT_FIELD]: distinctive.company } },
      { method: 'PUT', body: distinctive },
      { headers: { 'content-type': 'text/plain' }, body: distinctive },
      { body: JSON.stringify(distinctive).slice(0, -1) },
    ];
    for (const parts of requests) await send(parts);

    const entries = stack.logs.entries();
    expect(entries).toHaveLength(requests.length);
    expect(entries.map((entry) => entry.outcome)).toEqual([
      'stored_and_emailed',
      'stored_and_emailed',
      'duplicate',
      'idempotency_conflict',
      'invalid',
      'invalid',
      'stored_held',
      'invalid',
      'invalid',
      'invalid',
    ]);
    for (const entry of entries) {
      expect(entry).toEqual(
        expect.objectContaining({
          level: expect.stringMatching(/^(info|warn|error)$/),
          msg: 'contact request',
          requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
          status: expect.any(Number),
          durationMs: expect.any(Number),
          attempts: expect.any(Number),
        }),
      );
    }
  });

  it('never holds what a visitor typed, in any test of this file', () => {
    const everything = stack.logs.raw();
    expect(everything).not.toBe('');
    const typed = [...Object.values(distinctive), ...Object.values(VALID_BODY), 'Jan <script>', "o'brien", 'Zoë'];
    for (const value of typed) expect(everything).not.toContain(value);
    for (const fragment of ['Zwanenburg', 'jaarrekening', '98765432', 'uniek-voorbeeld']) expect(everything).not.toContain(fragment);
  });
});
