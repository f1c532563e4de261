/**
 * GET and POST /api/held: the firm's page of held messages (decision 0048), served by the
 * contact function on the site's own origin.
 *
 * - Only through CloudFront (the origin secret), as every request to the function.
 * - GET with the digest's link shows the list and changes nothing: mail scanners open links.
 * - POST is the page's own forms: a search, another page of the list, "alsnog doorsturen"
 *   (released and e-mailed as its own notification, Reply-To the visitor, as `npm run
 *   messages -- release` does) and "spam" (marked, with spam's shorter expiry, as `purge`
 *   does). Refused from another site's page (cross-site.ts, as the contact form's posts), and
 *   without the link's token in the form.
 * - A link that is not ours, or has expired, shows nothing of any message.
 * - `no-store` and `noindex`; one log line per request, with no personal data: never the
 *   search, a name, an address or a text; a message's id only where a button named it.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  FETCH_SITE_HEADER,
  ORIGIN_HEADER,
  ORIGIN_VERIFY_HEADER,
  REFERER_HEADER,
  VIEWER_HOST_HEADER,
  VIEWER_SCHEME_HEADER,
} from '@site/core/api-origin';
import { HELD_PAGE_TEXT as TEXT } from '@site/core/content/held-page';
import { FORM_CONTENT_TYPE, HELD_LINK_PARAMETER } from '@site/core/contract';
import type { StoredMessage } from '@site/core/table';
import type { ContactConfig } from '../config';
import type { ContactHandler } from '../contact/contact-answer';
import { crossSiteSignal } from '../contact/cross-site';
import { headerValue, type HttpResult } from '../contact/http';
import { isFromCloudFront } from '../contact/origin-verify';
import type { DeliverySetup } from '../mail/delivery';
import { describeError, errorLocation, writeLog } from '../shared/log';
import { listHeldSince } from '../spam/spam-store';
import { getMessage } from '../store/store';
import { checkHeldLink, heldLinkKeys } from './held-link';
import { HELD_ACTIONS, HELD_FORM, heldPage, heldRefusedPage, pageCount, type HeldAction } from './held-page';
import { markSpam, releaseMessage, spamExpiry } from './held-store';

/** Held messages one request reads: as many as one digest reads; the page says when more wait. */
export const HELD_READ_CAP = 5000;
/** A form post of the page is a few hundred bytes; a search is a few words. */
const MAX_BODY_BYTES = 4096;
const MAX_SEARCH_LENGTH = 200;

export type HeldOutcome =
  | 'shown'
  | 'released'
  | 'release_deferred'
  | 'marked_spam'
  | 'already_handled'
  | 'link_invalid'
  | 'cross_site'
  | 'not_through_cloudfront'
  | 'invalid'
  | 'unexpected_error';

interface Answer {
  response: HttpResult;
  outcome: HeldOutcome;
  messageId?: string;
  error?: string;
  where?: string;
}

export interface HeldService {
  config: Pick<ContactConfig, 'origin' | 'spamRetentionDays'>;
  setup: DeliverySetup;
  clock: () => Date;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
} as const;

const page = (statusCode: number, body: string): HttpResult => ({ statusCode, headers: { ...PAGE_HEADERS }, body });

const LINK_INVALID = (): Answer => ({ response: page(403, heldRefusedPage(TEXT.linkInvalid)), outcome: 'link_invalid' });

/** The page's form fields, as posted; undefined when the body is no form post of the page. */
function formOf(event: APIGatewayProxyEventV2): URLSearchParams | undefined {
  const type = headerValue(event.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== FORM_CONTENT_TYPE) return undefined;
  const body = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  return Buffer.byteLength(body) > MAX_BODY_BYTES ? undefined : new URLSearchParams(body);
}

/** Lower-cased and without accents, so "José" finds "jose" and the other way round. */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

function matches(message: StoredMessage, terms: readonly string[], names: readonly string[]): boolean {
  const values = message as unknown as Record<string, string | undefined>;
  const text = folded([message.id, ...names.map((name) => values[name] ?? '')].join('\n'));
  return terms.every((term) => text.includes(term));
}

/**
 * Every held message not yet handled, the most likely real first: the lowest score, and of
 * the same score the newest (a wave's oldest never pushes a later visitor down).
 */
async function heldList(service: HeldService, search: string): Promise<{ messages: StoredMessage[]; more: boolean }> {
  const { messages, more } = await listHeldSince(service.setup.table, undefined, HELD_READ_CAP);
  const terms = folded(search).split(/\s+/).filter(Boolean);
  const names = Object.keys(service.setup.fields);
  const found = terms.length === 0 ? messages : messages.filter((message) => matches(message, terms, names));
  found.sort((a, b) => (a.score ?? 0) - (b.score ?? 0) || b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id));
  return { messages: found, more };
}

async function showList(
  service: HeldService,
  token: string,
  view: { search: string; page: number; notice?: string },
  outcome: HeldOutcome,
  messageId?: string,
): Promise<Answer> {
  const { messages, more } = await heldList(service, view.search);
  const pageNumber = Math.min(Math.max(1, view.page), pageCount(messages.length));
  const html = heldPage({
    token,
    messages,
    more,
    search: view.search,
    page: pageNumber,
    notice: view.notice,
    fields: service.setup.fields,
  });
  return { response: page(200, html), outcome, messageId };
}

/** What a button did to one message, and the sentence the page shows about it. */
async function act(service: HeldService, action: 'release' | 'spam', id: string): Promise<{ outcome: HeldOutcome; notice: string }> {
  const now = service.clock();
  const { table } = service.setup;
  const message = await getMessage(table, id);
  if (!message || message.status !== 'held') return { outcome: 'already_handled', notice: TEXT.handled(id) };
  if (action === 'spam') {
    const days = service.config.spamRetentionDays;
    return (await markSpam(table, id, spamExpiry(message, now, days)))
      ? { outcome: 'marked_spam', notice: TEXT.markedSpam(id, days) }
      : { outcome: 'already_handled', notice: TEXT.handled(id) };
  }
  const released = await releaseMessage(service.setup, message, now);
  if (released.outcome === 'not_held') return { outcome: 'already_handled', notice: TEXT.handled(id) };
  if (released.outcome === 'delivered' && released.delivery.outcome !== 'emailed') {
    return { outcome: 'release_deferred', notice: TEXT.releaseDeferred(id) };
  }
  return { outcome: 'released', notice: TEXT.released(id) };
}

const ACTION_BY_NAME = Object.fromEntries(Object.entries(HELD_ACTIONS).map(([action, name]) => [name, action])) as Record<
  string,
  HeldAction | undefined
>;

async function post(event: APIGatewayProxyEventV2, service: HeldService): Promise<Answer> {
  const signal = crossSiteSignal({
    origin: headerValue(event.headers, ORIGIN_HEADER),
    fetchSite: headerValue(event.headers, FETCH_SITE_HEADER),
    referer: headerValue(event.headers, REFERER_HEADER),
    viewerHost: headerValue(event.headers, VIEWER_HOST_HEADER),
    viewerScheme: headerValue(event.headers, VIEWER_SCHEME_HEADER),
  });
  if (signal !== undefined) return { response: page(403, heldRefusedPage(TEXT.crossSite)), outcome: 'cross_site' };
  const form = formOf(event);
  const token = form?.get(HELD_LINK_PARAMETER) ?? undefined;
  if (!form || checkHeldLink(token, heldLinkKeys(service.config.origin), service.clock()) === undefined) return LINK_INVALID();
  const action = ACTION_BY_NAME[form.get(HELD_FORM.action) ?? ''];
  const id = form.get(HELD_FORM.id) ?? '';
  // The search box comes after the form's hidden copy of the last search: its own value is the last.
  const search = (form.getAll(HELD_FORM.search).at(-1) ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const pageNumber = Number.parseInt(form.get(HELD_FORM.page) ?? '1', 10) || 1;
  if (action === undefined || (action !== 'show' && !/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))) {
    const shown = await showList(service, token!, { search, page: pageNumber }, 'invalid');
    return { ...shown, response: { ...shown.response, statusCode: 400 } };
  }
  if (action === 'show') return showList(service, token!, { search, page: pageNumber }, 'shown');
  const done = await act(service, action, id);
  return showList(service, token!, { search, page: pageNumber, notice: done.notice }, done.outcome, id);
}

async function answer(event: APIGatewayProxyEventV2, service: HeldService): Promise<Answer> {
  if (!isFromCloudFront(headerValue(event.headers, ORIGIN_VERIFY_HEADER), service.config.origin)) {
    return { response: { statusCode: 403, headers: { 'Cache-Control': 'no-store' }, body: '' }, outcome: 'not_through_cloudfront' };
  }
  const method = event.requestContext?.http?.method;
  if (method === 'POST') return post(event, service);
  if (method !== 'GET' && method !== 'HEAD') {
    return {
      response: { statusCode: 405, headers: { Allow: 'GET, POST', 'Cache-Control': 'no-store' }, body: '' },
      outcome: 'invalid',
    };
  }
  const token = event.queryStringParameters?.[HELD_LINK_PARAMETER];
  if (checkHeldLink(token, heldLinkKeys(service.config.origin), service.clock()) === undefined) return LINK_INVALID();
  return showList(service, token!, { search: '', page: 1 }, 'shown');
}

const LEVEL: Record<HeldOutcome, 'info' | 'warn' | 'error'> = {
  shown: 'info',
  released: 'info',
  marked_spam: 'info',
  already_handled: 'info',
  link_invalid: 'info',
  cross_site: 'info',
  not_through_cloudfront: 'info',
  invalid: 'info',
  release_deferred: 'warn',
  unexpected_error: 'error',
};

/** The log line's message: the saved queries and the tests find the page's requests by it. */
export const HELD_PAGE_LOG = 'held page';

/** The page's handler, answering and logging every request to HELD_PATH. */
export function createHeldHandler(service: HeldService): ContactHandler {
  return async (event, context) => {
    const started = performance.now();
    let answered: Answer;
    try {
      answered = await answer(event, service);
    } catch (error) {
      answered = {
        response: page(500, heldRefusedPage({ title: TEXT.failed.title, text: TEXT.failed.text })),
        outcome: 'unexpected_error',
        error: describeError(error),
        where: errorLocation(error),
      };
    }
    writeLog({
      level: LEVEL[answered.outcome],
      msg: HELD_PAGE_LOG,
      requestId: context?.awsRequestId ?? event.requestContext?.requestId,
      outcome: answered.outcome,
      status: answered.response.statusCode,
      durationMs: Math.round(performance.now() - started),
      messageId: answered.messageId,
      error: answered.error,
      where: answered.where,
    });
    return answered.response;
  };
}
