/** The pure parts of the no-script form post: reading the body, the key, and where it goes on to. */
import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import {
  fieldNames,
  FORM_PARAMETER_MARGIN,
  FORM_RESULT_PAGES,
  HONEYPOT_FIELD,
  MAX_FORM_BODY_BYTES,
  maxFormParameters,
  refusedFieldsPage,
} from '@site/core/contract';
import type { FieldList } from '@site/core/field-spec';
import { FIELDS_WITH_JOB_TITLE } from '@site/testing/fixtures/fields';
import { formAnswer, formResultFor, parseContactRequest, requestFormat } from '../src/contact/http';
import { contentKey, idempotencyHashKeys, normaliseIdempotencyKey } from '../src/contact/idempotency';
import { contactEvent, VALID_BODY } from '@site/testing/api-events';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';

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
    expect(Object.values(FORM_RESULT_PAGES)).toEqual([
      '/bedankt',
      '/via-andere-website',
      '/controleer-bericht',
      '/niet-verzonden',
      '/niet-verzonden/limiet',
      '/niet-verzonden/druk',
    ]);
  });

  it('names the refused fields in the check page’s path, in the field list’s order, and nothing the visitor typed', () => {
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
  const parse = (text: string, fields: FieldList = CONTACT_FIELDS) =>
    parseContactRequest(contactEvent({ headers: FORM, body: text }), fields);
  const bodyOf = (text: string, fields?: FieldList) => {
    const parsed = parse(text, fields);
    if (!parsed.ok) throw new Error(`expected a parsed body, got ${parsed.response.statusCode}`);
    return parsed.request.body;
  };
  const refusal = (text: string, fields?: FieldList) => {
    const parsed = parse(text, fields);
    if (parsed.ok) throw new Error('expected a refusal');
    return { statusCode: parsed.response.statusCode, body: JSON.parse(parsed.response.body!) as unknown };
  };
  /** A body of `count` names: the table's own first, then names the form does not have. */
  const namesOf = (count: number, fields: FieldList = CONTACT_FIELDS) =>
    [...fieldNames(fields), HONEYPOT_FIELD, ...Array.from({ length: count }, (_, i) => `extra${i}`)]
      .slice(0, count)
      .map((name) => `${name}=x`)
      .join('&');

  it('gives one string per name', () => {
    expect(bodyOf('name=Jan+de+Vries&email=jan%40voorbeeld.nl&tag=a')).toEqual({
      name: 'Jan de Vries',
      email: 'jan@voorbeeld.nl',
      tag: 'a',
    });
  });

  it('keeps __proto__ a plain name', () => {
    const body = bodyOf('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses a name sent twice with a Dutch 400 that says so, whatever the name', () => {
    for (const text of ['name=Jan&name=Piet', 'tag=a&tag=b', 'a[]=1&a[]=2', 'a&a', `${namesOf(3)}&name=Piet`]) {
      expect(refusal(text)).toEqual({ statusCode: 400, body: { error: ERROR_TEXT.malformedForm } });
    }
  });

  it("takes as many names as the table's fields, the honeypot and the margin, and refuses one more", () => {
    const most = maxFormParameters(CONTACT_FIELDS);
    expect(most).toBe(fieldNames(CONTACT_FIELDS).length + 1 + FORM_PARAMETER_MARGIN);
    expect(Object.keys(bodyOf(namesOf(most)))).toHaveLength(most);
    expect(refusal(namesOf(most + 1))).toEqual({ statusCode: 400, body: { error: ERROR_TEXT.malformedForm } });
  });

  it('counts the names of the table it was given: a field added to the table is room for one more', () => {
    const most = maxFormParameters(FIELDS_WITH_JOB_TITLE);
    expect(most).toBe(maxFormParameters(CONTACT_FIELDS) + 1);
    expect(Object.keys(bodyOf(namesOf(most, FIELDS_WITH_JOB_TITLE), FIELDS_WITH_JOB_TITLE))).toHaveLength(most);
    expect(refusal(namesOf(most, FIELDS_WITH_JOB_TITLE)).statusCode).toBe(400);
  });

  it('refuses bodies at the form limit made of names: repeated, distinct or bracketed', () => {
    /** `part(0)&part(1)&…`, as long as the form limit allows. */
    const upToTheLimit = (part: (i: number) => string) => {
      const parts: string[] = [];
      for (let i = 0, bytes = part(0).length; bytes <= MAX_FORM_BODY_BYTES; i += 1, bytes += part(i).length + 1) parts.push(part(i));
      return parts.join('&');
    };
    for (const text of [
      upToTheLimit(() => 'a'),
      upToTheLimit((i) => `n${i}=`),
      upToTheLimit((i) => `a[${i}]=x`),
      upToTheLimit(() => 'a[]=x'),
    ]) {
      expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_FORM_BODY_BYTES - 16);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_FORM_BODY_BYTES);
      expect(refusal(text)).toEqual({ statusCode: 400, body: { error: ERROR_TEXT.malformedForm } });
    }
  });
});

describe('contentKey', () => {
  const message = { name: 'Jan', email: 'jan@voorbeeld.nl', message: 'Hallo' };
  const hashKey = idempotencyHashKeys({ current: TEST_ORIGIN_SECRET }).current;

  it('is a UUID of version 8 that the Idempotency-Key rules accept, the same for the same content', () => {
    const key = contentKey(hashKey, message);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(normaliseIdempotencyKey(key)).toBe(key);
    expect(contentKey(hashKey, { ...message })).toBe(key);
  });

  it('differs for any difference in any field', () => {
    const keys = [
      message,
      { ...message, name: 'Jan ' },
      { ...message, phone: '06' },
      { ...message, company: '06' },
      { ...message, message: 'hallo' },
    ];
    expect(new Set(keys.map((variant) => contentKey(hashKey, variant))).size).toBe(keys.length);
  });
});
