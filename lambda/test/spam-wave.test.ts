/**
 * A wave against the contact function with its default mail budgets (the deploy's
 * settings), on the stand-ins, with an injected clock: every message is stored, the firm gets
 * at most the hour's budget and a digest, a person who uses the site's own form still gets
 * through at once, and ordinary traffic is never held. The retry job reads the same bounded
 * page whatever the backlog.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge } from 'altcha-lib/types';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { STAMP_FIELD } from '@site/core/contract';
import { DIGEST_TEXT } from '@site/core/content/digest';
import type { StoredMessage } from '@site/core/table';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { messageMaker } from '@site/testing/stored-messages';
import { createContactHandler } from '../src/contact/contact-handler';
import type { MailBudgets } from '../src/spam/mail-budget';
import { createRetryJob } from '../src/retry/retry';
import { COUNT_CAP } from '../src/store/store';
import { newChallenge } from '../src/spam/stamp';
import { useLocalAws, type LocalAwsStack } from './support/contact-stack';

const BUDGETS = {
  ordinary: DEFAULTS.mailBudget,
  site: DEFAULTS.siteMailBudget,
};

/** A handler on the stand-ins with the deploy's default budgets (or the test's own) and a clock the test moves. */
function waveHandler(stack: LocalAwsStack, clock: { now: Date }, mailBudgets: MailBudgets = BUDGETS) {
  return createContactHandler({
    config: { ...stack.aws.config, mailBudgets },
    clients: stack.aws.clients,
    clock: () => clock.now,
  });
}

/** What a bot sends: one text with a link, no stamp, from its own address. */
const spam = (n: number) => ({
  ...ownMessage(),
  name: `Bot ${n}`,
  message: 'Cheap SEO services, first page of Google guaranteed: https://seo-deals.example/offer',
});

/** A stamp as the site's script makes it: a challenge of the function's, solved. */
async function stampFor(stack: LocalAwsStack, issuedAt: Date): Promise<string> {
  const challenge: Challenge = await newChallenge(stack.aws.config.stampKeys, issuedAt);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution found');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * `count` addresses: half IPv4, half IPv6 /64s spread over 25 /48s, so no /48 passes its own
 * limit (a wave from fewer networks is refused by the per-visitor limit, as before).
 */
function addresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? `203.0.${(i >> 8) & 255}.${i & 255}` : `2001:db8:${(i % 25).toString(16)}:${(i >> 1).toString(16)}::1`,
  );
}

const HOUR = 60 * 60 * 1000;

describe('a wave of 3,000 messages from 1,500 addresses in one hour', () => {
  const stack = useLocalAws();

  it(
    'stores every one, e-mails at most the hour’s budget and a digest, and lets a person through at once',
    { timeout: 600_000 },
    async () => {
      const start = Date.parse('2026-11-23T09:00:00Z');
      const clock = { now: new Date(start) };
      const handler = waveHandler(stack, clock);
      const senders = addresses(1500);
      const total = 3000;
      let person: string | undefined;
      for (let batch = 0; batch < total; batch += 20) {
        clock.now = new Date(start + (batch / total) * (HOUR - 60_000));
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            handler(contactEvent({ body: spam(batch + i), viewer: senders[(batch + i) % senders.length] })),
          ),
        );
        expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
        if (batch === total / 2) {
          // A person in the middle of the wave: the site's own form, a minute after first typing in it.
          const stamp = await stampFor(stack, new Date(clock.now.getTime() - 60_000));
          await stack.aws.clearEmails();
          const sent = answer(
            await handler(
              contactEvent({ body: { ...ownMessage({ name: 'Echte Bezoeker' }), [STAMP_FIELD]: stamp }, viewer: '192.0.2.77' }),
            ),
          );
          expect(sent.statusCode).toBe(200);
          person = sent.json.id;
          expect(await stack.aws.message(person!)).toMatchObject({ status: 'emailed', score: 0, signals: [] });
          expect((await stack.aws.sentEmails()).map((email) => email.subject)).toEqual([expect.stringContaining('Echte Bezoeker')]);
        }
      }
      const messages = (await stack.aws.messages()).filter((message) => message.id !== person);
      expect(messages).toHaveLength(total);
      const emailed = messages.filter((message) => message.status === 'emailed');
      expect(emailed.length).toBeLessThanOrEqual(BUDGETS.ordinary.perHour);
      expect(messages.filter((message) => message.status === 'held').length).toBe(total - emailed.length);

      // The retry job at the hour's end: one digest, then none within the hour.
      await stack.aws.clearEmails();
      const retry = createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered'), clock: () => clock.now });
      clock.now = new Date(start + HOUR);
      expect(await retry({ minAgeMs: 0 })).toMatchObject({ delivered: 0, digested: total - emailed.length });
      clock.now = new Date(start + HOUR + 30 * 60_000);
      expect(await retry({ minAgeMs: 0 })).toMatchObject({ delivered: 0, digested: 0 });
      const digests = await stack.aws.sentEmails();
      expect(digests.map((email) => email.subject)).toEqual([DIGEST_TEXT.subject(total - emailed.length)]);
    },
  );
});

describe('ordinary traffic', () => {
  const stack = useLocalAws();

  it('100 messages over 30 days: 100 e-mails, none held', { timeout: 120_000 }, async () => {
    const start = Date.parse('2026-10-01T08:00:00Z');
    const clock = { now: new Date(start) };
    const handler = waveHandler(stack, clock);
    for (let i = 0; i < 100; i += 1) {
      clock.now = new Date(start + i * 7.2 * HOUR);
      const body =
        i % 2 === 0 ? ownMessage() : { ...ownMessage(), [STAMP_FIELD]: await stampFor(stack, new Date(clock.now.getTime() - 120_000)) };
      expect((await handler(contactEvent({ body }))).statusCode).toBe(200);
    }
    const messages = await stack.aws.messages();
    expect(messages.filter((message) => message.status !== 'emailed')).toEqual([]);
    expect(messages).toHaveLength(100);
    expect(await stack.aws.sentEmails()).toHaveLength(100);
  });
});

describe('the mail budget', () => {
  const stack = useLocalAws();

  it(
    'e-mails exactly the hour’s budget, then the day’s, however many arrive at once; the rest is held for the budget',
    { timeout: 300_000 },
    async () => {
      const budgets = { ordinary: { perHour: 7, perDay: 16 }, site: BUDGETS.site };
      const start = Date.parse('2026-11-24T00:10:00Z');
      const clock = { now: new Date(start) };
      const handler = waveHandler(stack, clock, budgets);
      const senders = addresses(300);
      let sent = 0;
      // Ordinary messages (no stamp, distinct texts, no link: never suspect), 25 at once, in three hours of one day.
      for (const hour of [0, 1, 2]) {
        clock.now = new Date(start + hour * HOUR);
        const answers = await Promise.all(
          Array.from({ length: 25 }, () => handler(contactEvent({ body: ownMessage(), viewer: senders[sent++] }))),
        );
        expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
      }
      const messages = await stack.aws.messages();
      const emailedIn = (hour: number) =>
        messages.filter((message) => message.status === 'emailed' && new Date(message.receivedAt).getUTCHours() === hour).length;
      expect([emailedIn(0), emailedIn(1), emailedIn(2)]).toEqual([7, 7, 2]);
      const held = messages.filter((message) => message.status === 'held');
      expect(held).toHaveLength(75 - 16);
      expect(new Set(held.map((message) => message.heldFor))).toEqual(new Set(['budget']));
      expect(await stack.aws.sentEmails()).toHaveLength(16);

      // The next day has a budget of its own.
      clock.now = new Date(start + 24 * HOUR);
      expect(answer(await handler(contactEvent({ body: ownMessage(), viewer: senders[sent++] }))).statusCode).toBe(200);
      expect(await stack.aws.sentEmails()).toHaveLength(17);
    },
  );
});

describe('the retry job in a backlog', () => {
  const stack = useLocalAws();

  /** Items DynamoDB reads for one run: what its time and cost grow with. */
  async function itemsReadByOneRun(): Promise<number> {
    let read = 0;
    const client = stack.aws.clients.documents;
    const counting = 'count-reads';
    client.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const output = result.output as { ScannedCount?: number; Count?: number; Item?: unknown };
        read += output.ScannedCount ?? output.Count ?? (output.Item ? 1 : 0);
        return result;
      },
      { step: 'initialize', name: counting },
    );
    try {
      await createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered') })({
        minAgeMs: 0,
        backoffBaseMs: HOUR,
      });
    } finally {
      client.middlewareStack.remove(counting);
    }
    return read;
  }

  async function addWaiting(count: number): Promise<void> {
    const now = Date.now();
    const make = messageMaker({ idPrefix: `WAIT${count}-`, from: new Date(now - 2 * HOUR), stepMs: 1 });
    // Each tried once a moment ago, so none is due within the run: the worst case for the reads.
    const waiting: StoredMessage[] = Array.from({ length: count }, () => make({ attempts: 1, lastAttemptAt: new Date(now).toISOString() }));
    for (let i = 0; i < waiting.length; i += 25)
      await Promise.all(waiting.slice(i, i + 25).map((message) => stack.aws.put({ ...message })));
  }

  it(`reads the same bounded page with ${2 * COUNT_CAP} and with ${6 * COUNT_CAP} messages waiting`, { timeout: 600_000 }, async () => {
    await addWaiting(2 * COUNT_CAP);
    const smaller = await itemsReadByOneRun();
    await addWaiting(4 * COUNT_CAP);
    const larger = await itemsReadByOneRun();
    expect(larger).toBe(smaller);
    // The loop's page of not-yet-due messages, and each count's cap.
    expect(larger).toBeLessThanOrEqual(600 + 3 * COUNT_CAP);
  });
});
