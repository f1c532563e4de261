/**
 * The contact form's fields, one row each: the rules the function and the form both check
 * (limit, required, kind) and every Dutch text about the field (its label on the form, its
 * label in the firm's e-mail, the sentences a visitor reads). With them, the sentences about
 * fields in general. A field added to the table is validated, stored, e-mailed, shown on the
 * form and its check page, and listed in the privacy statement without any other change.
 */
import type { ContactFieldSpec, FieldList } from '../field-spec';

/** Every contact field, in the order the form shows them and the e-mail lists them. */
export const CONTACT_FIELDS = {
  name: {
    limit: 100,
    required: true,
    kind: 'text',
    label: 'Naam',
    mailLabel: 'Naam',
    named: 'Uw naam',
    absent: 'Vul uw naam in.',
    autoComplete: 'name',
  },
  email: {
    limit: 254,
    required: true,
    kind: 'email',
    label: 'E-mailadres',
    mailLabel: 'E-mail',
    named: 'Uw e-mailadres',
    absent: 'Vul uw e-mailadres in.',
    autoComplete: 'email',
  },
  phone: {
    limit: 40,
    required: false,
    kind: 'phone',
    label: 'Telefoonnummer',
    mailLabel: 'Telefoon',
    named: 'Uw telefoonnummer',
    absent: 'Vul een geldig telefoonnummer in.',
    autoComplete: 'tel',
  },
  company: {
    limit: 150,
    required: false,
    kind: 'text',
    label: 'Bedrijf',
    mailLabel: 'Bedrijf',
    named: 'De bedrijfsnaam',
    absent: 'Vul een geldige bedrijfsnaam in.',
    autoComplete: 'organization',
  },
  message: {
    limit: 5000,
    required: true,
    kind: 'multiline',
    label: 'Bericht',
    mailLabel: 'Bericht',
    named: 'Uw bericht',
    absent: 'Vul uw bericht in.',
  },
} as const satisfies FieldList;

/** The label of the field only bots fill in (the honeypot); people never see it. */
export const HONEYPOT_LABEL = 'Website (laat dit veld leeg)';

/** Above the form's fields, which mark the required ones with a *. */
export const REQUIRED_NOTE = 'Velden met een * zijn verplicht.';

/** What the form shows, and the server answers, when a required field is empty. */
export const REQUIRED_FIELDS_MESSAGE = 'Vul alle verplichte velden in.';

export const INVALID_EMAIL_MESSAGE = 'Vul een geldig e-mailadres in.';

/** An address holding `=?` (the start of an encoded word, which mail programs read as code): see ENCODED_WORD_START. */
export const ENCODED_WORD_EMAIL_MESSAGE = 'Vul een e-mailadres in zonder de tekens =? erin.';

type Field = keyof typeof CONTACT_FIELDS | ContactFieldSpec;

const specOf = (field: Field): ContactFieldSpec => (typeof field === 'string' ? CONTACT_FIELDS[field] : field);

export function tooLongMessage(field: Field): string {
  const { named, limit } = specOf(field);
  return `${named} is te lang (maximaal ${limit} tekens).`;
}

export function invalidCharactersMessage(field: Field): string {
  return `${specOf(field).named} bevat ongeldige tekens.`;
}
