/**
 * POST /api/send-contact-email: only through CloudFront, validate, within the visitor's
 * limit, store, then e-mail. A stored message is never lost (the retry job delivers what
 * SES refused); a message that could not be stored is never e-mailed, and the visitor is
 * told to try again. A refused request stores and e-mails nothing. Scripts post JSON and
 * get JSON; the page's form without scripts posts a classic form and is sent on to a
 * result page.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ulid } from 'ulid';
import { config, guardConfig, type GuardConfig, type LambdaConfig } from '../config';
import { deliver } from '../delivery';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import {
  errorResponse,
  formAnswer,
  headerValue,
  jsonResponse,
  parseContactRequest,
  requestFormat,
  type HttpResult,
} from '../http';
import { bodyHash, contentKey } from '../idempotency';
import { describeError, writeLog, type LogEntry } from '../log';
import { CONTACT_REQUEST_LOG } from '@site/core/log-lines';
import { isFromCloudFront } from '../origin-verify';
import { isHoneypotFilled, validateContactMessage, type ContactMessage } from '../schema';
import { claimIdempotencyKey, countVisitorMessage, storeMessage } from '../store';
import { secondsLeft, visitorAddress, visitorCounterId, visitorHash, windowAt } from '../visitor-limit';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { emailKey, type StoredMessage } from '@site/core/table';

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

const DAY_SECONDS = 24 * 60 * 60;

function newMessage(id: string, contact: ContactMessage, now: Date, settings: LambdaConfig): StoredMessage {
  return {
    // Only what the visitor typed (validation left nothing else in `contact`) plus our bookkeeping.
    ...contact,
    emailKey: emailKey(contact.email),
    id,
    receivedAt: now.toISOString(),
    status: 'received',
    attempts: 0,
    expiresAt: Math.floor(now.getTime() / 1000) + settings.retentionDays * DAY_SECONDS,
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
async function countAgainstVisitor(
  event: APIGatewayProxyEventV2,
  guard: GuardConfig,
  table: string,
  now: Date,
): Promise<Handled | 'counted' | 'uncounted'> {
  const { messages, windowSeconds } = guard.visitorLimit;
  if (messages === 0) return 'counted';
  const address = visitorAddress(headerValue(event.headers, VIEWER_ADDRESS_HEADER));
  // Refusing everyone for a missing header would be worse than the stage throttle alone.
  if (address === undefined) return 'uncounted';
  const window = windowAt(now, windowSeconds);
  const id = visitorCounterId(visitorHash(guard.visitorHashKey, address), window);
  try {
    if ((await countVisitorMessage(table, { id, limit: messages, expiresAt: window.endsAt })) === 'counted') return 'counted';
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

async function receive(event: APIGatewayProxyEventV2, now: Date): Promise<Handled> {
  let guard: GuardConfig;
  try {
    guard = guardConfig();
  } catch (error) {
    return configError(error);
  }
  // First of all: a request that did not come through CloudFront is not read any further.
  if (!isFromCloudFront(headerValue(event.headers, ORIGIN_VERIFY_HEADER), guard.origin)) {
    return { response: errorResponse(403, ERROR_TEXT.notThroughSite), outcome: 'not_through_cloudfront', attempts: 0 };
  }

  const parsed = parseContactRequest(event);
  if (!parsed.ok) return { response: parsed.response, outcome: 'invalid', attempts: 0 };
  const { body, format } = parsed.request;

  // Before validation, so a bot gets the same answer whatever else it filled in.
  if (isHoneypotFilled(body)) return { response: jsonResponse(200, { id: ulid() }), outcome: 'spam', attempts: 0 };

  const validation = validateContactMessage(body);
  if (!validation.ok) {
    return { response: errorResponse(400, ERROR_TEXT.invalidFields, validation.fields), outcome: 'invalid', attempts: 0 };
  }

  let settings: LambdaConfig;
  try {
    settings = config();
  } catch (error) {
    return configError(error);
  }

  // After validation, so a refused or invalid request leaves no counter behind; before anything is stored.
  const counted = await countAgainstVisitor(event, guard, settings.tableName, now);
  if (typeof counted === 'object') return counted;
  // A browser's form post cannot send the header; its key comes from what was typed (see contentKey).
  const idempotencyKey = parsed.request.idempotencyKey ?? (format === 'form' ? contentKey(validation.value) : undefined);
  const handled = await storeAndSend(validation.value, idempotencyKey, settings, now);
  return counted === 'uncounted' ? { ...handled, uncounted: true } : handled;
}

/** Claims the Idempotency-Key if any, stores the message, then e-mails it. */
async function storeAndSend(
  contact: ContactMessage,
  idempotencyKey: string | undefined,
  settings: LambdaConfig,
  now: Date,
): Promise<Handled> {
  let id = ulid(now.getTime());
  if (idempotencyKey !== undefined) {
    try {
      const claim = await claimIdempotencyKey(settings.tableName, {
        key: idempotencyKey,
        messageId: id,
        bodyHash: bodyHash(contact),
        now,
      });
      if (claim.outcome === 'conflict') {
        return { response: errorResponse(422, ERROR_TEXT.idempotencyConflict), outcome: 'idempotency_conflict', attempts: 0 };
      }
      id = claim.messageId;
    } catch (error) {
      return storeFailed(error);
    }
  }

  const message = newMessage(id, contact, now, settings);
  try {
    // 'exists': an earlier request with this Idempotency-Key stored it and sends the e-mail.
    if ((await storeMessage(settings.tableName, message)) === 'exists') {
      return { response: jsonResponse(200, { id }), outcome: 'duplicate', attempts: 0, messageId: id };
    }
  } catch (error) {
    return storeFailed(error);
  }

  const delivery = await deliver(settings.tableName, message, { from: settings.mailFrom, to: settings.mailTo }, { at: now, isLast: false });
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

export async function handler(event: APIGatewayProxyEventV2, context?: Context): Promise<APIGatewayProxyStructuredResultV2> {
  const started = performance.now();
  const format = requestFormat(event);
  let handled: Handled;
  try {
    handled = await receive(event, new Date());
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
}
