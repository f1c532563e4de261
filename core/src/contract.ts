/**
 * The public contract of POST /api/send-contact-email: one definition, imported by the
 * handler, the front end, the CDK stack and the local stack. Plain constants and types
 * only, so the front end can import it without pulling the validation library into its bundle.
 * Its texts (the field list's labels and messages, the API's answers) are in content/.
 */
import { CONTACT_FIELDS } from './content/contact-fields';
import type { FieldKind, FieldList } from './field-spec';

export const API_PATH = '/api/send-contact-email';

/**
 * GET: a proof-of-work challenge (altcha-lib's, signed, single use, with an expiry) for the
 * page's script to solve off the main thread while the visitor types, and send back as the
 * body's STAMP_FIELD. A message without one is never refused, it only scores higher
 * (core/src/spam.ts). Same origin, so no third party sees the visitor.
 */
export const CHALLENGE_PATH = '/api/challenge';

/**
 * The firm's page of held messages (decision 0048): GET with HELD_LINK_PARAMETER, the signed
 * link a digest carries, shows them; POST, from the page's own forms, searches, pages,
 * releases one or marks one spam. Served by the contact function, on the site's own origin.
 */
export const HELD_PATH = '/api/held';

/** The query parameter of the digest's link that holds its signed token: the one CloudFront passes on to the API. */
export const HELD_LINK_PARAMETER = 'link';

/** The body key of the solved challenge (a string: base64 of altcha-lib's payload JSON); not a contact field. */
export const STAMP_FIELD = 'stamp';

/** A UUID chosen by the client; the same key within IDEMPOTENCY_TTL_SECONDS yields the first answer. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** Maximum request body in bytes (API Gateway allows far more; we refuse early with 413). */
export const MAX_BODY_BYTES = 32 * 1024;

/**
 * Without scripts the page's form posts to API_PATH itself, as a classic form post. The
 * answer is then `303 See Other` to one of FORM_RESULT_PAGES instead of JSON; scripts keep
 * the JSON contract.
 */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * A form post percent-encodes every byte of a non-ASCII character as three, so it may be
 * three times the JSON limit: any message that fits as JSON also fits as a form post.
 */
export const MAX_FORM_BODY_BYTES = 3 * MAX_BODY_BYTES;

/**
 * Names a form post may carry beyond the page's own (the fields and the honeypot):
 * a page built before a deploy that removed or renamed a field (a tab left open) sends its
 * old names, and a browser extension may add an input of its own to a form.
 */
export const FORM_PARAMETER_MARGIN = 4;

/**
 * The most names a form post of `fields`' form may carry: each field and the honeypot once,
 * and the margin. A body with more, or with a name twice, is no post of the page's form; it
 * is refused before any of it is decoded, so 50,000 names in 96 KB cost no more than six.
 */
export function maxFormParameters(fields: FieldList = CONTACT_FIELDS): number {
  return fieldNames(fields).length + 1 + FORM_PARAMETER_MARGIN;
}

/**
 * Where a form post is sent on: prerendered Dutch pages, the same for everyone, so nothing
 * the visitor typed ever appears in a URL (URLs end up in access logs, history and referrers).
 */
export const FORM_RESULT_PAGES = {
  /** Stored and e-mailed (or queued for the retry job); also a repeated post and a filled honeypot. */
  sent: '/bedankt',
  /** Posted from another site's page (403): not sent; the form on this site is the way. */
  crossSite: '/via-andere-website',
  /** Refused for what was typed (400, 413): what each field needs, and how to get the text back. */
  check: '/controleer-bericht',
  /** Not stored (422, 5xx): try again later, or call or e-mail instead. */
  failed: '/niet-verzonden',
  /** Over the visitor limit (429): when sending works again, or call or e-mail instead. */
  limited: '/niet-verzonden/limiet',
  /**
   * The whole site's rate limit (API Gateway's stage throttle, 429 without Retry-After): busy
   * for everyone, not this visitor's limit. The form's script shows it; a form post without
   * script is sent here by the API's Lambda@Edge function (infra/lib/edge/api-origin-response.js),
   * since the throttle answers before the function runs.
   */
  busy: '/niet-verzonden/druk',
} as const;

export type FormResult = keyof typeof FORM_RESULT_PAGES;

/**
 * The site's stylesheet under a name that does not change with its content: the function's
 * answer to a refused form post wears it, and cannot know the build's hashed name. The build
 * writes it (frontend/prerender.ts); HTML-like caching keeps it fresh after a deploy.
 */
export const FORM_ANSWER_STYLESHEET = '/contactformulier.css';

export type ContactFields = typeof CONTACT_FIELDS;
export type ContactField = keyof ContactFields;

/** The `type` of the input for each kind; a multi-line field is a textarea instead. */
export const INPUT_TYPE = { text: 'text', email: 'email', phone: 'tel' } as const satisfies Record<Exclude<FieldKind, 'multiline'>, string>;

/** The names of a field list's fields, in its order. */
export function fieldNames<T extends FieldList>(fields: T): (keyof T & string)[] {
  return Object.keys(fields);
}

export type RequiredField<T extends FieldList = ContactFields> = {
  [K in keyof T & string]: T[K]['required'] extends true ? K : never;
}[keyof T & string];

/** The names of a field list's required fields, in its order. */
export function requiredFields<T extends FieldList>(fields: T): RequiredField<T>[] {
  return fieldNames(fields).filter((name) => fields[name]!.required) as RequiredField<T>[];
}

/** Maximum length in characters of each field, after trimming. */
export const FIELD_LIMITS = Object.fromEntries(Object.entries(CONTACT_FIELDS).map(([name, field]) => [name, field.limit])) as {
  readonly [K in ContactField]: ContactFields[K]['limit'];
};

export const REQUIRED_FIELDS: readonly RequiredField[] = requiredFields(CONTACT_FIELDS);

type Flatten<T> = { [K in keyof T]: T[K] };

/** The visitor's text per field of a field list: required fields always, optional ones when given. */
export type FieldValues<T extends FieldList = ContactFields> = Flatten<
  { [K in RequiredField<T>]: string } & { [K in Exclude<keyof T & string, RequiredField<T>>]?: string }
>;

/**
 * A field that people never see or fill; bots that fill every input do. A filled honeypot
 * gets the same answer as any message, so the bot learns nothing; the message is stored and
 * held for the digest like any suspect one (core/src/spam.ts), never e-mailed on its own.
 */
export const HONEYPOT_FIELD = 'website';

/** What the page sends. */
export type ContactRequestBody = FieldValues & { [HONEYPOT_FIELD]?: string; [STAMP_FIELD]?: string };

export interface ContactSuccessResponse {
  id: string;
  /**
   * Only for the outside check's marked post (core/src/outside-check.ts): whether its stamp
   * held (`valid`, else why not) and whether SES took its e-mail to the mailbox simulator.
   */
  check?: { stamp: string; emailed: boolean };
}

export interface ContactErrorResponse {
  /** A Dutch sentence a visitor can read. */
  error: string;
  /** Per-field Dutch messages, for 400 answers. */
  fields?: Partial<Record<ContactField, string>>;
}

/**
 * One address that SES v1 accepts as a Reply-To: an ASCII dot-atom local part and a domain
 * of at least two DNS labels ending in a letter TLD or a punycode TLD. Commas, spaces and
 * line breaks cannot match, so the value can never smuggle in a second address or header.
 * The server validates with it and the form checks with it before sending.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/**
 * Where an RFC 2047 encoded word (`=?utf-8?q?…?=`) starts. A mail client decodes one wherever
 * it finds it, even in an address: `=?x?q?jan=40evil.example=3e?=@firma.nl` can become
 * another address there ("splitting the email atom"). No real address holds it, so the server
 * refuses one that does (the form says so before sending), and header text that holds it is
 * written as encoded words of the function's own (lambda/src/mail/mail-header.ts).
 */
export const ENCODED_WORD_START = '=?';

/** Whether an address holds the start of an encoded word (see ENCODED_WORD_START). */
export function hasEncodedWord(address: string): boolean {
  return address.includes(ENCODED_WORD_START);
}

/**
 * The check page that names the refused fields: `/controleer-bericht/email` or
 * `/controleer-bericht/name-message`, the field names in the list's order. Field names only,
 * never what was typed; the site prerenders one page for every combination (see the site's
 * routes). Without a known field (an unreadable or too large post) the page for all fields.
 */
export function refusedFieldsPage(refused: Iterable<string>, fields: FieldList = CONTACT_FIELDS): string {
  const names = new Set(refused);
  const known = fieldNames(fields).filter((name) => names.has(name));
  return known.length === 0 ? FORM_RESULT_PAGES.check : `${FORM_RESULT_PAGES.check}/${known.join('-')}`;
}
