/**
 * What a contact message must look like before it is stored, with the Dutch sentence a
 * visitor sees for each field that is wrong. Limits come from contract.ts, so the page and
 * the handler can never disagree about them.
 */
import * as v from 'valibot';
import { LINE_BREAKING, LONE_SURROGATE, MESSAGE_LINE_BREAK, MESSAGE_NOISE } from './characters';
import { FIELD_LIMITS, HONEYPOT_FIELD, REQUIRED_FIELDS, type ContactField } from './contract';

const FIELD_TEXT = {
  name: { absent: 'Vul uw naam in.', label: 'Uw naam' },
  email: { absent: 'Vul uw e-mailadres in.', label: 'Uw e-mailadres' },
  phone: { absent: 'Vul een geldig telefoonnummer in.', label: 'Uw telefoonnummer' },
  company: { absent: 'Vul een geldige bedrijfsnaam in.', label: 'De bedrijfsnaam' },
  message: { absent: 'Vul uw bericht in.', label: 'Uw bericht' },
} as const satisfies Record<ContactField, { absent: string; label: string }>;

export const INVALID_EMAIL_MESSAGE = 'Vul een geldig e-mailadres in.';

export function tooLongMessage(field: ContactField): string {
  return `${FIELD_TEXT[field].label} is te lang (maximaal ${FIELD_LIMITS[field]} tekens).`;
}

function invalidCharactersMessage(field: ContactField): string {
  return `${FIELD_TEXT[field].label} bevat ongeldige tekens.`;
}

/**
 * One address that SES v1 accepts as a Reply-To: an ASCII dot-atom local part and a domain
 * of at least two DNS labels ending in a letter TLD or a punycode TLD. Commas, spaces and
 * line breaks cannot match, so the value can never smuggle in a second address or header.
 */
const EMAIL =
  /^(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

function singleLineText(field: ContactField) {
  return v.pipe(
    v.string(FIELD_TEXT[field].absent),
    v.check((text) => !LONE_SURROGATE.test(text), invalidCharactersMessage(field)),
    v.transform((text) => text.replace(LINE_BREAKING, ' ').trim()),
  );
}

function requiredText(field: ContactField) {
  return v.pipe(singleLineText(field), v.nonEmpty(FIELD_TEXT[field].absent), v.maxLength(FIELD_LIMITS[field], tooLongMessage(field)));
}

function optionalText(field: ContactField) {
  return v.optional(
    v.pipe(
      singleLineText(field),
      v.maxLength(FIELD_LIMITS[field], tooLongMessage(field)),
      // The form always sends every field; an empty one means "not given".
      v.transform((text) => (text === '' ? undefined : text)),
    ),
  );
}

export const ContactMessageSchema = v.object(
  {
    name: requiredText('name'),
    email: v.pipe(requiredText('email'), v.regex(EMAIL, INVALID_EMAIL_MESSAGE)),
    phone: optionalText('phone'),
    company: optionalText('company'),
    message: v.pipe(
      v.string(FIELD_TEXT.message.absent),
      v.check((text) => !LONE_SURROGATE.test(text), invalidCharactersMessage('message')),
      v.transform((text) => text.replace(MESSAGE_LINE_BREAK, '\n').replace(MESSAGE_NOISE, '').trim()),
      v.nonEmpty(FIELD_TEXT.message.absent),
      v.maxLength(FIELD_LIMITS.message, tooLongMessage('message')),
    ),
  },
  // Used for a missing key (the field's own schema never runs then) and for a body that is
  // not an object at all.
  (issue) => absentMessage(issue.path?.[0]?.key),
);

export type ContactMessage = v.InferOutput<typeof ContactMessageSchema>;

export type FieldErrors = Partial<Record<ContactField, string>>;

export type ValidationResult = { ok: true; value: ContactMessage } | { ok: false; fields: FieldErrors };

function isContactField(key: unknown): key is ContactField {
  return typeof key === 'string' && Object.hasOwn(FIELD_LIMITS, key);
}

function absentMessage(key: unknown): string {
  return isContactField(key) ? FIELD_TEXT[key].absent : 'Vul alle verplichte velden in.';
}

/**
 * Checks and normalises a parsed request body. The value returned is a new object holding
 * only the contact fields, trimmed, with empty optional fields left out; nothing else from
 * the body (unknown keys, `__proto__`) can reach storage or mail through it.
 */
export function validateContactMessage(body: unknown): ValidationResult {
  const result = v.safeParse(ContactMessageSchema, body);
  if (result.success) {
    const { name, email, message, phone, company } = result.output;
    return {
      ok: true,
      value: { name, email, message, ...(phone !== undefined && { phone }), ...(company !== undefined && { company }) },
    };
  }
  const fields: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    if (isContactField(key)) fields[key] ??= issue.message;
  }
  // Not an object at all: every required field is missing.
  if (Object.keys(fields).length === 0) {
    for (const field of REQUIRED_FIELDS) fields[field] = FIELD_TEXT[field].absent;
  }
  return { ok: false, fields };
}

/**
 * True when the hidden field carries anything. People never see it; only form-filling bots
 * put something in it, whatever its type.
 */
export function isHoneypotFilled(body: Record<string, unknown>): boolean {
  if (!Object.hasOwn(body, HONEYPOT_FIELD)) return false;
  const value = body[HONEYPOT_FIELD];
  if (value === null || value === undefined) return false;
  return typeof value !== 'string' || value.trim() !== '';
}
