/**
 * What a contact field is: its rules and texts. The site's table of fields (CONTACT_FIELDS in
 * content/contact-fields.ts) and the contract derived from it (contract.ts) both build on
 * these types, so they live below both.
 */
/**
 * How a field is typed and shown: one line of text, an e-mail address, a phone number, or
 * several lines. The kind decides the validation, the input element and the e-mail's rendering.
 */
export type FieldKind = 'text' | 'email' | 'phone' | 'multiline';

export interface ContactFieldSpec {
  /** Maximum length in characters, after trimming. */
  readonly limit: number;
  readonly required: boolean;
  readonly kind: FieldKind;
  /** The label on the form. */
  readonly label: string;
  /** The label of the field's row in the firm's e-mail. */
  readonly mailLabel: string;
  /**
   * The field in a sentence: '<named> is te lang …' to the visitor, and, with its first
   * letter in lower case, in the privacy statement's list of what the form collects.
   */
  readonly named: string;
  /** What the visitor reads when the field is missing, empty or not text. */
  readonly absent: string;
  /** The browser's autofill token for the input. */
  readonly autoComplete?: string;
}

/**
 * A table of contact fields, in the order the form shows them and the e-mail lists them: the
 * one description the types, the validation, the e-mail, the form, its check page and the
 * privacy statement are derived from. The site's is CONTACT_FIELDS (content/contact-fields.ts).
 */
export type FieldList = Readonly<Record<string, ContactFieldSpec>>;
