/**
 * POST /api/send-contact-email: only through CloudFront, only from the site's own pages,
 * validate, within the visitor's limit, store, then e-mail; the outside check's marked post, once
 * valid, goes its own way (outside-check/check-post.ts). A stored message is never lost (the retry
 * job delivers what SES refused); a message that could not be stored is never e-mailed, costs the
 * visitor nothing, and the visitor is told to try again. A refused request stores, counts and
 * e-mails nothing. Scripts post JSON and get JSON; a form posted without scripts gets a result page.
 * Built from its dependencies (configuration, clients, field list, clock): Lambda's entry
 * (handlers/send-contact-email.ts), the local stack and the tests all run this same code.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ulid } from 'ulid';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { FieldList } from '@site/core/field-spec';
import { CHALLENGE_PATH, HELD_PATH, STAMP_FIELD } from '@site/core/contract';
import { emailKey, expiresAtFor, type StoredMessage } from '@site/core/table';
import { assess, dispose, readForAssessment, type Assessment, type Disposition } from '../spam/assessment';
import { answering, type ContactHandler, type Handled } from './contact-answer';
import type { ContactConfig } from '../config';
import { crossSiteOf } from './cross-site';
import { answerChallenge } from './challenge';
import { answerTiming, systemTiming, type AnswerTiming } from './answer-timing';
import { isCheckPost, receiveCheckPost } from '../outside-check/check-post';
import { deliver, type DeliverySetup } from '../mail/delivery';
import { errorResponse, headerValue, jsonResponse, parseContactRequest } from './http';
import { bodyHash, contentKey } from './idempotency';
import { describeError } from '../shared/log';
import { isFromCloudFront } from './origin-verify';
import { createHeldHandler } from '../held/held-handler';
import { deliverySetup, systemClock, type FunctionDependencies } from '../dependencies';
import { isHoneypotFilled, validateContactMessage, type ContactMessage } from './schema';
import { claimIdempotencyKey, deleteIdempotencyRecord } from '../store/idempotency-records';
import { getMessage, storeMessage, type MessageTable } from '../store/store';
import { returnMailBudget } from '../spam/spam-store';
import type { Reservation } from '../spam/visitor-counter';
import { checkVisitor, releaseVisitor, type VisitorCheck } from '../spam/visitor-check';
import { budgetNetworks, visitorHash } from '../spam/visitor-limit';

/** What every request of one handler works with. */
interface Service {
  config: ContactConfig;
  table: MessageTable;
  setup: DeliverySetup;
  fields: FieldList;
  clock: () => Date;
  timing: AnswerTiming;
}

function newMessage(
  message: { id: string; contact: ContactMessage; idempotencyKey?: string },
  judged: { assessment: Assessment; disposition: Disposition },
  now: Date,
  retentionDays: number,
): StoredMessage {
  const { id, contact, idempotencyKey } = message;
  const { assessment, disposition } = judged;
  return {
    // Only what the visitor typed (validation left nothing else in `contact`) plus our bookkeeping.
    ...contact,
    emailKey: emailKey(contact.email),
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    id,
    receivedAt: now.toISOString(),
    status: disposition.status,
    ...(disposition.status === 'held' && { heldFor: disposition.heldFor }),
    attempts: 0,
    score: assessment.score,
    signals: assessment.signals,
    fingerprint: assessment.fingerprint,
    expiresAt: expiresAtFor(now.toISOString(), retentionDays),
  };
}

function storeFailed(error: unknown, releaseError?: string): Handled {
  const described = [describeError(error), releaseError && `release: ${releaseError}`].filter(Boolean).join('; ');
  return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'store_failed', attempts: 0, error: described };
}

function configError(error: unknown): Handled {
  // The message names the missing variable and holds nothing the visitor sent.
  return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'config_error', attempts: 0, error: (error as Error).message };
}

/** Who sent a message, as repeatedText counts senders: the visitor's network, or the message where none is known. */
function senderOf(visitor: VisitorCheck, messageId: string): { network: string } | { messageId: string } {
  return visitor.kind === 'counted' && visitor.network !== undefined ? { network: visitor.network } : { messageId };
}

function visitorLimited(retryAfterSeconds: number): Handled {
  const refused = errorResponse(429, ERROR_TEXT.tooManyMessages);
  return {
    response: { ...refused, headers: { ...refused.headers, 'Retry-After': String(retryAfterSeconds) } },
    outcome: 'visitor_limited',
    attempts: 0,
  };
}

/** Refuses a post from another site's page (cross-site.ts), before anything of it is read. */
function refuseCrossSite(event: APIGatewayProxyEventV2): Handled | undefined {
  const signal = crossSiteOf(event);
  if (signal === undefined) return undefined;
  return { response: errorResponse(403, ERROR_TEXT.notThroughSite), outcome: 'cross_site', attempts: 0, crossSite: signal };
}

async function receive(event: APIGatewayProxyEventV2, service: Service): Promise<Handled> {
  // First of all: a request that did not come through CloudFront is not read any further.
  if (!isFromCloudFront(headerValue(event.headers, ORIGIN_VERIFY_HEADER), service.config.origin)) {
    return { response: errorResponse(403, ERROR_TEXT.notThroughSite), outcome: 'not_through_cloudfront', attempts: 0 };
  }
  if (event.requestContext?.http?.method === 'GET' && event.rawPath === CHALLENGE_PATH) return answerChallenge(event, service);
  // Only a POST can send anything; another method gets its 405 whoever asks.
  const crossSite = event.requestContext?.http?.method === 'POST' ? refuseCrossSite(event) : undefined;
  return crossSite ?? receiveFromSite(event, service);
}

async function receiveFromSite(event: APIGatewayProxyEventV2, service: Service): Promise<Handled> {
  const parsed = parseContactRequest(event, service.fields);
  if (!parsed.ok) return { response: parsed.response, outcome: 'invalid', attempts: 0 };
  const { body, format } = parsed.request;

  const validation = validateContactMessage(body, service.fields);
  if (!validation.ok) {
    return { response: errorResponse(400, ERROR_TEXT.invalidFields, validation.fields), outcome: 'invalid', attempts: 0 };
  }
  // The table the handler was built with holds the site's fields at least.
  const contact = validation.value as ContactMessage;
  if (isCheckPost(event, service)) {
    const network = budgetNetworks(headerValue(event.headers, VIEWER_ADDRESS_HEADER))?.[0];
    return receiveCheckPost(contact, { stamp: body[STAMP_FIELD], network }, service);
  }

  const now = service.clock();
  const address = headerValue(event.headers, VIEWER_ADDRESS_HEADER);
  const networks = budgetNetworks(address);
  const judged = { contact, stamp: body[STAMP_FIELD], honeypot: isHoneypotFilled(body), network: networks?.[0], now };
  // Reads only, made while the message is claimed and its visitor counted (decision 0050):
  // awaited where the message is judged, so a post answered before then leaves it unread.
  const reading = readForAssessment(judged, { table: service.table, ...service.config });
  reading.catch(() => undefined);
  // A browser's form post cannot send the header; its key comes from what was typed (see contentKey).
  const idempotencyKey =
    parsed.request.idempotencyKey ?? (format === 'form' ? contentKey(service.config.idempotencyHashKeys.current, contact) : undefined);
  // After validation, so only a valid message counts; before anything is stored.
  const countVisitor = (messageId: string) =>
    checkVisitor(service.table, { address, limit: service.config.visitorLimit, hashKey: service.config.visitorHashKey }, messageId, now);
  // The key's claim and the visitor's count at once (decision 0050). A request that made no
  // message of its own (a refused key, or the same message sent again) gives its count back,
  // and the same message sent again is counted under its first request's id: it counts once.
  const fresh = ulid(now.getTime());
  const [claim, counted] = await Promise.all([claimedId(contact, idempotencyKey, service, now, fresh), countVisitor(fresh)]);
  if (('outcome' in claim || claim.id !== fresh) && counted.kind === 'counted') await releaseVisitor(service.table, counted.reservations);
  if ('outcome' in claim) return claim;
  const { id } = claim;
  const visitor = id === fresh ? counted : await countVisitor(id);
  if (visitor.kind === 'failed') return storeFailed(visitor.error, visitor.releaseError);
  if (visitor.kind === 'over') {
    // A refused message leaves nothing behind: the key is free for the same message in a later window.
    if (claim.claimed) await unclaim(service, idempotencyKey!, id);
    return visitorLimited(visitor.retryAfterSeconds);
  }
  const reservations = visitor.kind === 'counted' ? visitor.reservations : [];
  // The same message sent again after it was stored: answered as it was, before it is judged
  // again, so a burst of retries costs reads, not the budget's counters.
  if (idempotencyKey !== undefined && !claim.claimed) {
    try {
      if (await getMessage(service.table, id))
        return { response: jsonResponse(200, { id }), outcome: 'duplicate', attempts: 0, messageId: id };
    } catch (error) {
      return storeFailed(error, await releaseVisitor(service.table, reservations));
    }
  }
  let assessment: Assessment;
  let disposition: Disposition;
  try {
    // The request that made the message counts its sender; the same message sent again was counted by it.
    const sender = idempotencyKey !== undefined && !claim.claimed ? undefined : senderOf(visitor, id);
    assessment = await assess({ ...judged, messageId: id, sender }, { table: service.table, ...service.config }, await reading);
    const spend = { table: service.table, budgets: service.config.mailBudgets, networks: hashed(networks, service) };
    disposition = await dispose(assessment, spend, now);
  } catch (error) {
    return storeFailed(error, await releaseVisitor(service.table, reservations));
  }
  const message = newMessage({ id, contact, idempotencyKey }, { assessment, disposition }, now, service.config.retentionDays);
  const handled = await storeAndSend(message, disposition, reservations, service, now);
  return { ...handled, ...(visitor.kind === 'uncounted' && { uncounted: true }) };
}

/**
 * The message's id: `id`, or the one an earlier request with the same Idempotency-Key
 * reserved; `claimed` when this request made the reservation.
 */
async function claimedId(
  contact: ContactMessage,
  idempotencyKey: string | undefined,
  service: Service,
  now: Date,
  id: string,
): Promise<Handled | { id: string; claimed: boolean }> {
  if (idempotencyKey === undefined) return { id, claimed: false };
  const keys = service.config.idempotencyHashKeys;
  const bodyHashes = Object.fromEntries([keys.current, keys.previous].flatMap((key) => (key ? [[key.name, bodyHash(key, contact)]] : [])));
  try {
    const claim = await claimIdempotencyKey(service.table, {
      key: idempotencyKey,
      messageId: id,
      bodyHashes,
      hashKeyName: keys.current.name,
      now,
    });
    if (claim.outcome !== 'conflict') return { id: claim.messageId, claimed: claim.outcome === 'claimed' };
    return { response: errorResponse(422, ERROR_TEXT.idempotencyConflict), outcome: 'idempotency_conflict', attempts: 0 };
  } catch (error) {
    return storeFailed(error);
  }
}

/** The visitor is waiting for the 429 meanwhile; the key expires with IDEMPOTENCY_TTL_SECONDS anyway. */
const UNCLAIM_TIMEOUT_MS = 1_000;
/** Takes back this request's reservation of a key; best effort. */
async function unclaim(service: Service, key: string, messageId: string): Promise<void> {
  await deleteIdempotencyRecord(service.table, { key, messageId }, AbortSignal.timeout(UNCLAIM_TIMEOUT_MS)).catch(() => false);
}

/** Gives back the e-mail a message that was not stored (or was stored before) took from its budget. */
async function returnBudget(service: Service, disposition: Disposition): Promise<void> {
  if (disposition.status !== 'received') return;
  await returnMailBudget(service.table, disposition.budget).catch(() => undefined);
}

/** The keyed hashes of the networks the viewer's e-mails are shared out among, narrowest first; none without an address. */
function hashed(networks: readonly string[] | undefined, service: Service): string[] {
  return (networks ?? []).map((network) => visitorHash(service.config.visitorHashKey, network));
}

/** Stores the message (giving its places and its e-mail back when that fails), then e-mails it unless it is held. */
async function storeAndSend(
  message: StoredMessage,
  disposition: Disposition,
  reservations: readonly Reservation[],
  service: Service,
  now: Date,
): Promise<Handled> {
  const { id } = message;
  try {
    // 'exists': an earlier request with this Idempotency-Key stored it and sends the e-mail.
    if ((await storeMessage(service.table, message)) === 'exists') {
      await returnBudget(service, disposition);
      return { response: jsonResponse(200, { id }), outcome: 'duplicate', attempts: 0, messageId: id };
    }
  } catch (error) {
    await returnBudget(service, disposition);
    return storeFailed(error, await releaseVisitor(service.table, reservations));
  }
  if (disposition.status === 'held') {
    // Stored: nothing is lost to the wait, which only keeps the answer from telling held from e-mailed.
    await service.timing.pad();
    return { response: jsonResponse(200, { id }), outcome: 'stored_held', attempts: 0, messageId: id, heldFor: disposition.heldFor };
  }

  const delivery = await service.timing.timed(() => deliver(service.setup, message, { at: now, isLast: false }));
  return {
    response: jsonResponse(200, { id }),
    outcome: delivery.outcome === 'emailed' ? 'stored_and_emailed' : 'stored_email_deferred',
    attempts: 1,
    messageId: id,
    error: [delivery.error, delivery.recordError && `record: ${delivery.recordError}`].filter(Boolean).join('; ') || undefined,
  };
}

/** The contact handler, built from its dependencies; HELD_PATH is the firm's page of held messages (held/, decision 0048). */
export function createContactHandler(dependencies: FunctionDependencies<ContactConfig>): ContactHandler {
  const setup = deliverySetup(dependencies);
  const { config, fields = CONTACT_FIELDS, clock = systemClock, timing = systemTiming } = dependencies;
  const service: Service = { config, table: setup.table, setup, fields, clock, timing: answerTiming(timing) };
  const contact = answering((event) => receive(event, service), config.stage, fields);
  const held = createHeldHandler({ config, setup, clock });
  return (event, context) => (event.rawPath === HELD_PATH ? held(event, context) : contact(event, context));
}

/**
 * The handler of a function whose configuration could not be read: every request is
 * answered 503 (a form post: the form again, with what was typed) before anything of it is
 * used, and logged as config_error with the error, which names the variable and never its
 * value, and counted under `stage` as not stored.
 */
export function unconfiguredContactHandler(error: unknown, stage: string): ContactHandler {
  return answering(() => Promise.resolve(configError(error)), stage);
}
