/**
 * What a form post (a visitor without scripts) gets back, from the answer its JSON twin would
 * have had. A refusal the visitor can act on by sending again (fields to correct, the visitor
 * limit, a fault of ours) answers with the form again, filled in with what was typed
 * (refused-post-page.ts), so nothing typed is lost; with the JSON's status, never cached,
 * and nothing of it in the address. Everything else goes on with 303 to its page
 * (formAnswer): sent, a post from another site's page (whose words are not echoed back), and
 * a body that could not be read. No I/O.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { visitorLimitSentence } from '@site/core/content/refused-post';
import type { ContactErrorResponse } from '@site/core/contract';
import type { FieldList } from '@site/core/field-spec';
import { fieldNames } from '@site/core/contract';
import { formAnswer, formResultFor, headerValue, parseContactRequest, type HttpResult } from './http';
import { refusedPostPage } from './refused-post-page';

function errorOf(response: HttpResult): ContactErrorResponse | undefined {
  try {
    return JSON.parse(response.body ?? '') as ContactErrorResponse;
  } catch {
    return undefined;
  }
}

/** The visitor's wait in whole minutes, rounded up, from a 429's Retry-After (seconds). */
function minutesToWait(response: HttpResult): number | undefined {
  const seconds = Number(headerValue(response.headers as Record<string, string> | undefined, 'Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : undefined;
}

export function formReply(event: APIGatewayProxyEventV2, response: HttpResult, fields: FieldList): HttpResult {
  const result = formResultFor(response.statusCode);
  const error = errorOf(response);
  const problems = error?.fields ?? {};
  // A 'check' without named fields is a body that could not be read: there is nothing to fill in.
  const refill = result === 'limited' || result === 'failed' || (result === 'check' && Object.keys(problems).length > 0);
  const parsed = refill ? parseContactRequest(event, fields) : undefined;
  if (!parsed?.ok) return formAnswer(response);
  const { body } = parsed.request;
  const values = Object.fromEntries(fieldNames(fields).map((name) => [name, typeof body[name] === 'string' ? body[name] : '']));
  const reason = result === 'limited' ? visitorLimitSentence(minutesToWait(response)) : undefined;
  const retryAfter = headerValue(response.headers as Record<string, string> | undefined, 'Retry-After');
  return {
    statusCode: response.statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(retryAfter !== undefined && { 'Retry-After': retryAfter }),
    },
    body: refusedPostPage({ fields, values, problems, reason }),
  };
}
