/**
 * The outside check's post as the contact function takes it (core/src/outside-check.ts): only
 * with a marker the stage itself made, within minutes; then it goes the whole way (its stamp
 * checked and used, stored, e-mailed through the stage's configuration set) but never to the
 * firm, never for long, never against a visitor's limit or the mail budget, and nowhere a
 * visitor's message is found; the consumer records its delivery events on nothing. A marker
 * that is not the stage's leaves the post what it is: a visitor's message.
 */
import { describe, expect, it } from 'vitest';
import { OUTSIDE_CHECK, OUTSIDE_CHECK_HEADER } from '@site/core/outside-check';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import { CHECK_PREFIX } from '@site/core/table';
import { answer, contactEvent, ownMessage, VALID_BODY } from '@site/testing/api-events';
import { sesEvent } from '@site/testing/ses-events';
import { MAIL_TO, TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { checkMarker, checkMarkerKey, isCheckMarker } from '../src/outside-check/check-marker';
import { createContactHandler } from '../src/contact/contact-handler';
import { createDeliveryEventHandler } from '../src/delivery-events/delivery-event-handler';
import { createRetryHandler } from '../src/retry/retry';
import { getMessage } from '../src/store/store';
import { useContactStack } from './support/contact-stack';
import { solvedStamp } from './support/stamps';

const PREVIOUS_SECRET = 'the-origin-secret-before-the-rotation-0123456789';
const KEY = checkMarkerKey(TEST_ORIGIN_SECRET);

/** One message per visitor a window, a mail budget of one an hour: what a check must never touch. */
const stack = useContactStack((aws) => ({
  ...aws.config,
  visitorLimit: { ...aws.config.visitorLimit, messages: 1 },
  mailBudgets: { ordinary: { perHour: 1, perDay: 1 }, site: { perHour: 1, perDay: 1 } },
}));

const marked = (marker = checkMarker(KEY, new Date())) => ({ 'content-type': 'application/json', [OUTSIDE_CHECK_HEADER]: marker });

async function post(headers: Record<string, string>, body: unknown = ownMessage(), viewer = '198.51.100.7') {
  return answer(await stack.handler(contactEvent({ headers, body, viewer })));
}

describe('the marker', () => {
  const now = new Date('2026-12-08T10:00:00Z');

  it('is the stage’s own: made with the key from the origin secret, or during a rotation the previous one’s', () => {
    const keys = [KEY, checkMarkerKey(PREVIOUS_SECRET)];
    expect(isCheckMarker(checkMarker(KEY, now), keys, now)).toBe(true);
    expect(isCheckMarker(checkMarker(checkMarkerKey(PREVIOUS_SECRET), now), keys, now)).toBe(true);
    expect(isCheckMarker(checkMarker(checkMarkerKey('another-stage-s-origin-secret-0123456789'), now), keys, now)).toBe(false);
  });

  it(`holds for ${OUTSIDE_CHECK.markerSeconds / 60} minutes either way of the function’s clock, no longer`, () => {
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    expect(isCheckMarker(checkMarker(KEY, at(-OUTSIDE_CHECK.markerSeconds)), [KEY], now)).toBe(true);
    expect(isCheckMarker(checkMarker(KEY, at(OUTSIDE_CHECK.markerSeconds)), [KEY], now)).toBe(true);
    expect(isCheckMarker(checkMarker(KEY, at(-OUTSIDE_CHECK.markerSeconds - 1)), [KEY], now)).toBe(false);
    expect(isCheckMarker(checkMarker(KEY, at(OUTSIDE_CHECK.markerSeconds + 1)), [KEY], now)).toBe(false);
  });

  it('is refused when altered, shortened or not one at all', () => {
    const good = checkMarker(KEY, now);
    const [seconds, hmac] = good.split('.') as [string, string];
    for (const bad of [
      undefined,
      '',
      'check',
      `${Number(seconds) + 1}.${hmac}`,
      `${seconds}.${hmac.slice(0, 63)}`,
      `${seconds}.${hmac.toUpperCase()}`,
      `${good} `,
    ]) {
      expect(isCheckMarker(bad, [KEY], now), String(bad)).toBe(false);
    }
  });
});

describe('a post with the stage’s marker', () => {
  it('is stored under check#, with no status and no address key, kept a day at most, and e-mailed to SES’s mailbox simulator, never the firm', async () => {
    await stack.aws.clearEmails();
    const before = Math.floor(Date.now() / 1000);
    const answered = await post(marked());
    expect(answered.statusCode).toBe(200);
    expect(answered.json).toEqual({
      id: expect.stringMatching(new RegExp(`^${CHECK_PREFIX}[0-9A-Z]{26}$`)),
      check: { stamp: 'missing', emailed: true },
    });
    // Not a message to the operator's commands or the functions: no status, no address key, so no index holds it.
    expect(await getMessage(stack.aws.table, answered.json.id!)).toBeUndefined();
    const item = (await stack.aws.items()).find((found) => found.id === answered.json.id)!;
    expect(item).not.toHaveProperty('status');
    expect(item).not.toHaveProperty('emailKey');
    expect(item.expiresAt).toBeGreaterThanOrEqual(before + OUTSIDE_CHECK.keepSeconds - 1);
    expect(item.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + OUTSIDE_CHECK.keepSeconds);
    expect(item).toMatchObject({ sesMessageId: expect.any(String), emailedAt: expect.any(String) });
    const emails = await stack.aws.sentEmails();
    expect(emails.map((email) => email.destination.to)).toEqual([[OUTSIDE_CHECK.recipient]]);
    expect(JSON.stringify(emails)).not.toContain(MAIL_TO);
  });

  it('checks and uses its stamp as a visitor’s, and says whether it held', async () => {
    const stamp = await solvedStamp(stack.aws.config.stampKeys, '198.51.100.7', new Date(Date.now() - 60_000));
    expect((await post(marked(), ownMessage({ stamp }))).json.check).toEqual({ stamp: 'valid', emailed: true });
    expect((await post(marked(), ownMessage({ stamp }))).json.check).toEqual({ stamp: 'used', emailed: true });
    expect((await post(marked(), ownMessage({ stamp: 'bm90IGEgc3RhbXA=' }))).json.check).toEqual({ stamp: 'invalid', emailed: true });
  });

  it('is never held against a visitor’s limit or the mail budget: many from one address all go out, and a visitor’s message after them still does', async () => {
    await stack.aws.clearEmails();
    for (let i = 0; i < 4; i += 1)
      expect((await post(marked(), ownMessage(), '198.51.100.8')).json.check).toEqual({ stamp: 'missing', emailed: true });
    const items = await stack.aws.items();
    expect(items.filter((item) => String(item.id).startsWith('budget#'))).toEqual([]);
    expect(items.filter((item) => String(item.id).startsWith('visitor#'))).toEqual([]);
    const visitor = await post({ 'content-type': 'application/json' }, ownMessage(), '198.51.100.8');
    expect(visitor.statusCode).toBe(200);
    expect((await stack.aws.message(visitor.json.id!))?.status).toBe('emailed');
  });

  it('says SES did not take its e-mail when SES is away, and is not retried: the retry job reads only messages', async () => {
    await stack.aws.stopSes();
    let answered;
    try {
      answered = await post(marked());
    } finally {
      await stack.aws.startSes();
    }
    expect(answered.statusCode).toBe(200);
    expect(answered.json.check).toEqual({ stamp: 'missing', emailed: false });
    await stack.aws.clearEmails();
    const later = new Date(Date.now() + 60 * 60_000);
    const retry = createRetryHandler({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered'), clock: () => later });
    const summary = await retry();
    expect(summary).toMatchObject({ delivered: 0, deferred: 0, failed: 0, digested: 0 });
    expect((await stack.aws.sentEmails()).map((email) => email.destination.to)).not.toContainEqual([OUTSIDE_CHECK.recipient]);
  });

  it('is answered 503, as a visitor’s would be, when it cannot be stored', async () => {
    await stack.aws.stopDynamoDb();
    try {
      expect((await post(marked())).statusCode).toBe(503);
    } finally {
      await stack.aws.startDynamoDb();
    }
  });

  it('has its delivery events recorded on nothing and counted nowhere: tagged as the check’s', async () => {
    await stack.aws.clearEmails();
    const { id } = (await post(marked())).json;
    const item = (await stack.aws.items()).find((found) => found.id === id)!;
    const consume = createDeliveryEventHandler({ config: stack.aws.config, clients: stack.aws.clientsOf('record-delivery-event') });
    stack.logs.clear();
    await consume(
      sesEvent('Email Delivered', { sesMessageId: String(item.sesMessageId) }, (detail) => {
        detail.mail.tags[DELIVERY_TAGS.check] = [id!.slice(CHECK_PREFIX.length)];
      }),
    );
    expect(stack.logs.entries().at(-1)).toMatchObject({ msg: 'delivery event', outcome: 'check', reports: 'delivered' });
    expect(stack.logs.metricLines()).toEqual([]);
    expect((await stack.aws.items()).find((found) => found.id === id)).toEqual(item);
  });
});

describe('a post with a marker that is not the stage’s', () => {
  // A viewer of its own for each, within the visitor limit of one: addresses drawn at random met one another now and then.
  let viewer = 20;
  it.each([
    ['another stage’s', () => checkMarker(checkMarkerKey('another-stage-s-origin-secret-0123456789'), new Date())],
    ['an old one', () => checkMarker(KEY, new Date(Date.now() - (OUTSIDE_CHECK.markerSeconds + 60) * 1000))],
    ['a made-up one', () => `${Math.floor(Date.now() / 1000)}.${'0'.repeat(64)}`],
  ])('%s, is a visitor’s message, taken as any other', async (_what, marker) => {
    const answered = await post(marked(marker()), ownMessage(), `198.51.100.${(viewer += 1)}`);
    expect(answered.statusCode).toBe(200);
    expect(answered.json).toEqual({ id: expect.stringMatching(/^[0-9A-Z]{26}$/) });
    expect(await stack.aws.message(answered.json.id!)).toMatchObject({ status: expect.any(String), email: VALID_BODY.email });
  });

  it('is accepted with the previous secret’s during a rotation', async () => {
    const rotating = createContactHandler({
      config: { ...stack.aws.config, checkMarkerKeys: [KEY, checkMarkerKey(PREVIOUS_SECRET)] },
      clients: stack.aws.clients,
    });
    const answered = answer(
      await rotating(contactEvent({ headers: marked(checkMarker(checkMarkerKey(PREVIOUS_SECRET), new Date())), body: ownMessage() })),
    );
    expect(answered.json.check).toEqual({ stamp: 'missing', emailed: true });
  });
});
