/** The pure parts of the no-script form post: reading the body, the key, and where it goes on to. */
import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FORM_RESULT_PAGES, refusedFieldsPage } from '@site/core/contract';
import { formAnswer, formResultFor, parseContactRequest, requestFormat } from '../src/http';
import { contentKey, normaliseIdempotencyKey } from '../src/idempotency';
import { contactEvent, VALID_BODY } from './support/events';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('formResultFor', () => {
  it.each([
    [200, 'sent'],
    [400, 'check'],
    [413, 'check'],
    [422, 'failed'],
    [429, 'limited'],
    [500, 'failed'],
    [503, 'failed'],
  ] as const)('sends a form post whose JSON answer would be %i on to %s', (status, result) => {
    expect(formResultFor(status)).toBe(result);
  });

  it('answers 303 with a fixed page, never anything the visitor typed', () => {
    expect(formAnswer({ statusCode: 503, headers: {}, body: '{"error":"x"}' })).toEqual({
      statusCode: 303,
      headers: { Location: '/niet-verzonden', 'Cache-Control': 'no-store' },
      body: '',
    });
    expect(Object.values(FORM_RESULT_PAGES)).toEqual(['/bedankt', '/controleer-bericht', '/niet-verzonden', '/niet-verzonden/limiet']);
  });

  it('names the refused fields in the check page’s path, in the field table’s order, and nothing the visitor typed', () => {
    const refused = { statusCode: 400, headers: {}, body: JSON.stringify({ error: 'x', fields: { message: 'jan@x', email: 'jan' } }) };
    expect(formAnswer(refused).headers).toEqual({ Location: '/controleer-bericht/email-message', 'Cache-Control': 'no-store' });
  });

  it('sends a 400 without known fields, and a 413, to the check page for every field', () => {
    const page = (statusCode: number, body: string) => formAnswer({ statusCode, headers: {}, body }).headers?.Location;
    expect(page(400, '{"error":"x"}')).toBe('/controleer-bericht');
    expect(page(400, '{"error":"x","fields":{"__proto__":"a","website":"b"}}')).toBe('/controleer-bericht');
    expect(page(400, 'not json')).toBe('/controleer-bericht');
    expect(page(413, '{"error":"x"}')).toBe('/controleer-bericht');
  });
});

describe('refusedFieldsPage', () => {
  it('follows whatever table it is given, so a new field gets its own name in the path', () => {
    const table = { ...CONTACT_FIELDS, subject: { ...CONTACT_FIELDS.company, label: 'Onderwerp' } };
    expect(refusedFieldsPage(['subject', 'name'], table)).toBe('/controleer-bericht/name-subject');
    expect(refusedFieldsPage([])).toBe('/controleer-bericht');
  });
});

describe('requestFormat', () => {
  it('is form only for a POST of a form body', () => {
    expect(requestFormat(contactEvent({ headers: FORM, body: 'name=Jan' }))).toBe('form');
    expect(requestFormat(contactEvent({ headers: { 'Content-Type': 'Application/X-WWW-Form-Urlencoded; charset=utf-8' } }))).toBe('form');
    expect(requestFormat(contactEvent({ method: 'GET', headers: FORM }))).toBe('json');
    expect(requestFormat(contactEvent({ headers: { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' } }))).toBe('json');
    expect(requestFormat(contactEvent({ body: VALID_BODY }))).toBe('json');
  });
});

describe('parseContactRequest of a form post', () => {
  const bodyOf = (text: string) => {
    const parsed = parseContactRequest(contactEvent({ headers: FORM, body: text }));
    if (!parsed.ok) throw new Error(`expected a parsed body, got ${parsed.response.statusCode}`);
    return parsed.request.body;
  };

  it('gives one string per name, and every value of a name sent more than once', () => {
    expect(bodyOf('name=Jan+de+Vries&email=jan%40voorbeeld.nl&tag=a&tag=b&tag=c')).toEqual({
      name: 'Jan de Vries',
      email: 'jan@voorbeeld.nl',
      tag: ['a', 'b', 'c'],
    });
  });

  it('keeps __proto__ a plain name', () => {
    const body = bodyOf('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('contentKey', () => {
  const message = { name: 'Jan', email: 'jan@voorbeeld.nl', message: 'Hallo' };

  it('is a UUID of version 8 that the Idempotency-Key rules accept, the same for the same content', () => {
    const key = contentKey(message);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(normaliseIdempotencyKey(key)).toBe(key);
    expect(contentKey({ ...message })).toBe(key);
  });

  it('differs for any difference in any field', () => {
    const keys = [
      message,
      { ...message, name: 'Jan ' },
      { ...message, phone: '06' },
      { ...message, company: '06' },
      { ...message, message: 'hallo' },
    ];
    expect(new Set(keys.map((variant) => contentKey(variant))).size).toBe(keys.length);
  });
});
