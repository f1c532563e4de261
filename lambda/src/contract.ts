/**
 * The public contract of POST /api/send-contact-email: one definition, imported by the
 * handler, the front end, the CDK stack and the local stack. Plain constants and types
 * only, so the front end can import it without pulling the validation library into its bundle.
 */

export const API_PATH = '/api/send-contact-email';

/** A UUID chosen by the client; the same key within IDEMPOTENCY_TTL_SECONDS yields the first answer. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** Maximum request body in bytes (API Gateway allows far more; we refuse early with 413). */
export const MAX_BODY_BYTES = 32 * 1024;

/** Maximum length in characters of each field, after trimming. */
export const FIELD_LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  company: 150,
  message: 5000,
} as const;

export type ContactField = keyof typeof FIELD_LIMITS;
export const REQUIRED_FIELDS = ['name', 'email', 'message'] as const satisfies readonly ContactField[];

/**
 * A field that people never see or fill; bots that fill every input do. A filled honeypot
 * gets the same 200 as a real message, so the bot learns nothing, and nothing is stored or sent.
 */
export const HONEYPOT_FIELD = 'website';

/** What the page sends. */
export interface ContactRequestBody {
  name: string;
  email: string;
  phone?: string;
  company?: string;
  message: string;
  [HONEYPOT_FIELD]?: string;
}

export interface ContactSuccessResponse {
  id: string;
}

export interface ContactErrorResponse {
  /** A Dutch sentence a visitor can read. */
  error: string;
  /** Per-field Dutch messages, for 400 answers. */
  fields?: Partial<Record<ContactField, string>>;
}
