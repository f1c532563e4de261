/**
 * The HTTP side of the contact endpoint: turning an API Gateway (payload 2.0) event into a
 * parsed JSON object, or into the 4xx answer that explains why not; and shaping answers.
 * No I/O, no knowledge of what a contact message contains.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LONE_SURROGATE } from './characters';
import { IDEMPOTENCY_HEADER, MAX_BODY_BYTES, type ContactErrorResponse, type ContactSuccessResponse } from './contract';
import { normaliseIdempotencyKey } from './idempotency';

/** Every sentence a visitor can get back, in Dutch. */
export const ERROR_TEXT = {
  methodNotAllowed: 'Deze methode is niet toegestaan; verstuur het bericht met POST.',
  unsupportedMediaType: 'Verstuur het bericht als JSON (Content-Type: application/json).',
  tooLarge: 'Uw bericht is te groot om te versturen.',
  unreadable: 'Het bericht kon niet worden gelezen.',
  invalidFields: 'Controleer de gemarkeerde velden.',
  invalidIdempotencyKey: 'De Idempotency-Key moet een UUID zijn.',
  idempotencyConflict: 'Deze Idempotency-Key is al gebruikt voor een ander bericht.',
  notStored: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.',
  unexpected: 'Er is iets misgegaan. Probeer het over enkele minuten opnieuw.',
  notThroughSite: 'Berichten kunnen alleen via het contactformulier op de website worden verstuurd.',
  tooManyMessages: 'U heeft in korte tijd te veel berichten verstuurd. Probeer het over enkele minuten opnieuw.',
} as const;

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

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [mediaType = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') return false;
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  return charset === undefined || ['utf-8', 'utf8', '"utf-8"'].includes(charset.slice('charset='.length));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or why it cannot be: too big (413) or not UTF-8 (400). */
function bodyText(event: APIGatewayProxyEventV2): { text: string } | { status: 400 | 413 } {
  const raw = event.body ?? '';
  if (event.isBase64Encoded) {
    // API Gateway sends canonical base64; anything longer than that of MAX_BODY_BYTES decodes
    // to more, so it is refused before any work is spent on it.
    if (raw.length > Math.ceil(MAX_BODY_BYTES / 3) * 4) return { status: 413 };
    if (!BASE64.test(raw) || raw.length % 4 === 1) return { status: 400 };
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length > MAX_BODY_BYTES) return { status: 413 };
    try {
      return { text: utf8.decode(bytes) };
    } catch {
      return { status: 400 };
    }
  }
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) return { status: 413 };
  // A string with half a surrogate pair has no UTF-8 form: the client sent broken text.
  if (LONE_SURROGATE.test(raw)) return { status: 400 };
  return { text: raw };
}

export interface ContactRequest {
  /** The parsed JSON object, exactly as sent; only validation may read fields from it. */
  body: Record<string, unknown>;
  idempotencyKey?: string;
}

export type ParsedRequest = { ok: true; request: ContactRequest } | { ok: false; response: HttpResult };

/** Everything about the request that is not the contact message itself, in the order HTTP expects. */
export function parseContactRequest(event: APIGatewayProxyEventV2): ParsedRequest {
  const fail = (response: HttpResult): ParsedRequest => ({ ok: false, response });

  if (event.requestContext?.http?.method !== 'POST') {
    return fail({ ...errorResponse(405, ERROR_TEXT.methodNotAllowed), headers: { ...JSON_HEADERS, Allow: 'POST' } });
  }
  if (!isJsonContentType(headerValue(event.headers, 'content-type'))) {
    return fail(errorResponse(415, ERROR_TEXT.unsupportedMediaType));
  }
  const text = bodyText(event);
  if ('status' in text) {
    return fail(errorResponse(text.status, text.status === 413 ? ERROR_TEXT.tooLarge : ERROR_TEXT.unreadable));
  }
  let body: unknown;
  try {
    body = JSON.parse(text.text);
  } catch {
    return fail(errorResponse(400, ERROR_TEXT.unreadable));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail(errorResponse(400, ERROR_TEXT.unreadable));
  }

  const rawKey = headerValue(event.headers, IDEMPOTENCY_HEADER);
  if (rawKey === undefined) return { ok: true, request: { body: body as Record<string, unknown> } };
  const idempotencyKey = normaliseIdempotencyKey(rawKey);
  if (idempotencyKey === undefined) return fail(errorResponse(400, ERROR_TEXT.invalidIdempotencyKey));
  return { ok: true, request: { body: body as Record<string, unknown>, idempotencyKey } };
}
