/**
 * What a contact message must look like before it is stored, with the Dutch sentence a
 * visitor sees for each field that is wrong. Built from the field list (core's content), so
 * the page and the handler can never disagree about limits, required fields or texts.
 */
import * as v from 'valibot';
import { invisibleAsStored, isBlank, LINE_BREAKING, LONE_SURROGATE, MESSAGE_LINE_BREAK, MESSAGE_NOISE } from '../shared/characters';
import {
  CONTACT_FIELDS,
  ENCODED_WORD_EMAIL_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  invalidCharactersMessage,
  tooLongMessage,
} from '@site/core/content/contact-fields';
import {
  EMAIL_PATTERN,
  HONEYPOT_FIELD,
  fieldNames,
  hasEncodedWord,
  requiredFields,
  type ContactFields,
  type FieldValues,
} from '@site/core/contract';
import { type ContactFieldSpec, type FieldList } from '@site/core/field-spec';

type TextSchema = v.GenericSchema<unknown, string>;

/**
 * The text as typed, made safe for where the field goes: one line, or lines joined by \n,
 * with only the invisible characters its kind keeps. A text of nothing visible is empty.
 */
function normalisedText(field: ContactFieldSpec): TextSchema {
  const text = v.pipe(
    v.string(field.absent),
    v.check((value) => !LONE_SURROGATE.test(value), invalidCharactersMessage(field)),
    v.transform((value) => invisibleAsStored(field.kind, value)),
  );
  const lines =
    field.kind === 'multiline'
      ? v.pipe(
          text,
          v.transform((value) => value.replace(MESSAGE_LINE_BREAK, '\n').replace(MESSAGE_NOISE, '').trim()),
        )
      : v.pipe(
          text,
          v.transform((value) => value.replace(LINE_BREAKING, ' ').trim()),
        );
  return v.pipe(
    lines,
    v.transform((value) => (isBlank(value) ? '' : value)),
  );
}

function fieldSchema(field: ContactFieldSpec): v.GenericSchema<unknown, string | undefined> {
  const text = normalisedText(field);
  const filled = field.required ? v.pipe(text, v.nonEmpty(field.absent)) : text;
  const limited = v.pipe(filled, v.maxLength(field.limit, tooLongMessage(field)));
  const checked =
    field.kind === 'email'
      ? v.pipe(
          limited,
          // First: such an address matches the pattern, and this says what is wrong with it.
          v.check((value) => !hasEncodedWord(value), ENCODED_WORD_EMAIL_MESSAGE),
          v.check((value) => value === '' || EMAIL_PATTERN.test(value), INVALID_EMAIL_MESSAGE),
        )
      : limited;
  // The form always sends every field; an empty optional one means "not given".
  return field.required
    ? checked
    : v.optional(
        v.pipe(
          checked,
          v.transform((value) => (value === '' ? undefined : value)),
        ),
      );
}

export type ContactMessage<T extends FieldList = ContactFields> = FieldValues<T>;

/** The schema of a message with `fields`. */
export function contactMessageSchema<T extends FieldList>(fields: T): v.GenericSchema<unknown, Record<string, string | undefined>> {
  const entries = Object.fromEntries(fieldNames(fields).map((name) => [name, fieldSchema(fields[name]!)]));
  return v.object(
    entries,
    // Used for a missing key (the field's own schema never runs then) and for a body that is
    // not an object at all.
    (issue) => {
      const key = issue.path?.[0]?.key;
      return typeof key === 'string' && Object.hasOwn(fields, key) ? fields[key]!.absent : REQUIRED_FIELDS_MESSAGE;
    },
  );
}

export const ContactMessageSchema = contactMessageSchema(CONTACT_FIELDS);

const schemas = new WeakMap<FieldList, v.GenericSchema<unknown, Record<string, string | undefined>>>([
  [CONTACT_FIELDS, ContactMessageSchema],
]);

function schemaFor(fields: FieldList) {
  let schema = schemas.get(fields);
  if (!schema) schemas.set(fields, (schema = contactMessageSchema(fields)));
  return schema;
}

export type FieldErrors<T extends FieldList = ContactFields> = Partial<Record<keyof T & string, string>>;

export type ValidationResult<T extends FieldList = ContactFields> =
  { ok: true; value: ContactMessage<T> } | { ok: false; fields: FieldErrors<T> };

/**
 * Checks and normalises a parsed request body. The value returned is a new object holding
 * only the contact fields, trimmed, with empty optional fields left out; nothing else from
 * the body (unknown keys, `__proto__`) can reach storage or mail through it.
 */
export function validateContactMessage<T extends FieldList = ContactFields>(
  body: unknown,
  fields: T = CONTACT_FIELDS as FieldList as T,
): ValidationResult<T> {
  const result = v.safeParse(schemaFor(fields), body);
  if (result.success) {
    const value: Record<string, string> = {};
    for (const name of fieldNames(fields)) {
      const text = result.output[name];
      if (text !== undefined) value[name] = text;
    }
    return { ok: true, value: value as ContactMessage<T> };
  }
  const errors: FieldErrors<T> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string' && Object.hasOwn(fields, key)) errors[key as keyof T & string] ??= issue.message;
  }
  // Not an object at all: every required field is missing.
  if (Object.keys(errors).length === 0) {
    for (const name of requiredFields(fields)) errors[name] = fields[name]!.absent;
  }
  return { ok: false, fields: errors };
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
