/**
 * What the privacy statement says of the spam defence and the log, as the code does it: the
 * statement says each from the same constants in core (frontend's privacy.ts, its tests check
 * the words), and this checks that the function's items and lines keep to them. A used
 * challenge's record lives as long as the challenge; a text's code and a network's e-mail count
 * live to the end of the next day (UTC); a digest comes at most once an hour, and again after
 * it; a contact request's log line holds only the keys the statement names.
 */
import { describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD, STAMP_FIELD } from '@site/core/contract';
import { DIGEST_TEXT } from '@site/core/content/digest';
import { CONTACT_REQUEST_LOG } from '@site/core/log-lines';
import { DAY_ITEMS_KEPT_DAYS_AFTER, DIGEST_INTERVAL_MINUTES, STAMP_DIFFICULTY } from '@site/core/spam';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { createContactHandler } from '../src/contact/contact-handler';
import { createRetryJob } from '../src/retry/retry';
import { BUDGET_PREFIX } from '../src/spam/mail-budget';
import { TEXT_PREFIX } from '@site/core/table';
import { STAMP_PREFIX } from '../src/spam/spam-store';
import { useLocalAws, type LocalAwsStack } from './support/contact-stack';
import { solvedStamp } from './support/stamps';

const MINUTE = 60_000;

function handlerAt(stack: LocalAwsStack, clock: { now: Date }) {
  return createContactHandler({ config: stack.aws.config, clients: stack.aws.clients, clock: () => clock.now });
}

const expiriesOf = (items: Record<string, unknown>[], prefix: string) =>
  new Set(items.filter((item) => String(item.id).startsWith(prefix)).map((item) => item.expiresAt));

describe('the spam defence’s items, as long as the statement says', () => {
  const stack = useLocalAws();

  it('keeps a used challenge’s record as long as the challenge, and a text’s code and the e-mail counts to the end of the next day (UTC)', async () => {
    const clock = { now: new Date('2026-11-24T21:30:00Z') };
    const issued = new Date(clock.now.getTime() - 2 * MINUTE);
    const viewer = '192.0.2.41';
    const stamp = await solvedStamp(stack.aws.config.stampKeys, viewer, issued);
    const sent = answer(await handlerAt(stack, clock)(contactEvent({ body: { ...ownMessage(), [STAMP_FIELD]: stamp }, viewer })));
    expect(await stack.aws.message(sent.json.id!)).toMatchObject({ status: 'emailed' });

    const items = await stack.aws.items();
    const issuedAt = Math.floor(issued.getTime() / 1000);
    expect(expiriesOf(items, STAMP_PREFIX)).toEqual(new Set([issuedAt + STAMP_DIFFICULTY.expiresSeconds]));
    // 24 November (UTC): gone at the end of the 25th.
    const endOfNextDay = Date.parse('2026-11-26T00:00:00Z') / 1000;
    expect(DAY_ITEMS_KEPT_DAYS_AFTER).toBe(1);
    expect(expiriesOf(items, TEXT_PREFIX)).toEqual(new Set([endOfNextDay]));
    expect(expiriesOf(items, BUDGET_PREFIX)).toEqual(new Set([endOfNextDay]));
  });
});

describe('the digest, as often as the statement says', () => {
  const stack = useLocalAws();

  it(`comes for a held message, not again within ${DIGEST_INTERVAL_MINUTES} minutes, and then again for what was held since`, async () => {
    const start = Date.parse('2026-11-25T09:00:00Z');
    const clock = { now: new Date(start) };
    const hold = async () =>
      answer(await handlerAt(stack, clock)(contactEvent({ body: { ...ownMessage(), [HONEYPOT_FIELD]: 'x' } }))).json.id!;
    const retry = createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered'), clock: () => clock.now });
    const digests = async () => (await stack.aws.sentEmails()).filter((email) => email.subject?.startsWith('Websiteberichten'));

    await hold();
    await retry({ minAgeMs: 0 });
    expect((await digests()).map((email) => email.subject)).toEqual([DIGEST_TEXT.subject(1)]);

    // The retry job runs every ten minutes; within the interval a newly held message waits for the next digest.
    clock.now = new Date(start + 10 * MINUTE);
    await hold();
    clock.now = new Date(start + (DIGEST_INTERVAL_MINUTES - 1) * MINUTE);
    await retry({ minAgeMs: 0 });
    expect(await digests()).toHaveLength(1);

    clock.now = new Date(start + DIGEST_INTERVAL_MINUTES * MINUTE);
    await retry({ minAgeMs: 0 });
    expect((await digests()).map((email) => email.subject)).toEqual([DIGEST_TEXT.subject(1), DIGEST_TEXT.subject(1)]);
    expect(DIGEST_INTERVAL_MINUTES).toBe(60);
  });
});

describe('the contact request’s log line, as the statement says', () => {
  const stack = useLocalAws();

  it('holds only the keys the statement names, whatever became of the message, and never what was typed', async () => {
    const clock = { now: new Date('2026-11-25T11:00:00Z') };
    const handler = handlerAt(stack, clock);
    const typed = ownMessage({ name: 'Lotte Logvrij', email: 'lotte@voorbeeld.nl' });
    stack.logs.clear();
    await handler(contactEvent({ body: typed }));
    await handler(contactEvent({ body: { ...ownMessage(), [HONEYPOT_FIELD]: 'x' } }));
    await handler(contactEvent({ body: { ...typed, email: 'geen adres' } }));
    await handler(contactEvent({ body: typed, headers: { origin: 'https://elders.example', 'sec-fetch-site': 'cross-site' } }));
    const lines = stack.logs.entries().filter((entry) => entry.msg === CONTACT_REQUEST_LOG.msg);
    expect(lines.map((line) => line.outcome)).toEqual(['stored_and_emailed', 'stored_held', 'invalid', 'cross_site']);
    const allowed = new Set<string>(CONTACT_REQUEST_LOG.fields);
    for (const line of lines)
      expect(
        Object.keys(line).filter((key) => !allowed.has(key)),
        String(line.outcome),
      ).toEqual([]);
    expect(stack.logs.raw()).not.toMatch(/Lotte|lotte@|geen adres|score|signals/);
  });
});
