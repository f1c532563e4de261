/**
 * The form's send: the request to the contact API and what its answer means for the visitor
 * (the fields' problems, why a 429 stopped it and when to try again). Loaded when the form is
 * first used, with the stamp's solver, not with the page (85 KB first-load budget): a send
 * awaits it (useContactForm.ts), and a visitor who never writes never loads it.
 */
import { API_PATH, IDEMPOTENCY_HEADER, type ContactErrorResponse } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import type { FieldProblems } from './contact-checks';
import { contactForm, directContact, emailHref, firm, phoneHref } from '../content/site';
import { retryAfterMinutes } from './retry-after';
import type { ToastDetailLine } from '../toast';

/** A request without an answer by then counts as failed, so the visitor is never left waiting. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** The function's JSON error answer, when the answer is one; an answer from before the function (API Gateway's) is not. */
async function errorAnswer(response: Response): Promise<ContactErrorResponse | undefined> {
  try {
    const answer = (await response.json()) as unknown;
    return typeof answer === 'object' && answer !== null && typeof (answer as ContactErrorResponse).error === 'string'
      ? (answer as ContactErrorResponse)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The per-field sentences of a 400 answer, for the fields this form has; nothing when there are none. */
function answeredProblems(status: number, answer: ContactErrorResponse | undefined, fields: FieldList): FieldProblems {
  if (status !== 400) return {};
  const entries = Object.entries(answer?.fields ?? {}).filter(([name, text]) => Object.hasOwn(fields, name) && typeof text === 'string');
  return Object.fromEntries(entries);
}

/** HTTP's "Too Many Requests": the function's visitor limit, or API Gateway's throttle. */
const TOO_MANY_REQUESTS = 429;

/** The firm's phone and address, for a visitor who cannot send now. */
const directContactLine: ToastDetailLine = [
  `${directContact.call} `,
  { href: phoneHref, label: firm.phone },
  ` ${directContact.mail} `,
  { href: emailHref, label: firm.email },
  '.',
];

/**
 * Under the spec's failure text when a 429 stops the send: trying again at once would fail
 * too, so why, when it will work, and how to reach the firm meanwhile. The visitor's own limit
 * answers with the function's JSON (so does the optional WAF rule, without Retry-After);
 * API Gateway's stage throttle answers before the function, with `{"message": …}` and no
 * Retry-After, and then the site is busy for everyone.
 */
function tooManyDetail(response: Response, answer: ContactErrorResponse | undefined): ToastDetailLine[] {
  const retryAfter = response.headers.get('Retry-After');
  const ownLimit = answer !== undefined || retryAfter !== null;
  return [[ownLimit ? contactForm.limited.again(retryAfterMinutes(retryAfter)) : contactForm.busy], directContactLine];
}

/** A send that got an answer, but not a good one. */
class RefusedError extends Error {
  constructor(
    readonly response: Response,
    readonly answer: ContactErrorResponse | undefined,
  ) {
    super(`${API_PATH} answered ${response.status} ${response.statusText}`.trim());
  }
}

/** What became of a send: the firm has it, or not, with the fields' problems and what to tell the visitor below the failure text. */
export type SendOutcome = { sent: true } | { sent: false; problems: FieldProblems; detail?: ToastDetailLine[] };

/** Posts the message (its JSON, the Idempotency-Key of its content); never throws: a failure of any kind is an outcome. */
export async function sendMessage(request: { content: string; key: string }, fields: FieldList): Promise<SendOutcome> {
  try {
    const response = await fetch(API_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: request.key },
      body: request.content,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.ok) return { sent: true };
    const answer = await errorAnswer(response);
    console.error(new RefusedError(response, answer));
    return {
      sent: false,
      problems: answeredProblems(response.status, answer, fields),
      detail: response.status === TOO_MANY_REQUESTS ? tooManyDetail(response, answer) : undefined,
    };
  } catch (error) {
    console.error(error);
    return { sent: false, problems: {} };
  }
}
