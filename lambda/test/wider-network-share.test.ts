/**
 * A wider network's share of the hour's mail budget, with the deploy's default budgets and an
 * injected clock: a thousand clean posts from one /16 are all stored and e-mailed up to the
 * /16's share, and a person elsewhere is e-mailed at once after them. A file of its own, so a
 * second Vitest worker runs it beside the other simulations.
 */
import { describe, expect, it } from 'vitest';
import { answer } from '@site/testing/api-events';
import { networkShare } from '../src/spam/mail-budget';
import { useLocalAws } from './support/contact-stack';
import { sendUntilStored } from './support/resend';
import { BUDGETS, HOUR, MINUTE, cleanPost, waveHandler } from './support/wave';

describe('the mail budget shared out among networks', () => {
  const stack = useLocalAws();

  it(
    'a thousand clean posts from one /16 in an hour: e-mailed up to its share, all stored; the next person elsewhere e-mailed at once',
    { timeout: 600_000 },
    async () => {
      const start = Date.parse('2026-11-26T10:00:00Z');
      const clock = { now: new Date(start) };
      const handler = waveHandler(stack, clock);
      // 250 /24s of one /16, four addresses each.
      const viewers = Array.from({ length: 1000 }, (_, i) => `100.70.${i >> 2}.${(i & 3) + 1}`);
      for (let batch = 0; batch < viewers.length; batch += 20) {
        clock.now = new Date(start + (batch / viewers.length) * (HOUR - MINUTE));
        const events = await Promise.all(
          viewers.slice(batch, batch + 20).map((viewer, i) => cleanPost(stack, viewer, clock.now, `Kantoor ${batch + i}`)),
        );
        const answers = await Promise.all(events.map((event) => sendUntilStored(handler, event)));
        expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
      }
      const messages = (await stack.aws.messages()).filter((message) => message.name.startsWith('Kantoor'));
      expect(messages).toHaveLength(1000);
      const wider = networkShare(BUDGETS, 'wider');
      expect(messages.filter((message) => message.status === 'emailed')).toHaveLength(wider.perHour);
      expect(messages.filter((message) => message.status === 'held' && message.heldFor === 'budget')).toHaveLength(1000 - wider.perHour);

      await stack.aws.clearEmails();
      const person = answer(await handler(await cleanPost(stack, '192.0.2.99', clock.now, 'Echte Bezoeker')));
      expect(await stack.aws.message(person.json.id!)).toMatchObject({ status: 'emailed', score: 0 });
      expect((await stack.aws.sentEmails()).map((email) => email.subject)).toEqual([expect.stringContaining('Echte Bezoeker')]);
    },
  );
});
