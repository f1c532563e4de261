/**
 * What each step of the contact path counts, read from the metric lines the functions write
 * (CloudWatch Embedded Metric Format, checked against its specification as CloudWatch Logs
 * would read it): the contact function per request, the retry job per run, the delivery-event
 * consumer per event. Together the tests below take every path, and the last one checks that
 * the functions wrote every row of core/src/metric-names.ts, by every value of its dimension,
 * and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '@site/core/contract';
import { METRIC_NAMESPACE, METRIC_NAMES, PATH_METRICS, STAGE_DIMENSION, type MetricSpec } from '@site/core/metric-names';
import { emailKey, type StoredMessage } from '@site/core/table';
import { createRetryHandler } from '../src/retry/retry';
import { ofMessage, useDeliveryStack } from './support/delivery-stack';
import { readEmfLine } from '@site/testing/emf';
import { answer, contactEvent, ownMessage, VALID_BODY } from '@site/testing/api-events';
import { HONEYPOT_FIELD } from '@site/core/contract';
import { createContactHandler } from '../src/contact/contact-handler';
import { checkMarker, checkMarkerKey } from '../src/outside-check/check-marker';
import { createOutsideCheckHandler } from '../src/outside-check/outside-check-handler';
import { OUTSIDE_CHECK_HEADER } from '@site/core/outside-check';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';

const stack = useDeliveryStack();

/** Every metric (and dimension value) any test saw written, for the last test. */
const seen = new Set<string>();
const key = (metric: string, by?: string) => (by === undefined ? metric : `${metric} ${by}`);

/** The metrics written since the last call, as `Name` or `Name value-of-its-dimension`, each with its summed value. */
function counted(): Record<string, number> {
  const lines = stack.logs.metricLines();
  stack.logs.clear();
  const totals: Record<string, number> = {};
  for (const point of lines.flatMap(readEmfLine)) {
    expect(point.namespace).toBe(METRIC_NAMESPACE);
    expect(point.dimensions[STAGE_DIMENSION]).toBe(stack.aws.config.stage);
    const others = Object.keys(point.dimensions).filter((name) => name !== STAGE_DIMENSION);
    // Nothing a visitor sent is ever a dimension: only the row's own, with one of its values.
    const spec: MetricSpec = PATH_METRICS[point.metric as keyof typeof PATH_METRICS];
    expect(others).toEqual(spec.dimension ? [spec.dimension.name] : []);
    const by = others.length > 0 ? point.dimensions[others[0]!] : undefined;
    if (by !== undefined) expect(spec.dimension!.values).toContain(by);
    const name = key(point.metric, by);
    seen.add(name);
    totals[name] = (totals[name] ?? 0) + point.values.reduce((sum, value) => sum + value, 0);
  }
  return totals;
}

const post = async (parts: Parameters<typeof contactEvent>[0]) => answer(await stack.handler(contactEvent(parts))).statusCode;

describe('the contact function counts each request once, by how it ended', () => {
  it('received, stored and e-mailed for a message that went out, in one line', async () => {
    counted();
    expect(await post({ body: ownMessage() })).toBe(200);
    expect(stack.logs.metricLines()).toHaveLength(1);
    expect(counted()).toEqual({ Received: 1, Stored: 1, Emailed: 1 });
  });

  it('received and refused by reason: invalid, too large, from another site, over the visitor’s limit', async () => {
    expect(await post({ body: { ...VALID_BODY, email: 'geen adres' } })).toBe(400);
    expect(await post({ headers: { 'content-type': 'text/plain' }, body: 'hallo' })).toBe(415);
    expect(await post({ method: 'GET' })).toBe(405);
    expect(counted()).toEqual({ Received: 3, 'Refused invalid': 3 });

    expect(await post({ body: { ...VALID_BODY, message: 'x'.repeat(40 * 1024) } })).toBe(413);
    expect(counted()).toEqual({ Received: 1, 'Refused too-large': 1 });

    const otherSite = { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect(await post({ headers: otherSite, body: ownMessage() })).toBe(403);
    expect(counted()).toEqual({ Received: 1, 'Refused cross-site': 1 });

    const viewer = '198.51.100.77';
    const limit = stack.aws.config.visitorLimit.messages;
    for (let sent = 0; sent < limit; sent += 1) expect(await post({ body: ownMessage(), viewer })).toBe(200);
    counted();
    expect(await post({ body: ownMessage(), viewer })).toBe(429);
    expect(counted()).toEqual({ Received: 1, 'Refused visitor-limit': 1 });
  });

  it('a repeated message and a reused key with another body as received, the latter refused as invalid', async () => {
    const headers = { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: randomUUID() };
    expect(await post({ headers, body: VALID_BODY })).toBe(200);
    counted();
    expect(await post({ headers, body: VALID_BODY })).toBe(200);
    expect(counted()).toEqual({ Received: 1 });
    expect(await post({ headers, body: { ...VALID_BODY, message: 'Iets anders' } })).toBe(422);
    expect(counted()).toEqual({ Received: 1, 'Refused invalid': 1 });
  });

  it('a call without the origin secret as that alone: no post from the site, whether it went around CloudFront or CloudFront sent a wrong secret', async () => {
    counted();
    expect(await post({ body: ownMessage(), direct: true })).toBe(403);
    // As CloudFront passes a post on with a secret the function does not hold.
    const wrongSecret = {
      'content-type': 'application/json',
      'x-origin-verify': 'a'.repeat(64),
      'cloudfront-viewer-address': '192.0.2.9:443',
    };
    expect(await post({ body: ownMessage(), headers: wrongSecret, direct: true })).toBe(403);
    expect(counted()).toEqual({ NotThroughCloudFront: 2 });
  });

  it('received and stored, not yet e-mailed, when SES refuses the first attempt', async () => {
    await stack.aws.stopSes();
    try {
      expect(await post({ body: ownMessage() })).toBe(200);
    } finally {
      await stack.aws.startSes();
    }
    expect(counted()).toEqual({ Received: 1, Stored: 1 });
  });

  it('received, stored and held by why: suspect, or past the mail budget', async () => {
    expect(await post({ body: ownMessage({ [HONEYPOT_FIELD]: 'https://spam.example' }) })).toBe(200);
    expect(counted()).toEqual({ Received: 1, Stored: 1, 'Held suspect': 1 });
    const oneAnHour = createContactHandler({
      config: { ...stack.aws.config, mailBudgets: { ordinary: { perHour: 1, perDay: 1 }, site: { perHour: 1, perDay: 1 } } },
      clients: stack.aws.clients,
      clock: () => new Date('2026-01-05T10:00:00Z'),
    });
    for (const expected of [200, 200]) expect(answer(await oneAnHour(contactEvent({ body: ownMessage() }))).statusCode).toBe(expected);
    expect(counted()).toEqual({ Received: 2, Stored: 2, Emailed: 1, 'Held budget': 1 });
  });
});

describe('the retry job counts its run', () => {
  /** The retry job as the schedule runs it, `minutes` from now (past the grace period and the first backoff). */
  const runAt = (minutes: number) =>
    createRetryHandler({
      config: stack.aws.config,
      clients: stack.aws.clientsOf('retry-undelivered'),
      clock: () => new Date(Date.now() + minutes * 60_000),
    })();

  it('its attempts, the e-mails SES took, and the backlog and undelivered messages it found (0 too: they are levels)', async () => {
    const summary = await runAt(10);
    expect(summary).toMatchObject({ delivered: 1, pending: 0 });
    expect(counted()).toEqual({ Retried: 1, Emailed: 1, RetryBacklog: 0, NotDelivered: summary.notDelivered, Digested: summary.digested });
    // The held messages above went into the firm's digest.
    expect(summary.digested).toBe(2);
  });

  it('the backlog it leaves and a message given up after the last attempt', async () => {
    const receivedAt = new Date(Date.now() - 12 * 3600_000).toISOString();
    const lastTry: StoredMessage = {
      ...VALID_BODY,
      emailKey: emailKey(VALID_BODY.email),
      id: `01JD${randomUUID().replace(/-/g, '').slice(0, 22).toUpperCase()}`,
      receivedAt,
      lastAttemptAt: receivedAt,
      status: 'received',
      attempts: 7,
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    };
    await stack.aws.put({ ...lastTry });
    await stack.aws.put({ ...lastTry, id: `${lastTry.id.slice(0, -1)}Z`, attempts: 1, lastAttemptAt: new Date().toISOString() });
    await stack.aws.stopSes();
    try {
      await runAt(0);
    } finally {
      await stack.aws.startSes();
    }
    expect(counted()).toMatchObject({ Retried: 1, GivenUp: 1, RetryBacklog: 1 });
  });

  it('a digest that could not be sent, and still the backlog and undelivered messages it found', async () => {
    expect(await post({ body: ownMessage({ [HONEYPOT_FIELD]: 'https://spam.example' }) })).toBe(200);
    counted();
    await stack.aws.stopSes();
    try {
      // Two hours on: the last digest (above) is more than an hour old, so this one is due.
      expect(await runAt(120)).toMatchObject({ digested: 0, digestError: expect.any(String) });
    } finally {
      await stack.aws.startSes();
    }
    expect(counted()).toMatchObject({ DigestFailed: 1, RetryBacklog: expect.any(Number), NotDelivered: expect.any(Number) });
  });
});

describe('the delivery-event consumer counts each outcome it records, by what SES reported', () => {
  it('delayed, delivered, complained and bounced on one message; a repeated event counts nothing', async () => {
    const message = await stack.emailedMessage();
    counted();
    await stack.feed('Email Delivery Delayed', ofMessage(message));
    await stack.feed('Email Delivered', ofMessage(message));
    await stack.feed('Email Delivered', ofMessage(message));
    await stack.feed('Email Complaint Received', ofMessage(message));
    await stack.feed('Email Bounced', ofMessage(message));
    expect(counted()).toEqual({
      'DeliveryOutcomes delayed': 1,
      'DeliveryOutcomes delivered': 1,
      'DeliveryOutcomes complained': 1,
      'DeliveryOutcomes bounced': 1,
    });
  });

  it('rejected; an event for no message of ours counts nothing', async () => {
    const message = await stack.emailedMessage();
    counted();
    await stack.feed('Email Rejected', ofMessage(message));
    await stack.feed('Email Delivered', { ...ofMessage(message), messageId: '01JDNOSUCHMESSAGE0000000000' });
    expect(counted()).toEqual({ 'DeliveryOutcomes rejected': 1 });
  });
});

describe('the outside check', () => {
  const marked = () => ({
    'content-type': 'application/json',
    [OUTSIDE_CHECK_HEADER]: checkMarker(checkMarkerKey(TEST_ORIGIN_SECRET), new Date()),
  });

  it('counts its post as CheckPosts alone: never received, stored, e-mailed or held, so no alarm on visitors’ messages moves', async () => {
    counted();
    expect(await post({ headers: marked(), body: ownMessage() })).toBe(200);
    expect(counted()).toEqual({ CheckPosts: 1 });
  });

  it('counts nothing for its post that could not be stored: its own run fails instead, not the visitors’ NotStored', async () => {
    counted();
    await stack.aws.stopDynamoDb();
    try {
      expect(await post({ headers: marked(), body: ownMessage() })).toBe(503);
    } finally {
      await stack.aws.startDynamoDb();
    }
    expect(counted()).toEqual({});
  });

  it('counts each run as OutsideCheck: 0 for a run that failed', async () => {
    counted();
    const run = createOutsideCheckHandler({
      config: { siteUrl: 'http://127.0.0.1:9', stage: stack.aws.config.stage, markerKey: checkMarkerKey(TEST_ORIGIN_SECRET) },
      timeoutMs: 2_000,
    });
    expect((await run()).passed).toBe(false);
    expect(counted()).toEqual({ OutsideCheck: 0 });
  });
});

describe('a message that could not be stored', () => {
  it('counts as received and not stored', async () => {
    await stack.aws.stopDynamoDb();
    try {
      expect(await post({ body: ownMessage() })).toBe(503);
    } finally {
      await stack.aws.startDynamoDb();
    }
    expect(counted()).toEqual({ Received: 1, NotStored: 1 });
  });
});

afterAll(() => {
  // Run last, after every path above: the rows the functions wrote are the table's rows.
  const defined = METRIC_NAMES.flatMap((metric) => {
    const spec: MetricSpec = PATH_METRICS[metric];
    return spec.dimension ? spec.dimension.values.map((value) => key(metric, value)) : [key(metric)];
  });
  expect([...seen].sort()).toEqual(defined.sort());
});
