/**
 * What the form checks before it sends, with the server's own rules and sentences from the
 * field list (the server checks again; this only spares the visitor a round trip), and how
 * near a field is to its limit. Pure functions of the values and the field list.
 */
import { ENCODED_WORD_EMAIL_MESSAGE, INVALID_EMAIL_MESSAGE, tooLongMessage } from '@site/core/content/contact-fields';
import { EMAIL_PATTERN, fieldNames, hasEncodedWord } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';

/** Per field, the Dutch sentence that says what is wrong with it. */
export type FieldProblems = Partial<Record<string, string>>;

export interface FormCheck {
  problems: FieldProblems;
  /** A required field is empty: the spec's own toast says so. */
  missingRequired: boolean;
}

/** `values` are the trimmed texts that would be sent. */
export function checkFields(values: Readonly<Record<string, string>>, fields: FieldList): FormCheck {
  const problems: FieldProblems = {};
  let missingRequired = false;
  for (const name of fieldNames(fields)) {
    const field = fields[name]!;
    const value = values[name] ?? '';
    if (value === '') {
      if (field.required) {
        problems[name] = field.absent;
        missingRequired = true;
      }
    } else if (value.length > field.limit) {
      problems[name] = tooLongMessage(field);
    } else if (field.kind === 'email' && hasEncodedWord(value)) {
      problems[name] = ENCODED_WORD_EMAIL_MESSAGE;
    } else if (field.kind === 'email' && !EMAIL_PATTERN.test(value)) {
      problems[name] = INVALID_EMAIL_MESSAGE;
    }
  }
  return { problems, missingRequired };
}

/** From this share of its limit on, a field shows how many characters are left. */
export const NEAR_LIMIT_SHARE = 0.9;

export interface LengthState {
  /** Characters as the server counts them: the trimmed text's length. */
  count: number;
  limit: number;
  /** Near enough to the limit (or past it) to show the count. */
  near: boolean;
  over: boolean;
}

export function lengthState(value: string, limit: number): LengthState {
  const count = value.trim().length;
  return { count, limit, near: count >= Math.ceil(limit * NEAR_LIMIT_SHARE), over: count > limit };
}
