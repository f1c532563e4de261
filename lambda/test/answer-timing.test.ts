/**
 * Held and e-mailed answer alike in time: a spammer timing the answers cannot see the moment
 * the budget is spent. On virtual time: SES's latency is drawn from a skewed distribution and
 * added to a virtual clock as each send passes, the handler's waits add to the same clock, and
 * nothing else moves it, so the distributions compared are the handler's own, free of this
 * host's load.
 */
import { describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD } from '@site/core/contract';
import { contactEvent, ownMessage } from '@site/testing/api-events';
import { createContactHandler } from '../src/contact/contact-handler';
import { FIRST_DELIVERY_MS, type TimingClock } from '../src/contact/answer-timing';
import { useLocalAws } from './support/contact-stack';

/** A small deterministic generator (mulberry32), so each run draws the same numbers. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** The largest gap between the two empirical distributions (Kolmogorov–Smirnov's statistic). */
function distance(a: readonly number[], b: readonly number[]): number {
  const points = [...a, ...b].sort((x, y) => x - y);
  const below = (values: readonly number[], x: number) => values.filter((value) => value <= x).length / values.length;
  return Math.max(...points.map((x) => Math.abs(below(a, x) - below(b, x))));
}

describe('held and e-mailed answers', () => {
  const stack = useLocalAws();

  it(
    'take alike in time, within the hour that spends the budget: a spammer cannot tell when it ran out',
    { timeout: 120_000 },
    async () => {
      let virtual = 0;
      const latency = seeded(51);
      // SES from Lambda: mostly 60–150 ms, with a long tail.
      const sesLatency = () => 60 + 90 * latency() + (latency() < 0.1 ? 400 * latency() : 0);
      const timing: TimingClock = {
        now: () => virtual,
        sleep: (ms) => {
          virtual += ms;
          return Promise.resolve();
        },
        random: seeded(7),
      };
      const clients = stack.aws.clients;
      clients.ses.middlewareStack.add(
        (next) => async (args) => {
          const result = await next(args);
          virtual += sesLatency();
          return result;
        },
        { step: 'initialize', name: 'virtual-latency' },
      );
      const start = Date.parse('2026-11-28T09:00:00Z');
      const budgets = { ordinary: { perHour: 60, perDay: 60 }, site: { perHour: 60, perDay: 60 } };
      const handler = createContactHandler({
        config: { ...stack.aws.config, mailBudgets: budgets },
        clients,
        clock: () => new Date(start),
        timing,
      });
      const took: { status: string; ms: number }[] = [];
      for (let i = 0; i < 200; i += 1) {
        const before = virtual;
        // Each from a network of its own, so only the hour's budget decides.
        const result = await handler(contactEvent({ body: ownMessage(), viewer: `${20 + (i >> 8)}.${i & 255}.1.1` }));
        expect(result.statusCode).toBe(200);
        const { id } = JSON.parse(result.body!) as { id: string };
        took.push({ status: (await stack.aws.message(id))!.status, ms: virtual - before });
      }
      clients.ses.middlewareStack.remove('virtual-latency');
      const emailed = took.filter((one) => one.status === 'emailed').map((one) => one.ms);
      const held = took.filter((one) => one.status === 'held').map((one) => one.ms);
      expect([emailed.length, held.length]).toEqual([60, 140]);
      expect(held.every((ms) => ms > 0)).toBe(true);
      for (const q of [0.1, 0.5, 0.9]) {
        expect(quantile(held, q) / quantile(emailed, q), `quantile ${q}`).toBeGreaterThan(0.8);
        expect(quantile(held, q) / quantile(emailed, q), `quantile ${q}`).toBeLessThan(1.25);
      }
      expect(distance(held, emailed)).toBeLessThan(0.2);
    },
  );

  it(`waits ${FIRST_DELIVERY_MS} ms before the container's first delivery, not nothing`, async () => {
    let virtual = 0;
    const timing: TimingClock = { now: () => virtual, sleep: (ms) => Promise.resolve(void (virtual += ms)), random: () => 0.5 };
    const handler = createContactHandler({
      config: { ...stack.aws.config, mailBudgets: { ordinary: { perHour: 1, perDay: 1 }, site: { perHour: 1, perDay: 1 } } },
      clients: stack.aws.clients,
      clock: () => new Date('2026-11-29T09:00:00Z'),
      timing,
    });
    // A wave's first message, suspect (the hidden field filled): held before anything was e-mailed.
    expect((await handler(contactEvent({ body: { ...ownMessage(), [HONEYPOT_FIELD]: 'https://seo.example' } }))).statusCode).toBe(200);
    expect(virtual).toBe(FIRST_DELIVERY_MS);
  });
});
