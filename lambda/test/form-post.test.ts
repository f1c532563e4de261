/**
 * The page's form without scripts: a classic form post (application/x-www-form-urlencoded)
 * through the real handler and the stand-ins. Same fields, limits and validation as JSON;
 * the answer is 303 See Other to a result page whose URL holds nothing typed, or, for a refusal
 * the visitor can act on by sending again, the form again with what was typed in it.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { FORM_RESULT_PAGES, HONEYPOT_FIELD, IDEMPOTENCY_HEADER, MAX_FORM_BODY_BYTES } from '@site/core/contract';
import { contentKey } from '../src/contact/idempotency';
import { validateContactMessage } from '../src/contact/schema';
import { contactEvent, ownMessage, VALID_BODY, type EventParts } from '@site/testing/api-events';
import { readHtml } from '@site/testing/html-page';
import { useContactStack } from './support/contact-stack';

const stack = useContactStack();

beforeEach(() => stack.aws.clearEmails());

const FORM = 'application/x-www-form-urlencoded';

/** The body a browser sends for these fields (every input, the honeypot empty). */
const encoded = (fields: Record<string, string>) =>
  new URLSearchParams({ phone: '', company: '', [HONEYPOT_FIELD]: '', ...fields }).toString();

async function post(body: string, parts: Omit<EventParts, 'body'> = {}) {
  const result = await stack.handler(contactEvent({ headers: { 'content-type': FORM }, ...parts, body }));
  return result as { statusCode: number; headers: Record<string, string>; body: string };
}

const lastLog = () => stack.logs.entries().at(-1);

/** The form on the page a refused post gets, as a browser reads it: each field's value, and the fields marked as refused. */
function formOn(response: { headers: Record<string, string>; body: string }) {
  expect(response.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  const page = readHtml(response.body);
  const { website: _honeypot, ...values } = page.formValues();
  return {
    values,
    refused: page.elements.filter((element) => element.attributes['aria-invalid'] === 'true').map((element) => element.attributes.name),
  };
}
const messagesNamed = async (name: string) => (await stack.aws.messages()).filter((message) => message.name === name);

describe('a valid form post', () => {
  it('is stored and e-mailed once, and sent on to the confirmation page with 303', async () => {
    const name = `Anna ${randomUUID()}`;
    const fields = ownMessage({ name });
    const response = await post(encoded(fields));
    expect(response).toEqual({
      statusCode: 303,
      headers: { Location: FORM_RESULT_PAGES.sent, 'Cache-Control': 'no-store' },
      body: '',
    });
    const [stored, ...others] = await messagesNamed(name);
    expect(others).toEqual([]);
    expect(stored).toMatchObject({ ...fields, status: 'emailed', attempts: 1 });
    expect(await stack.aws.sentEmails()).toHaveLength(1);
    expect(lastLog()).toMatchObject({ outcome: 'stored_and_emailed', format: 'form', status: 303, messageId: stored!.id });
  });

  it('is decoded as a browser encodes it: + for spaces, UTF-8 percent escapes, CRLF line breaks', async () => {
    const name = `Zoë Ångström ${randomUUID()}`;
    const body = `name=${encodeURIComponent(name).replace(/%20/g, '+')}&email=zoe%40voorbeeld.nl&phone=%2B31+6+1234+5678&company=&website=&message=Regel+1%0D%0ARegel+2+%E2%82%AC+%F0%9F%98%80`;
    expect((await post(body)).headers.Location).toBe(FORM_RESULT_PAGES.sent);
    const [stored] = await messagesNamed(name);
    expect(stored).toMatchObject({ email: 'zoe@voorbeeld.nl', phone: '+31 6 1234 5678', message: 'Regel 1\nRegel 2 € 😀' });
    expect(stored).not.toHaveProperty('company');
  });

  it('is accepted base64-encoded, as API Gateway may pass a form body, with a charset', async () => {
    const name = `Base ${randomUUID()}`;
    const response = await post(Buffer.from(encoded(ownMessage({ name }))).toString('base64'), {
      headers: { 'Content-Type': `${FORM}; charset=UTF-8` },
      isBase64Encoded: true,
    });
    expect(response.headers.Location).toBe(FORM_RESULT_PAGES.sent);
    expect(await messagesNamed(name)).toHaveLength(1);
  });

  it('fits whenever the same message fits as JSON: 5000 euro signs are 45 KB encoded', async () => {
    const name = `Euro ${randomUUID()}`;
    const body = encoded(ownMessage({ name, message: '€'.repeat(5000) }));
    expect(Buffer.byteLength(body)).toBeGreaterThan(45_000);
    expect((await post(body)).headers.Location).toBe(FORM_RESULT_PAGES.sent);
    expect((await messagesNamed(name))[0]?.message).toHaveLength(5000);
  });
});

describe('the same form post again (double click, reload, Back and send again)', () => {
  it('is one message and one e-mail, with the confirmation page every time', async () => {
    const name = `Dubbel ${randomUUID()}`;
    const fields = ownMessage({ name });
    const body = encoded(fields);
    const answers = await Promise.all([post(body), post(body)]);
    answers.push(await post(body));
    for (const response of answers) expect(response.headers.Location).toBe(FORM_RESULT_PAGES.sent);
    const messages = await messagesNamed(name);
    expect(messages).toHaveLength(1);
    expect(await stack.aws.sentEmails()).toHaveLength(1);
    expect(lastLog()).toMatchObject({ outcome: 'duplicate', format: 'form', status: 303 });

    // The key is derived from the validated content: spacing the validation removes does not make it new.
    const validated = validateContactMessage(fields);
    if (!validated.ok) throw new Error('expected a valid message');
    const record = (await stack.aws.items()).find(
      (item) => item.id === `idempotency#${contentKey(stack.aws.config.idempotencyHashKeys.current, validated.value)}`,
    );
    expect(record).toMatchObject({ messageId: messages[0]!.id });
    await post(encoded({ ...fields, name: `  ${name} ` }));
    expect(await messagesNamed(name)).toHaveLength(1);
  });

  it('is a new message once the text is changed', async () => {
    const name = `Gewijzigd ${randomUUID()}`;
    const fields = ownMessage({ name });
    await post(encoded(fields));
    await post(encoded({ ...fields, message: `${fields.message} En nog iets.` }));
    expect(await messagesNamed(name)).toHaveLength(2);
    expect(await stack.aws.sentEmails()).toHaveLength(2);
  });

  it('uses an Idempotency-Key header when the client sends one', async () => {
    const name = `Sleutel ${randomUUID()}`;
    const key = randomUUID();
    const headers = { 'content-type': FORM, [IDEMPOTENCY_HEADER.toLowerCase()]: key };
    await post(encoded(ownMessage({ name })), { headers });
    const conflict = await post(encoded({ ...VALID_BODY, name, message: 'Iets anders.' }), { headers });
    expect(conflict.statusCode).toBe(422);
    expect(formOn(conflict).values).toMatchObject({ name, message: 'Iets anders.' });
    expect(lastLog()).toMatchObject({ outcome: 'idempotency_conflict', status: 422 });
    expect((await stack.aws.items()).some((item) => item.id === `idempotency#${key}`)).toBe(true);
  });
});

describe('a form post that cannot be accepted as typed', () => {
  const refusedCases: [label: string, refused: string[], fields: Record<string, string>][] = [
    ['an e-mail address without a domain', ['email'], { ...VALID_BODY, email: 'jan' }],
    ['an empty required field', ['message'], { ...VALID_BODY, message: '   ' }],
    ['a field over its limit', ['name'], { ...VALID_BODY, name: 'x'.repeat(101) }],
    ['two optional fields over their limits', ['phone', 'company'], { ...VALID_BODY, phone: '1'.repeat(41), company: 'x'.repeat(151) }],
  ];

  it.each(refusedCases)('%s: nothing stored or sent, and the form again with what was typed, %s marked', async (_, refused, fields) => {
    const itemsBefore = (await stack.aws.items()).length;
    const response = await post(encoded(fields));
    expect(response.statusCode).toBe(400);
    const form = formOn(response);
    expect(form.refused).toEqual(refused);
    expect(form.values).toEqual({ phone: '', company: '', ...fields });
    expect((await stack.aws.items()).length).toBe(itemsBefore);
    expect(await stack.aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({ outcome: 'invalid', format: 'form', status: 400 });
  });

  it('no fields at all: the empty form with every required field marked', async () => {
    const form = formOn(await post(''));
    expect(form.refused).toEqual(['name', 'email', 'message']);
  });

  const check = FORM_RESULT_PAGES.check;
  // The page comes before the body, so the test's name names the page: a name holding a body over the form limit
  // is too long for any regular expression, and a test runner selecting tests by name (Stryker's) cannot run it.
  // No post of the page's form (it sends each name once, within the limit): nothing to fill in or name, so every field's rules.
  const unreadable: [label: string, page: string, body: string][] = [
    ['a name sent twice', check, `${encoded(VALID_BODY)}&name=Piet`],
    ['a name repeated up to the form limit', check, `${encoded(VALID_BODY)}${'&a'.repeat((MAX_FORM_BODY_BYTES - 200) / 2)}`],
    ['more names than the form has', check, `${encoded(VALID_BODY)}${'&x[]=1&x[a]=2&y'.repeat(3)}`],
    ['a body over the form limit', check, encoded({ ...VALID_BODY, message: 'x'.repeat(MAX_FORM_BODY_BYTES) })],
  ];

  it.each(unreadable)('%s: nothing stored or sent, and the page that says what to check (%s)', async (_, page, body) => {
    const itemsBefore = (await stack.aws.items()).length;
    const response = await post(body);
    expect(response.statusCode).toBe(303);
    expect(response.headers.Location).toBe(page);
    expect((await stack.aws.items()).length).toBe(itemsBefore);
    expect(await stack.aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({ outcome: 'invalid', format: 'form', status: 303 });
  });

  it('answers a filled honeypot with the confirmation page, and stores the message held, e-mailing nothing', async () => {
    const name = `Honingpot ${randomUUID()}`;
    const response = await post(encoded(ownMessage({ name, [HONEYPOT_FIELD]: 'https://spam.example' })));
    expect(response.headers.Location).toBe(FORM_RESULT_PAGES.sent);
    const [stored] = await messagesNamed(name);
    expect(stored).toMatchObject({ status: 'held', heldFor: 'suspect', signals: expect.arrayContaining(['honeypot']) });
    expect(stored).not.toHaveProperty(HONEYPOT_FIELD);
    expect(await stack.aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({ outcome: 'stored_held', heldFor: 'suspect', status: 303 });
  });
});

describe('a form post that cannot be stored', () => {
  it('is not e-mailed, and gets the form again with what was typed, to send once it works again', async () => {
    await stack.aws.stopDynamoDb();
    try {
      const response = await post(encoded(VALID_BODY));
      expect(response.statusCode).toBe(503);
      expect(formOn(response)).toEqual({ values: VALID_BODY, refused: [] });
      expect(await stack.aws.sentEmails()).toEqual([]);
      expect(lastLog()).toMatchObject({ level: 'error', outcome: 'store_failed', format: 'form', status: 503 });
    } finally {
      await stack.aws.startDynamoDb();
    }
  });
});

describe('JSON is unchanged', () => {
  it('still gets JSON answers, also for what a form post would be sent on for', async () => {
    const ok = await stack.handler(contactEvent({ body: VALID_BODY }));
    expect(ok).toMatchObject({ statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    const invalid = await stack.handler(contactEvent({ body: { ...VALID_BODY, email: 'jan' } }));
    expect(invalid).toMatchObject({ statusCode: 400 });
    expect(JSON.parse((invalid as { body: string }).body)).toEqual({
      error: 'Controleer de gemarkeerde velden.',
      fields: { email: 'Vul een geldig e-mailadres in.' },
    });
    expect(lastLog()).toMatchObject({ format: 'json', status: 400 });
  });
});

describe('the log of form posts', () => {
  it('never holds what a visitor typed, in any test of this file', () => {
    const everything = stack.logs.raw();
    expect(everything).not.toBe('');
    for (const value of [...Object.values(VALID_BODY), 'Anna', 'Zoë', 'Dubbel', 'spam.example']) expect(everything).not.toContain(value);
  });
});
