/**
 * POST /api/send-contact-email: only through CloudFront, validate, within the visitor's
 * limit, store, then e-mail. A stored message is never lost (the retry job delivers what
 * SES refused); a message that could not be stored is never e-mailed, and the visitor is
 * told to try again. A refused request stores and e-mails nothing. Scripts post JSON and
 * get JSON; the page's form without scripts posts a classic form and is sent on to a
 * result page.
 *
 * The handler is built from its parts (configuration, clients, field table, clock), so
 * Lambda's entry (handlers/send-contact-email.ts), the local stack and the tests all run
 * this same code, each with its own parts.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ulid } from 'ulid';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { FieldTable } from '@site/core/contract';
import { CONTACT_REQUEST_LOG } from '@site/core/log-lines';
import { emailKey, type StoredMessage } from '@site/core/table';
import type { ContactConfig } from './config';
import { deliver, type Courier } from './delivery';
import { errorResponse, formAnswer, headerValue, jsonResponse, parseContactRequest, requestFormat, type HttpResult } from './http';
import { bodyHash, contentKey } from './idempotency';
import { describeError, writeLog, type LogEntry } from './log';
import { isFromCloudFront } from './origin-verify';
import { courierOf, systemClock, type FunctionParts } from './parts';
import { isHoneypotFilled, validateContactMessage, type ContactMessage } from './schema';
import { claimIdempotencyKey, countVisitorMessage, storeMessage, type MessageTable } from './store';
import { secondsLeft, visitorAddress, visitorCounterId, visitorHash, windowAt } from './visitor-limit';

export type ContactHandler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

type Outcome =
  | 'stored_and_emailed'
  | 'stored_email_deferred'
  | 'duplicate'
  | 'invalid'
  | 'idempotency_conflict'
  | 'spam'
  | 'not_through_cloudfront'
  | 'visitor_limited'
  | 'store_failed'
  | 'config_error'
  | 'unexpected_error';

// The monitoring's "not stored" outcomes must be outcomes this handler logs.
CONTACT_REQUEST_LOG.notStored satisfies readonly Outcome[];

interface Handled {
  response: HttpResult;
  outcome: Outcome;
  /** E-mail attempts made by this request. */
  attempts: number;
  messageId?: string;
  error?: string;
  /** No viewer address to count the message against (a CloudFront misconfiguration): let through, and said so in the log. */
  uncounted?: boolean;
}

/** What every request of one handler works with. */
interface Service {
  config: ContactConfig;
  table: MessageTable;
  courier: Courier;
  fields: FieldTable;
  clock: () => Date;
}

const DAY_SECONDS = 24 * 60 * 60;

function newMessage(id: string, contact: ContactMessage, now: Date, retentionDays: number): StoredMessage {
  return {
    // Only what the visitor typed (validation left nothing else in `contact`) plus our bookkeeping.
    ...contact,
    emailKey: emailKey(contact.email),
    id,
    receivedAt: now.toISOString(),
    status: 'received',
    attempts: 0,
    expiresAt: Math.floor(now.getTime() / 1000) + retentionDays * DAY_SECONDS,
  };
}

function storeFailed(error: unknown): Handled {
  return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'store_failed', attempts: 0, error: describeError(error) };
}

function configError(error: unknown): Handled {
  // The message names the missing variable and holds nothing the visitor sent.
  return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'config_error', attempts: 0, error: (error as Error).message };
}

/**
 * Counts the message against its visitor's window, or refuses it (429) when the window is
 * full. The viewer address can be trusted only because the origin check before this proved
 * the request came through CloudFront, which sets it from the connection.
 */
async function countAgainstVisitor(event: APIGatewayProxyEventV2, service: Service, now: Date): Promise<Handled | 'counted' | 'uncounted'> {
  const { visitorLimit, visitorHashKey } = service.config;
  if (visitorLimit.messages === 0) return 'counted';
  const address = visitorAddress(headerValue(event.headers, VIEWER_ADDRESS_HEADER));
  // Refusing everyone for a missing header would be worse than the stage throttle alone.
  if (address === undefined) return 'uncounted';
  const window = windowAt(now, visitorLimit.windowSeconds);
  const id = visitorCounterId(visitorHash(visitorHashKey, address), window);
  try {
    const counted = await countVisitorMessage(service.table, { id, limit: visitorLimit.messages, expiresAt: window.endsAt });
    if (counted === 'counted') return 'counted';
  } catch (error) {
    return storeFailed(error);
  }
  const refused = errorResponse(429, ERROR_TEXT.tooManyMessages);
  return {
    response: { ...refused, headers: { ...refused.headers, 'Retry-After': String(secondsLeft(window, now)) } },
    outcome: 'visitor_limited',
    attempts: 0,
  };
}

async function receive(event: APIGatewayProxyEventV2, service: Service): Promise<Handled> {
  // First of all: a request that did not come through CloudFront is not read any further.
  if (!isFromCloudFront(headerValue(event.headers, ORIGIN_VERIFY_HEADER), service.config.origin)) {
    return { response: errorResponse(403, ERROR_TEXT.notThroughSite), outcome: 'not_through_cloudfront', attempts: 0 };
  }

  const parsed = parseContactRequest(event);
  if (!parsed.ok) return { response: parsed.response, outcome: 'invalid', attempts: 0 };
  const { body, format } = parsed.request;

  // Before validation, so a bot gets the same answer whatever else it filled in.
  if (isHoneypotFilled(body)) return { response: jsonResponse(200, { id: ulid() }), outcome: 'spam', attempts: 0 };

  const validation = validateContactMessage(body, service.fields);
  if (!validation.ok) {
    return { response: errorResponse(400, ERROR_TEXT.invalidFields, validation.fields), outcome: 'invalid', attempts: 0 };
  }
  // The table the handler was built with holds the site's fields at least.
  const contact = validation.value as ContactMessage;

  const now = service.clock();
  // After validation, so a refused or invalid request leaves no counter behind; before anything is stored.
  const counted = await countAgainstVisitor(event, service, now);
  if (typeof counted === 'object') return counted;
  // A browser's form post cannot send the header; its key comes from what was typed (see contentKey).
  const idempotencyKey = parsed.request.idempotencyKey ?? (format === 'form' ? contentKey(contact) : undefined);
  const handled = await storeAndSend(contact, idempotencyKey, service, now);
  return counted === 'uncounted' ? { ...handled, uncounted: true } : handled;
}

/** The message's id: a new one, or the one an earlier request with the same Idempotency-Key reserved. */
async function claimedId(
  contact: ContactMessage,
  idempotencyKey: string | undefined,
  service: Service,
  now: Date,
): Promise<Handled | string> {
  const id = ulid(now.getTime());
  if (idempotencyKey === undefined) return id;
  try {
    const claim = await claimIdempotencyKey(service.table, { key: idempotencyKey, messageId: id, bodyHash: bodyHash(contact), now });
    if (claim.outcome !== 'conflict') return claim.messageId;
    return { response: errorResponse(422, ERROR_TEXT.idempotencyConflict), outcome: 'idempotency_conflict', attempts: 0 };
  } catch (error) {
    return storeFailed(error);
  }
}

/** Claims the Idempotency-Key if any, stores the message, then e-mails it. */
async function storeAndSend(contact: ContactMessage, idempotencyKey: string | undefined, service: Service, now: Date): Promise<Handled> {
  const id = await claimedId(contact, idempotencyKey, service, now);
  if (typeof id === 'object') return id;

  const message = newMessage(id, contact, now, service.config.retentionDays);
  try {
    // 'exists': an earlier request with this Idempotency-Key stored it and sends the e-mail.
    if ((await storeMessage(service.table, message)) === 'exists') {
      return { response: jsonResponse(200, { id }), outcome: 'duplicate', attempts: 0, messageId: id };
    }
  } catch (error) {
    return storeFailed(error);
  }

  const delivery = await deliver(service.courier, message, { at: now, isLast: false });
  return {
    response: jsonResponse(200, { id }),
    outcome: delivery.outcome === 'emailed' ? 'stored_and_emailed' : 'stored_email_deferred',
    attempts: 1,
    messageId: id,
    error: [delivery.error, delivery.recordError && `record: ${delivery.recordError}`].filter(Boolean).join('; ') || undefined,
  };
}

const LEVEL: Record<Outcome, LogEntry['level']> = {
  stored_and_emailed: 'info',
  duplicate: 'info',
  invalid: 'info',
  idempotency_conflict: 'info',
  spam: 'info',
  not_through_cloudfront: 'info',
  visitor_limited: 'info',
  stored_email_deferred: 'warn',
  store_failed: 'error',
  config_error: 'error',
  unexpected_error: 'error',
};

/** The answer and its one log line, whatever `receive` makes of the request (or however it fails). */
function answering(receiveRequest: (event: APIGatewayProxyEventV2) => Promise<Handled>): ContactHandler {
  return async (event, context) => {
    const started = performance.now();
    const format = requestFormat(event);
    let handled: Handled;
    try {
      handled = await receiveRequest(event);
    } catch (error) {
      handled = {
        response: errorResponse(500, ERROR_TEXT.unexpected),
        outcome: 'unexpected_error',
        attempts: 0,
        error: describeError(error),
      };
    }
    // Only the site's own form gets a result page; a request that skipped CloudFront is refused as it is.
    const response = format === 'form' && handled.outcome !== 'not_through_cloudfront' ? formAnswer(handled.response) : handled.response;
    writeLog({
      level: (handled.error && handled.outcome === 'stored_and_emailed') || handled.uncounted ? 'warn' : LEVEL[handled.outcome],
      msg: CONTACT_REQUEST_LOG.msg,
      requestId: context?.awsRequestId ?? event.requestContext?.requestId,
      outcome: handled.outcome,
      format,
      status: response.statusCode,
      durationMs: Math.round(performance.now() - started),
      attempts: handled.attempts,
      messageId: handled.messageId,
      error: handled.error,
      visitorLimit: handled.uncounted ? `not applied: no ${VIEWER_ADDRESS_HEADER}` : undefined,
    });
    return response;
  };
}

/** The contact handler, built from its parts. */
export function createContactHandler(parts: FunctionParts<ContactConfig>): ContactHandler {
  const courier = courierOf(parts);
  const service: Service = {
    config: parts.config,
    table: courier.table,
    courier,
    fields: parts.fields ?? CONTACT_FIELDS,
    clock: parts.clock ?? systemClock,
  };
  return answering((event) => receive(event, service));
}

/**
 * The handler of a function whose configuration could not be read: every request is
 * answered 503 (a form post: the error page) before anything of it is read, and logged as
 * config_error with the error, which names the variable and never its value.
 */
export function unconfiguredContactHandler(error: unknown): ContactHandler {
  return answering(() => Promise.resolve(configError(error)));
}
