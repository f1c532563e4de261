/**
 * A wave against the contact function with its default mail budgets (the deploy's
 * settings), on the stand-ins, with an injected clock: every message is stored, the firm gets
 * at most the hour's budget and a digest, a person who uses the site's own form still gets
 * through at once, and ordinary traffic is never held. The retry job reads the same bounded
 * page whatever the backlog. The networks' shares of the budget have files of their own
 * (network-share-day, wider-network-share), so that Vitest's workers run them side by side.
 */
import { describe, expect, it } from 'vitest';
import { STAMP_FIELD } from '@site/core/contract';
import { DIGEST_TEXT } from '@site/core/content/digest';
import type { StoredMessage } from '@site/core/table';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { messageMaker } from '@site/testing/stored-messages';
import { createRetryJob } from '../src/retry/retry';
import { COUNT_CAP } from '../src/store/store';
import { useLocalAws } from './support/contact-stack';
import { sendUntilStored } from './support/resend';
import { BUDGETS, HOUR, stampFor, waveHandler } from './support/wave';

/** What a bot sends: one text with a link, no stamp, from its own address. */
const spam = (n: number) => ({
  ...ownMessage(),
  name: `Bot ${n}`,
  message: 'Cheap SEO services, first page of Google guaranteed: https://seo-deals.example/offer',
});

/**
 * `count` addresses on networks of their own: half IPv4, each in a /16 of its own, half IPv6,
 * each in a /48 of its own within 25 /32s (a wave from fewer networks is refused by the
 * per-visitor limit and held by the networks' shares of the mail budget).
 */
function addresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `${11 + ((i >> 9) & 127)}.${(i >> 1) & 255}.7.${i & 255}`
      : `2001:${(0xdb8 + (i % 25)).toString(16)}:${(i >> 1).toString(16)}::1`,
  );
}

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
          const stamp = await stampFor(stack, '192.0.2.77', new Date(clock.now.getTime() - 60_000));
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

describe('near-copies from 500 addresses', () => {
  const stack = useLocalAws();

  it('are held after the first few, each near-copy a word or a look-alike letter away from the others', { timeout: 300_000 }, async () => {
    const start = Date.parse('2026-11-25T08:00:00Z');
    const clock = { now: new Date(start) };
    const handler = waveHandler(stack, clock);
    const senders = addresses(500);
    const words =
      'Geachte ondernemer, wij helpen uw bedrijf aan meer klanten via social media en gerichte advertenties. Plan vandaag nog een gratis adviesgesprek met een van onze specialisten.'.split(
        ' ',
      );
    // No stamp and no link: what a careful wave sends, under the suspect score until its text is recognised.
    const nearCopy = (n: number) => {
      const changed = [...words];
      changed[n % words.length] = n % 3 === 0 ? `${changed[n % words.length]} ${['echt', 'snel', 'nu'][n % 3]}` : `woord${n}`;
      return n % 2 === 0 ? changed.join(' ').replace('a', '\u0430') : changed.join(' ');
    };
    for (let n = 0; n < senders.length; n += 20) {
      clock.now = new Date(start + n * 60_000);
      const answers = await Promise.all(
        senders
          .slice(n, n + 20)
          .map((viewer, k) =>
            handler(contactEvent({ body: { ...ownMessage(), name: `Afzender ${n + k}`, message: nearCopy(n + k) }, viewer })),
          ),
      );
      expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
    }
    const messages = await stack.aws.messages();
    expect(messages).toHaveLength(500);
    const emailed = messages.filter((message) => message.status === 'emailed');
    // Up to two senders per band pass before a band is full; now and then a near-copy whose four bands all hold a changed
    // word pair starts bands of its own (about 1 in 100 here): a few, never the wave.
    expect(emailed.length).toBeLessThanOrEqual(10);
    const held = messages.filter((message) => message.status === 'held');
    expect(held).toHaveLength(500 - emailed.length);
    expect(held.every((message) => message.heldFor === 'suspect' && message.signals?.includes('repeatedText'))).toBe(true);
  });
});

describe('ordinary traffic', () => {
  const stack = useLocalAws();

  it('100 messages over 30 days: 100 e-mails, none held', { timeout: 120_000 }, async () => {
    const start = Date.parse('2026-10-01T08:00:00Z');
    const clock = { now: new Date(start) };
    const handler = waveHandler(stack, clock);
    for (let i = 0; i < 100; i += 1) {
      clock.now = new Date(start + i * 7.2 * HOUR);
      const viewer = '192.0.2.10';
      const body =
        i % 2 === 0
          ? ownMessage()
          : { ...ownMessage(), [STAMP_FIELD]: await stampFor(stack, viewer, new Date(clock.now.getTime() - 120_000)) };
      expect((await handler(contactEvent({ body, viewer }))).statusCode).toBe(200);
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
          Array.from({ length: 25 }, () => sendUntilStored(handler, contactEvent({ body: ownMessage(), viewer: senders[sent++] }))),
        );
        expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
      }
      const messages = await stack.aws.messages();
      // Not held is e-mailed at once, or (when SES answered too late on a busy machine) by the retry job.
      const emailedIn = (hour: number) =>
        messages.filter((message) => message.status !== 'held' && new Date(message.receivedAt).getUTCHours() === hour).length;
      expect([emailedIn(0), emailedIn(1), emailedIn(2)]).toEqual([7, 7, 2]);
      const held = messages.filter((message) => message.status === 'held');
      expect(held).toHaveLength(75 - 16);
      expect(new Set(held.map((message) => message.heldFor))).toEqual(new Set(['budget']));
      expect((await stack.aws.sentEmails()).length).toBeLessThanOrEqual(16);

      // The next day has a budget of its own.
      clock.now = new Date(start + 24 * HOUR);
      const nextDay = answer(await sendUntilStored(handler, contactEvent({ body: ownMessage(), viewer: senders[sent++] })));
      expect(nextDay.statusCode).toBe(200);
      expect(await stack.aws.message(nextDay.json.id!)).not.toMatchObject({ status: 'held' });
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
