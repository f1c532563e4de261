/**
 * The contact-field table with one optional field more, for the tests that prove a field
 * added to the table needs nothing else: the form, its check page and the privacy statement
 * (frontend), validation, storage, the e-mail and `npm run messages` (node). One row for all.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { FieldTable } from '@site/core/field-spec';

/** A job title: optional, one line, at most 100 characters. */
export const JOB_TITLE_FIELD = {
  limit: 100,
  required: false,
  kind: 'text',
  label: 'Functie',
  mailLabel: 'Functie',
  named: 'Uw functie',
  absent: 'Vul een geldige functie in.',
  autoComplete: 'organization-title',
} as const;

export const FIELDS_WITH_JOB_TITLE = { ...CONTACT_FIELDS, functie: JOB_TITLE_FIELD } as const satisfies FieldTable;
