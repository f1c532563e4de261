/**
 * One network's share of the day's mail budget, with the deploy's default budgets and an
 * injected clock: an address that posts clean stamped messages all day is e-mailed its share
 * and no more, and ordinary visitors from other networks are e-mailed at once all day. A file
 * of its own: the longest simulation, so a second Vitest worker runs the others beside it.
 */
import { describe, expect, it } from 'vitest';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { networkShare } from '../src/spam/mail-budget';
import { useLocalAws } from './support/contact-stack';
import { BUDGETS, HOUR, MINUTE, cleanPost, waveHandler } from './support/wave';

describe('the mail budget shared out among networks', () => {
  const stack = useLocalAws();

  it(
    'one address posting clean stamped messages all day leaves room for 30 ordinary visitors from other networks, each e-mailed at once',
    // 750 posts, each with a stamp solved: minutes on a busy machine.
    { timeout: 900_000 },
    async () => {
      const start = Date.parse('2026-11-25T00:00:00Z');
      const clock = { now: new Date(start) };
      const handler = waveHandler(stack, clock);
      const spammer = '198.51.100.7';
      const visitors: { viewer: string; at: number; stamped: boolean }[] = Array.from({ length: 30 }, (_, i) => ({
        viewer: i % 3 === 2 ? `2a02:a4${(i % 10).toString(16)}:${i.toString(16)}::${i + 1}` : `${77 + i}.${160 + i}.${i * 7}.${i + 10}`,
        // Through the whole day, the first visitor after the spammer's first hour.
        at: start + 70 * MINUTE + i * 45 * MINUTE,
        stamped: i % 2 === 0,
      }));
      let next = 0;
      let spam = 0;
      // The spammer: as fast as the visitor limit lets one address (5 every 10 minutes), for 24 hours.
      for (let at = start; at < start + 24 * HOUR; at += 2 * MINUTE) {
        clock.now = new Date(at);
        expect((await handler(await cleanPost(stack, spammer, clock.now, `Promo ${spam++}`))).statusCode).toBe(200);
        while (next < visitors.length && visitors[next]!.at <= at + MINUTE) {
          const visitor = visitors[next++]!;
          clock.now = new Date(visitor.at);
          const event = visitor.stamped
            ? await cleanPost(stack, visitor.viewer, clock.now, `Bezoeker ${next}`)
            : contactEvent({ body: ownMessage({ name: `Bezoeker ${next}` }), viewer: visitor.viewer });
          const sent = answer(await handler(event));
          expect(sent.statusCode).toBe(200);
          expect(await stack.aws.message(sent.json.id!), `visitor ${next}`).toMatchObject({ status: 'emailed' });
        }
      }
      expect(next).toBe(30);
      const messages = await stack.aws.messages();
      const fromSpammer = messages.filter((message) => message.name.startsWith('Promo'));
      expect(fromSpammer).toHaveLength(spam);
      // Its network's share of the day, no more; the rest stored and held for the digest.
      const share = networkShare(BUDGETS, 'network');
      expect(fromSpammer.filter((message) => message.status === 'emailed')).toHaveLength(share.perDay);
      expect(fromSpammer.filter((message) => message.status === 'held' && message.heldFor === 'budget')).toHaveLength(spam - share.perDay);
      expect(await stack.aws.sentEmails()).toHaveLength(share.perDay + 30);
    },
  );
});
