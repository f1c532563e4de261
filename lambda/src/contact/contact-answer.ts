/**
 * The answer to a contact request, its metrics and its one log line: whatever the handler
 * made of the request (contact-handler.ts), or however it failed. Every outcome the handler
 * can reach is named here, with the level it is logged at and what it counts
 * (core/src/metric-names.ts).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RefusalReason } from '@site/core/metric-names';
import type { HeldFor } from '@site/core/spam';
import { VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { FieldList } from '@site/core/field-spec';
import { CONTACT_REQUEST_LOG, type ContactRequestLogField } from '@site/core/log-lines';
import type { CrossSiteSignal } from './cross-site';
import { errorResponse, requestFormat, type HttpResult } from './http';
import { formReply } from './form-reply';
import { describeError, errorLocation, writeLog, type LogEntry } from '../shared/log';
import { writeMetrics, type MetricValue } from '../shared/metrics';

export type ContactHandler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export type Outcome =
  | 'stored_and_emailed'
  | 'stored_email_deferred'
  | 'stored_held'
  | 'duplicate'
  | 'invalid'
  | 'idempotency_conflict'
  | 'challenge'
  /** A challenge asked for by another site's page. */
  | 'challenge_refused'
  /** A challenge past the visitor's count of them. */
  | 'challenge_limited'
  | 'not_through_cloudfront'
  | 'outside_check'
  | 'cross_site'
  | 'visitor_limited'
  | 'store_failed'
  | 'config_error'
  | 'unexpected_error';

// The monitoring's "not stored" and "stored" outcomes must be outcomes this handler logs.
CONTACT_REQUEST_LOG.notStored satisfies readonly Outcome[];
CONTACT_REQUEST_LOG.stored satisfies readonly Outcome[];
CONTACT_REQUEST_LOG.notThroughCloudFront satisfies readonly Outcome[];
CONTACT_REQUEST_LOG.check satisfies readonly Outcome[];

export interface Handled {
  response: HttpResult;
  outcome: Outcome;
  /** E-mail attempts made by this request. */
  attempts: number;
  messageId?: string;
  error?: string;
  /** No viewer address to count the message against (a CloudFront misconfiguration): let through, and said so in the log. */
  uncounted?: boolean;
  /** Which header showed a refused request came from another site (`no-viewer`: CloudFront did not say who the viewer asked). */
  crossSite?: CrossSiteSignal;
  /** Where an unexpected error was thrown (errorLocation). */
  where?: string;
  /** When a stored message was held, why (core/src/spam.ts). */
  heldFor?: HeldFor;
}

const RECEIVED: MetricValue = { name: 'Received', value: 1 };
const NOT_STORED: MetricValue[] = [RECEIVED, { name: 'NotStored', value: 1 }];
const refused = (reason: RefusalReason): MetricValue[] => [RECEIVED, { name: 'Refused', value: 1, by: reason }];

/**
 * One contact request: received, then stored and e-mailed, refused and why, or not stored.
 * `status` is the answer's own, before a form post is sent on to its page. A request without
 * the origin secret is no post from the site (a call around CloudFront, or every post while
 * CloudFront sends a wrong secret): counted as that alone. The outside check's post counts in a
 * metric of its own and in none of the path's, so no alarm on visitors' messages moves for it.
 */
function contactMetrics(outcome: Outcome, status: number, heldFor: HeldFor = 'suspect'): MetricValue[] {
  const byOutcome: Record<Outcome, MetricValue[]> = {
    stored_and_emailed: [RECEIVED, { name: 'Stored', value: 1 }, { name: 'Emailed', value: 1 }],
    stored_email_deferred: [RECEIVED, { name: 'Stored', value: 1 }],
    stored_held: [RECEIVED, { name: 'Stored', value: 1 }, { name: 'Held', value: 1, by: heldFor }],
    // A repeat of a stored message: received, nothing more.
    duplicate: [RECEIVED],
    // A proof-of-work challenge for the page's script: no post.
    challenge: [],
    challenge_refused: [],
    challenge_limited: [],
    invalid: refused(status === 413 ? 'too-large' : 'invalid'),
    idempotency_conflict: refused('invalid'),
    cross_site: refused('cross-site'),
    visitor_limited: refused('visitor-limit'),
    not_through_cloudfront: [{ name: 'NotThroughCloudFront', value: 1 }],
    outside_check: status === 200 ? [{ name: 'CheckPosts', value: 1 }] : [],
    store_failed: NOT_STORED,
    config_error: NOT_STORED,
    unexpected_error: NOT_STORED,
  };
  return byOutcome[outcome];
}

const LEVEL: Record<Outcome, LogEntry['level']> = {
  stored_and_emailed: 'info',
  stored_held: 'info',
  duplicate: 'info',
  invalid: 'info',
  idempotency_conflict: 'info',
  challenge: 'info',
  challenge_refused: 'info',
  challenge_limited: 'info',
  not_through_cloudfront: 'info',
  outside_check: 'info',
  cross_site: 'info',
  visitor_limited: 'info',
  stored_email_deferred: 'warn',
  store_failed: 'error',
  config_error: 'error',
  unexpected_error: 'error',
};

/** A request's level: its outcome's, raised where something went wrong on the way (an e-mail, a record, CloudFront's headers). */
function levelOf(handled: Handled, misconfigured: boolean | undefined): LogEntry['level'] {
  // The check's post not stored is what a visitor's would be; its e-mail refused, what a deferred one is.
  if (handled.outcome === 'outside_check' && handled.error) return handled.response.statusCode === 200 ? 'warn' : 'error';
  return (handled.error && handled.outcome === 'stored_and_emailed') || misconfigured ? 'warn' : LEVEL[handled.outcome];
}

/** The answer, its metrics and its one log line, whatever `receive` makes of the request (or however it fails). */
export function answering(
  receiveRequest: (event: APIGatewayProxyEventV2) => Promise<Handled>,
  stage: string,
  fields: FieldList = CONTACT_FIELDS,
): ContactHandler {
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
        where: errorLocation(error),
      };
    }
    // Only the site's own form gets a result page; a request that skipped CloudFront is refused as it is.
    const response =
      format === 'form' && handled.outcome !== 'not_through_cloudfront' ? formReply(event, handled.response, fields) : handled.response;
    // No viewer address, or no viewer host and scheme beside a browser's Origin: CloudFront's misconfiguration, if not a forgery.
    const misconfigured = handled.uncounted || handled.crossSite === 'no-viewer';
    writeMetrics(stage, contactMetrics(handled.outcome, handled.response.statusCode, handled.heldFor));
    // Only the keys CONTACT_REQUEST_LOG.fields names: the privacy statement says what each is.
    const line = {
      level: levelOf(handled, misconfigured),
      msg: CONTACT_REQUEST_LOG.msg,
      requestId: context?.awsRequestId ?? event.requestContext?.requestId,
      outcome: handled.outcome,
      format,
      status: response.statusCode,
      durationMs: Math.round(performance.now() - started),
      attempts: handled.attempts,
      messageId: handled.messageId,
      error: handled.error,
      where: handled.where,
      // Why a message was held, never its score or signals: those stay with the message, and go when it goes.
      [CONTACT_REQUEST_LOG.heldField]: handled.heldFor,
      crossSite: handled.crossSite,
      visitorLimit: handled.uncounted ? `not applied: no ${VIEWER_ADDRESS_HEADER}` : undefined,
    } satisfies { [Field in ContactRequestLogField]?: unknown };
    writeLog(line);
    return response;
  };
}
