import { describe, expect, it } from 'vitest';
import { ENCODED_WORD_EMAIL_MESSAGE, INVALID_EMAIL_MESSAGE, tooLongMessage } from '@site/core/content/contact-fields';
import { FIELD_LIMITS, HONEYPOT_FIELD, REQUIRED_FIELDS, type ContactField } from '@site/core/contract';
import { isHoneypotFilled, validateContactMessage } from '../src/contact/schema';
import { VALID_BODY } from '@site/testing/api-events';

function fieldsOf(body: unknown) {
  const result = validateContactMessage(body);
  if (result.ok) throw new Error(`expected a validation error for ${JSON.stringify(body)}`);
  return result.fields;
}

function valueOf(body: unknown) {
  const result = validateContactMessage(body);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(body)} to be valid: ${JSON.stringify(result.fields)}`);
  return result.value;
}

/** A valid address of exactly `length` characters: 64-character local part, 63-character labels. */
function emailOfLength(length: number): string {
  let domain = 'nl';
  while (domain.length < length - 65) domain = `${'d'.repeat(Math.min(63, length - 65 - domain.length - 1))}.${domain}`;
  return `${'a'.repeat(64)}@${domain}`;
}

const REQUIRED_MESSAGES = {
  name: 'Vul uw naam in.',
  email: 'Vul uw e-mailadres in.',
  message: 'Vul uw bericht in.',
} as const;

describe('validateContactMessage', () => {
  it('accepts a complete message and returns the trimmed fields only', () => {
    const value = valueOf({ ...VALID_BODY, name: '  Jan de Vries ', unknown: 'dropped', [HONEYPOT_FIELD]: '' });
    expect(value).toEqual({ ...VALID_BODY, name: 'Jan de Vries' });
  });

  it('leaves out optional fields that are empty or blank', () => {
    const value = valueOf({ ...VALID_BODY, phone: '', company: '   ' });
    expect(value).toEqual({ name: VALID_BODY.name, email: VALID_BODY.email, message: VALID_BODY.message });
    expect(Object.keys(value)).toEqual(['name', 'email', 'message']);
  });

  it.each(REQUIRED_FIELDS)('asks for %s when it is missing, empty or only whitespace', (field) => {
    for (const value of [undefined, '', ' \n\t ']) {
      const body: Record<string, unknown> = { ...VALID_BODY, [field]: value };
      if (value === undefined) delete body[field];
      expect(fieldsOf(body)).toEqual({ [field]: REQUIRED_MESSAGES[field] });
    }
  });

  it('reports every wrong field at once, in Dutch', () => {
    expect(fieldsOf({ phone: 'x'.repeat(FIELD_LIMITS.phone + 1) })).toEqual({
      ...REQUIRED_MESSAGES,
      phone: 'Uw telefoonnummer is te lang (maximaal 40 tekens).',
    });
  });

  it.each(Object.keys(FIELD_LIMITS) as ContactField[])('takes %s up to its limit after trimming, and not one character more', (field) => {
    const limit = FIELD_LIMITS[field];
    const text = (length: number) => (field === 'email' ? emailOfLength(length) : 'x'.repeat(length));
    expect(valueOf({ ...VALID_BODY, [field]: `  ${text(limit)}  ` })[field]).toHaveLength(limit);
    expect(fieldsOf({ ...VALID_BODY, [field]: text(limit + 1) })).toEqual({ [field]: tooLongMessage(field) });
  });

  it('names the limit in the message', () => {
    expect(tooLongMessage('message')).toBe('Uw bericht is te lang (maximaal 5000 tekens).');
    expect(tooLongMessage('name')).toBe('Uw naam is te lang (maximaal 100 tekens).');
  });

  it.each([
    ['name', 42, 'Vul uw naam in.'],
    ['email', ['jan@voorbeeld.nl'], 'Vul uw e-mailadres in.'],
    ['message', { text: 'hallo' }, 'Vul uw bericht in.'],
    ['phone', 55512345, 'Vul een geldig telefoonnummer in.'],
    ['company', true, 'Vul een geldige bedrijfsnaam in.'],
    ['company', null, 'Vul een geldige bedrijfsnaam in.'],
  ])('rejects a %s that is not text (%j)', (field, value, message) => {
    expect(fieldsOf({ ...VALID_BODY, [field]: value })).toEqual({ [field]: message });
  });

  it.each([
    'jan@voorbeeld.nl',
    'Jan.de.Vries+offerte@mail.voorbeeld.co.uk',
    "o'brien@example.ie",
    'x@xn--bcher-kva.example',
    'a_b-c@sub-domain.example.com',
  ])('accepts the address %s', (email) => {
    expect(valueOf({ ...VALID_BODY, email }).email).toBe(email);
  });

  it.each([
    ['no at sign', 'jan.voorbeeld.nl'],
    ['no domain dot', 'jan@localhost'],
    ['two addresses with a comma', 'jan@voorbeeld.nl,piet@voorbeeld.nl'],
    ['a comma in the local part', 'jan,piet@voorbeeld.nl'],
    ['a space', 'jan de vries@voorbeeld.nl'],
    ['an inner CRLF header', 'jan@voorbeeld.nl\r\nBcc: piet@voorbeeld.nl'],
    ['an inner LF', 'jan@voor\nbeeld.nl'],
    ['two at signs', 'jan@piet@voorbeeld.nl'],
    ['a leading dot', '.jan@voorbeeld.nl'],
    ['double dots', 'jan..piet@voorbeeld.nl'],
    ['a numeric TLD', 'jan@voorbeeld.123'],
    ['a hyphen at a label edge', 'jan@-voorbeeld.nl'],
    ['a display name', 'Jan <jan@voorbeeld.nl>'],
    ['non-ASCII (SES cannot send to it)', 'jän@voorbeeld.nl'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@voorbeeld.nl`],
  ])('rejects an address with %s', (_, email) => {
    expect(fieldsOf({ ...VALID_BODY, email })).toEqual({ email: INVALID_EMAIL_MESSAGE });
  });

  it.each([
    ['the issue’s encoded word in the local part', '=?utf-8?q?jan=40evil.example=3e?=@voorbeeld.nl'],
    ['a base64 encoded word', '=?utf-8?b?amFuQGV2aWwuZXhhbXBsZQ==?=@voorbeeld.nl'],
    ['the start of one only', 'jan=?x@voorbeeld.nl'],
  ])('refuses an address holding an encoded word (%s), saying which characters', (_, email) => {
    expect(fieldsOf({ ...VALID_BODY, email })).toEqual({ email: ENCODED_WORD_EMAIL_MESSAGE });
  });

  it('keeps = and ? in an address apart from each other, as the pattern allows', () => {
    expect(valueOf({ ...VALID_BODY, email: 'jan=piet?@voorbeeld.nl' }).email).toBe('jan=piet?@voorbeeld.nl');
  });

  it('makes the name one line, so it is safe in a mail subject', () => {
    expect(valueOf({ ...VALID_BODY, name: 'Jan\r\nBcc: x@y.nl\u2028de\u0000Vries' }).name).toBe('Jan Bcc: x@y.nl de Vries');
  });

  it('keeps line breaks in the message as \\n and drops invisible control characters', () => {
    expect(valueOf({ ...VALID_BODY, message: 'Regel 1\r\nRegel 2\rRegel 3\u0007\n\tIngesprongen' }).message).toBe(
      'Regel 1\nRegel 2\nRegel 3\n\tIngesprongen',
    );
  });

  it('rejects text that has no UTF-8 form (a lone surrogate)', () => {
    expect(fieldsOf({ ...VALID_BODY, message: 'broken \ud800 text' })).toEqual({ message: 'Uw bericht bevat ongeldige tekens.' });
    expect(valueOf({ ...VALID_BODY, message: 'emoji 😀 is fine' }).message).toBe('emoji 😀 is fine');
  });

  it.each([null, [], 'text', 42, true])('asks for every required field when the body is %j', (body) => {
    expect(fieldsOf(body)).toEqual(REQUIRED_MESSAGES);
  });

  it('ignores __proto__ and constructor keys and never copies them', () => {
    const body = JSON.parse(
      `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${JSON.stringify(VALID_BODY).slice(1)}`,
    );
    const value = valueOf(body);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value).sort()).toEqual(['company', 'email', 'message', 'name', 'phone']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('isHoneypotFilled', () => {
  it.each([
    [{}, false],
    [{ [HONEYPOT_FIELD]: '' }, false],
    [{ [HONEYPOT_FIELD]: '   ' }, false],
    [{ [HONEYPOT_FIELD]: null }, false],
    [{ [HONEYPOT_FIELD]: 'https://spam.example' }, true],
    [{ [HONEYPOT_FIELD]: 0 }, true],
    [{ [HONEYPOT_FIELD]: {} }, true],
  ])('%j → %s', (body, filled) => {
    expect(isHoneypotFilled(body)).toBe(filled);
  });

  it('looks at the body itself, not at its prototype', () => {
    expect(isHoneypotFilled(Object.create({ [HONEYPOT_FIELD]: 'inherited' }))).toBe(false);
  });
});
