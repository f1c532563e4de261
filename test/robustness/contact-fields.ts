/**
 * The contact fields as the robustness suite sends them, taken from the field list
 * (CONTACT_FIELDS in @site/core/content/contact-fields) by kind, never by name: a field added there is
 * loaded, fuzzed and read back too.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames, requiredFields, type ContactField } from '@site/core/contract';
import { type FieldKind } from '@site/core/field-spec';
import { distinctText } from '@site/testing/api-events';

export const FIELDS: readonly ContactField[] = fieldNames(CONTACT_FIELDS);
export const REQUIRED_FIELDS: readonly ContactField[] = requiredFields(CONTACT_FIELDS);

export const kindOf = (field: ContactField): FieldKind => CONTACT_FIELDS[field].kind;
const ofKind = (kind: FieldKind) => FIELDS.filter((field) => kindOf(field) === kind);

/** The fields that hold the visitor's address (one in today's table). */
export const EMAIL_FIELDS = ofKind('email');
/**
 * The fields of several lines: the message. The suite puts each message's marker there
 * (markerOfItem in verify.ts reads it back), as a visitor's own text would carry it.
 */
export const TEXT_FIELDS = ofKind('multiline');

/** A valid value of each kind, for a message that must get through. */
const VALID: Record<FieldKind, string> = {
  text: 'Robustheid Test',
  email: 'bezoeker@example.nl',
  phone: '+31 20 123 4567',
  multiline: 'Een gewoon bericht.',
};

/** A valid message, every field filled, its text carrying `marker`; cut to each field's limit. */
export function validMessage(marker: string): [ContactField, string][] {
  return FIELDS.map((field) => {
    // A text of its own (distinctText): one text from many senders is a near-copy wave, held.
    const value = kindOf(field) === 'multiline' ? `${distinctText(marker)} Kenmerk test: ${marker}` : VALID[kindOf(field)];
    return [field, [...value].slice(0, CONTACT_FIELDS[field].limit).join('')];
  });
}
