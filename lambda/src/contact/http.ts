/**
 * The HTTP side of the contact endpoint: turning an API Gateway (payload 2.0) event into a
 * parsed body (JSON, or a classic form post), or into the 4xx answer that explains why not;
 * and shaping answers. No I/O, no knowledge of what a contact message contains.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { FieldList } from '@site/core/field-spec';
import { LONE_SURROGATE } from '../shared/characters';
import {
  FORM_CONTENT_TYPE,
  FORM_RESULT_PAGES,
  IDEMPOTENCY_HEADER,
  MAX_BODY_BYTES,
  MAX_FORM_BODY_BYTES,
  maxFormParameters,
  refusedFieldsPage,
  type ContactErrorResponse,
  type ContactSuccessResponse,
  type FormResult,
} from '@site/core/contract';
import { normaliseIdempotencyKey } from './idempotency';

export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number };

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
} as const;

export function jsonResponse(
  statusCode: number,
  body: ContactSuccessResponse | ContactErrorResponse,
  headers: Record<string, string> = {},
): HttpResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(statusCode: number, error: string, fields?: ContactErrorResponse['fields']): HttpResult {
  return jsonResponse(statusCode, fields ? { error, fields } : { error });
}

/** API Gateway lower-cases header names, other callers may not; HTTP says case does not matter. */
export function headerValue(headers: APIGatewayProxyEventV2['headers'] | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** How the body is written: JSON (scripts), or a classic form post (no scripts). */
export type BodyFormat = 'json' | 'form';

const MEDIA_TYPES: Record<string, BodyFormat> = { 'application/json': 'json', [FORM_CONTENT_TYPE]: 'form' };

/** The format a Content-Type names, when it is one we read and in UTF-8 (or without a charset). */
function bodyFormat(value: string | undefined): BodyFormat | undefined {
  if (value === undefined) return undefined;
  const [mediaType = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
  const format = Object.hasOwn(MEDIA_TYPES, mediaType) ? MEDIA_TYPES[mediaType] : undefined;
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  return charset === undefined || ['utf-8', 'utf8', '"utf-8"'].includes(charset.slice('charset='.length)) ? format : undefined;
}

/**
 * 'form' for a classic form post: its answer is a redirect to a page, whatever happens
 * further on (even an unexpected error), so the handler asks before anything else.
 */
export function requestFormat(event: APIGatewayProxyEventV2): BodyFormat {
  return event.requestContext?.http?.method === 'POST' && bodyFormat(headerValue(event.headers, 'content-type')) === 'form'
    ? 'form'
    : 'json';
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or why it cannot be: too big (413) or not UTF-8 (400). */
function bodyText(event: APIGatewayProxyEventV2, maxBytes: number): { text: string } | { status: 400 | 413 } {
  const raw = event.body ?? '';
  if (event.isBase64Encoded) {
    // API Gateway sends canonical base64; anything longer than that of maxBytes decodes
    // to more, so it is refused before any work is spent on it.
    if (raw.length > Math.ceil(maxBytes / 3) * 4) return { status: 413 };
    if (!BASE64.test(raw) || raw.length % 4 === 1) return { status: 400 };
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length > maxBytes) return { status: 413 };
    try {
      return { text: utf8.decode(bytes) };
    } catch {
      return { status: 400 };
    }
  }
  if (Buffer.byteLength(raw, 'utf8') > maxBytes) return { status: 413 };
  // A string with half a surrogate pair has no UTF-8 form: the client sent broken text.
  if (LONE_SURROGATE.test(raw)) return { status: 400 };
  return { text: raw };
}

/** Whether `text` holds more than `limit` `&`-separated parts; it looks no further than the part past the limit. */
function hasMoreParts(text: string, limit: number): boolean {
  let at = -1;
  for (let parts = 1; parts <= limit; parts += 1) {
    at = text.indexOf('&', at + 1);
    if (at < 0) return false;
  }
  return true;
}

/**
 * A form post as an object like a JSON body: one string per name. The page's form sends each
 * name once; a body with more names than `maxParameters` is refused before any of it is
 * decoded, and one with a name twice as soon as the second turns up, so whatever the body,
 * reading it costs one pass over at most the page's own number of names.
 */
function formFields(text: string, maxParameters: number): Record<string, string> | undefined {
  if (hasMoreParts(text, maxParameters)) return undefined;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (fields.has(name)) return undefined;
    fields.set(name, value);
  }
  // fromEntries defines own properties, so a "__proto__" name is just a name.
  return Object.fromEntries(fields);
}

type ParsedBody = { body: Record<string, unknown> } | { error: string };

function parsedBody(text: string, format: BodyFormat, fields: FieldList): ParsedBody {
  if (format === 'form') {
    const body = formFields(text, maxFormParameters(fields));
    return body === undefined ? { error: ERROR_TEXT.malformedForm } : { body };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: ERROR_TEXT.unreadable };
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? { body: body as Record<string, unknown> }
    : { error: ERROR_TEXT.unreadable };
}

export interface ContactRequest {
  /** The parsed object, exactly as sent; only validation may read fields from it. */
  body: Record<string, unknown>;
  format: BodyFormat;
  idempotencyKey?: string;
}

export type ParsedRequest = { ok: true; request: ContactRequest } | { ok: false; response: HttpResult };

/**
 * Everything about the request that is not the contact message itself, in the order HTTP
 * expects. `fields` is the table the form was built from: it bounds a form post's names.
 */
export function parseContactRequest(event: APIGatewayProxyEventV2, fields: FieldList = CONTACT_FIELDS): ParsedRequest {
  const fail = (response: HttpResult): ParsedRequest => ({ ok: false, response });

  if (event.requestContext?.http?.method !== 'POST') {
    return fail({ ...errorResponse(405, ERROR_TEXT.methodNotAllowed), headers: { ...JSON_HEADERS, Allow: 'POST' } });
  }
  const format = bodyFormat(headerValue(event.headers, 'content-type'));
  if (format === undefined) return fail(errorResponse(415, ERROR_TEXT.unsupportedMediaType));
  const text = bodyText(event, format === 'form' ? MAX_FORM_BODY_BYTES : MAX_BODY_BYTES);
  if ('status' in text) {
    return fail(errorResponse(text.status, text.status === 413 ? ERROR_TEXT.tooLarge : ERROR_TEXT.unreadable));
  }
  const parsed = parsedBody(text.text, format, fields);
  if ('error' in parsed) return fail(errorResponse(400, parsed.error));
  const { body } = parsed;

  const rawKey = headerValue(event.headers, IDEMPOTENCY_HEADER);
  if (rawKey === undefined) return { ok: true, request: { body, format } };
  const idempotencyKey = normaliseIdempotencyKey(rawKey);
  if (idempotencyKey === undefined) return fail(errorResponse(400, ERROR_TEXT.invalidIdempotencyKey));
  return { ok: true, request: { body, format, idempotencyKey } };
}

/** Which page a form post goes on to, from the status its JSON twin would have had. */
export function formResultFor(status: number): FormResult {
  if (status >= 200 && status < 300) return 'sent';
  // The only 403 a form post is sent on with: it came from another site's page.
  if (status === 403) return 'crossSite';
  // What the visitor typed is the problem: unreadable, invalid or too large.
  if (status === 400 || status === 413) return 'check';
  if (status === 429) return 'limited';
  return 'failed';
}

/** The names of the fields a JSON answer refused (a 400's `fields`); none for any other answer. */
function refusedFields(response: HttpResult): string[] {
  try {
    const { fields } = JSON.parse(response.body ?? '') as ContactErrorResponse;
    return Object.keys(fields ?? {});
  } catch {
    return [];
  }
}

/**
 * The answer to a form post: 303 See Other, so the browser fetches the page with GET and a
 * reload or Back never posts the message again. The page is the same for every visitor who
 * gets the same answer: a check page names the refused fields, never what was typed.
 */
export function formAnswer(response: HttpResult): HttpResult {
  const result = formResultFor(response.statusCode);
  const location = result === 'check' ? refusedFieldsPage(refusedFields(response)) : FORM_RESULT_PAGES[result];
  return { statusCode: 303, headers: { Location: location, 'Cache-Control': 'no-store' }, body: '' };
}
