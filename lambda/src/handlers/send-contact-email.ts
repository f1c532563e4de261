/**
 * POST /api/send-contact-email: validate, store, then e-mail. A stored message is never
 * lost (the retry job delivers what SES refused); a message that could not be stored is
 * never e-mailed, and the visitor is told to try again. Scripts post JSON and get JSON;
 * the page's form without scripts posts a classic form and is sent on to a result page.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ulid } from 'ulid';
import { config, type LambdaConfig } from '../config';
import { deliver } from '../delivery';
import { ERROR_TEXT, errorResponse, formAnswer, jsonResponse, parseContactRequest, requestFormat, type HttpResult } from '../http';
import { bodyHash, contentKey } from '../idempotency';
import { describeError, writeLog, type LogEntry } from '../log';
import { CONTACT_REQUEST_LOG } from '../metrics';
import { isHoneypotFilled, validateContactMessage, type ContactMessage } from '../schema';
import { claimIdempotencyKey, storeMessage } from '../store';
import { emailKey, type StoredMessage } from '../table';

type Outcome =
  | 'stored_and_emailed'
  | 'stored_email_deferred'
  | 'duplicate'
  | 'invalid'
  | 'idempotency_conflict'
  | 'spam'
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

async function receive(event: APIGatewayProxyEventV2, now: Date): Promise<Handled> {
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
    // The message names the missing variable and holds nothing the visitor sent.
    return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'config_error', attempts: 0, error: (error as Error).message };
  }

  // A browser's form post cannot send the header; its key comes from what was typed (see contentKey).
  const idempotencyKey = parsed.request.idempotencyKey ?? (format === 'form' ? contentKey(validation.value) : undefined);
  let id = ulid(now.getTime());
  if (idempotencyKey !== undefined) {
    try {
      const claim = await claimIdempotencyKey(settings.tableName, {
        key: idempotencyKey,
        messageId: id,
        bodyHash: bodyHash(validation.value),
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

  const message = newMessage(id, validation.value, now, settings);
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
  const response = format === 'form' ? formAnswer(handled.response) : handled.response;
  writeLog({
    level: handled.error && handled.outcome === 'stored_and_emailed' ? 'warn' : LEVEL[handled.outcome],
    msg: CONTACT_REQUEST_LOG.msg,
    requestId: context?.awsRequestId ?? event.requestContext?.requestId,
    outcome: handled.outcome,
    format,
    status: response.statusCode,
    durationMs: Math.round(performance.now() - started),
    attempts: handled.attempts,
    messageId: handled.messageId,
    error: handled.error,
  });
  return response;
}
