/**
 * A message that was not stored costs the visitor nothing: a 503 (the store failed, or a
 * call timed out) leaves the allowance as it was, also when the counting write lands after
 * the SDK gave up on it, and a retry of the same message counts once. The handler runs
 * against the DynamoDB stand-in with its own client, into which the tests put the faults of
 * a stalled DynamoDB: a call that fails before it is sent, and a call that is applied but
 * whose answer never comes back (the SDK's TimeoutError after the write landed).
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '@site/core/contract';
import { emulatorConnections } from '@site/emulators/connections';
import { TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import { type FunctionAws, useLocalAws } from './support/contact-stack';
import { createAwsClients, type AwsClients } from '../src/shared/aws';
import type { ContactHandler } from '../src/contact/contact-answer';
import { createContactHandler } from '../src/contact/contact-handler';
import { SETTLE_MS } from '../src/spam/visitor-counter';
import { secondsLeft, windowAt } from '../src/spam/visitor-limit';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';

/** Which DynamoDB call a fault hits, by its request; and whether the call is sent before it fails. */
interface Fault {
  call: 'count' | 'release' | 'store message';
  /**
   * 'lost': never sent. 'late': applied by DynamoDB, but the SDK gives up before the answer.
   * 'held': the SDK gives up at once, and DynamoDB applies it when the test lets it land.
   */
  kind: 'lost' | 'late' | 'held';
}

const CALLS: Record<Fault['call'], (request: string) => boolean> = {
  count: (request) => request.includes('visitor#') && request.includes('ADD #messageCount :one'),
  release: (request) => request.includes('visitor#') && request.includes('REMOVE #entry'),
  'store message': (request) => request.includes('"receivedAt"') && request.includes('attribute_not_exists(id)'),
};

const timeout = () => Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });

/** Calls a 'held' fault keeps back, to be applied later. */
const held: (() => Promise<unknown>)[] = [];
const landHeld = () => Promise.all(held.splice(0).map((land) => land()));

/** Clients whose DynamoDB calls meet each planned fault once, in turn. */
function faultyClients(aws: FunctionAws, faults: Fault[]): AwsClients {
  const clients = createAwsClients(emulatorConnections(aws.urls, 'send-contact-email'));
  clients.documents.middlewareStack.add(
    (next) => async (args) => {
      const request = JSON.stringify(args.input);
      const index = faults.findIndex((fault) => CALLS[fault.call](request));
      if (index < 0) return next(args);
      const [fault] = faults.splice(index, 1);
      if (fault!.kind === 'late') await next(args);
      if (fault!.kind === 'held') held.push(() => next(args));
      throw timeout();
    },
    { step: 'initialize', name: 'stalledDynamoDb' },
  );
  return clients;
}

const stack = useLocalAws();
let faults: Fault[];
let handler: ContactHandler;
/** The handler's clock: inside one window, moved on by the tests. */
let now: Date;

beforeEach(() => {
  faults = [];
  // A minute into a window of a day no other test uses, so moving on by SETTLE_MS stays inside it.
  const start = windowAt(new Date(Date.UTC(2031, 0, 1 + Math.floor(Math.random() * 3000))), TEST_VISITOR_LIMIT.windowSeconds);
  now = new Date((start.endsAt - TEST_VISITOR_LIMIT.windowSeconds + 60) * 1000);
  handler = createContactHandler({ config: stack.aws.config, clients: faultyClients(stack.aws, faults), clock: () => now });
  stack.logs.clear();
});

let visitors = 0;
const newViewer = () => `203.0.113.${(visitors += 1)}`;

/** A message of its own from `viewer`, with `key` as its Idempotency-Key if given. */
async function post(viewer: string, key?: string) {
  const headers = { 'content-type': 'application/json', ...(key && { [IDEMPOTENCY_HEADER]: key }) };
  return answer(await handler(contactEvent({ viewer, headers, body: { ...VALID_BODY, message: `Bericht ${key ?? randomUUID()}` } })));
}

/** The statuses of `count` new messages from `viewer`. */
async function statuses(viewer: string, count: number) {
  const result = [];
  for (let i = 0; i < count; i += 1) result.push((await post(viewer)).statusCode);
  return result;
}

const full = (accepted: number) => [...Array<number>(accepted).fill(200), 429];

describe('a 503', () => {
  it('when the store failed, leaves the whole allowance: its place was given back at once', async () => {
    const viewer = newViewer();
    faults.push({ call: 'store message', kind: 'lost' });
    const failed = await post(viewer);
    expect(failed.statusCode).toBe(503);
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'store_failed', error: 'TimeoutError' });
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages + 1)).toEqual(full(TEST_VISITOR_LIMIT.messages));
  });

  it('when the count was applied but its answer never came (the SDK gave up), leaves the whole allowance: the request takes it back', async () => {
    const viewer = newViewer();
    faults.push({ call: 'count', kind: 'late' });
    expect((await post(viewer)).statusCode).toBe(503);
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'store_failed', error: 'TimeoutError' });
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages + 1)).toEqual(full(TEST_VISITOR_LIMIT.messages));
  });

  it('when the count is applied only after the visitor got the 503 (after its release), costs nothing once it settles: in seconds, not at the window’s end', async () => {
    const viewer = newViewer();
    faults.push({ call: 'count', kind: 'held' });
    expect((await post(viewer)).statusCode).toBe(503);
    await landHeld();
    // The late write holds a place for now...
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(full(TEST_VISITOR_LIMIT.messages - 1));
    const refused = await post(viewer);
    expect(Number(refused.headers['Retry-After'])).toBe(SETTLE_MS / 1000);
    // ...until no request can still store its message: then it is given back.
    now = new Date(now.getTime() + SETTLE_MS);
    expect(await statuses(viewer, 2)).toEqual(full(1));
  });

  it('when the store failed and its release did too (DynamoDB still stalled), costs nothing once it settles', async () => {
    const viewer = newViewer();
    faults.push({ call: 'store message', kind: 'lost' }, { call: 'release', kind: 'lost' });
    expect((await post(viewer)).statusCode).toBe(503);
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'store_failed', error: 'TimeoutError; release: TimeoutError' });
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(full(TEST_VISITOR_LIMIT.messages - 1));
    now = new Date(now.getTime() + SETTLE_MS);
    expect(await statuses(viewer, 2)).toEqual(full(1));
  });

  it('when its release was applied but unanswered, leaves the whole allowance', async () => {
    const viewer = newViewer();
    faults.push({ call: 'store message', kind: 'lost' }, { call: 'release', kind: 'late' });
    expect((await post(viewer)).statusCode).toBe(503);
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages + 1)).toEqual(full(TEST_VISITOR_LIMIT.messages));
  });
});

describe('Retry-After at the limit', () => {
  it('names the window’s end when every message was stored, and the same moment when asked again later', async () => {
    const viewer = newViewer();
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(Array<number>(TEST_VISITOR_LIMIT.messages).fill(200));
    const window = windowAt(now, TEST_VISITOR_LIMIT.windowSeconds);
    const first = await post(viewer);
    expect(first.statusCode).toBe(429);
    // Stored messages free nothing before the window ends: no earlier moment is named for them.
    expect(Number(first.headers['Retry-After'])).toBe(secondsLeft(window, now));
    now = new Date(now.getTime() + 30_000);
    const later = await post(viewer);
    expect(Number(later.headers['Retry-After'])).toBe(Number(first.headers['Retry-After']) - 30);
    // Past the time an entry could settle, still the window's end: nothing was freed, nothing will be before it.
    now = new Date(now.getTime() + SETTLE_MS);
    expect(Number((await post(viewer)).headers['Retry-After'])).toBe(secondsLeft(window, now));
  });

  it('names when a message that was not stored settles, and a place is free then', async () => {
    const viewer = newViewer();
    faults.push({ call: 'store message', kind: 'lost' }, { call: 'release', kind: 'lost' });
    expect((await post(viewer)).statusCode).toBe(503);
    now = new Date(now.getTime() + 5_000);
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(full(TEST_VISITOR_LIMIT.messages - 1));
    const refused = await post(viewer);
    const retryAfter = Number(refused.headers['Retry-After']);
    expect(retryAfter).toBe(SETTLE_MS / 1000 - 5);
    now = new Date(now.getTime() + retryAfter * 1000);
    expect((await post(viewer)).statusCode).toBe(200);
  });

  it('never names a moment past the window, so the limit page’s longest wait (one window) is always true', async () => {
    const viewer = newViewer();
    // The last seconds of the window: a message not stored would settle after it ends.
    const window = windowAt(now, TEST_VISITOR_LIMIT.windowSeconds);
    now = new Date((window.endsAt - 10) * 1000);
    faults.push({ call: 'store message', kind: 'lost' }, { call: 'release', kind: 'lost' });
    expect((await post(viewer)).statusCode).toBe(503);
    await statuses(viewer, TEST_VISITOR_LIMIT.messages);
    const retryAfter = Number((await post(viewer)).headers['Retry-After']);
    expect(retryAfter).toBe(10);
    expect(retryAfter).toBeLessThanOrEqual(TEST_VISITOR_LIMIT.windowSeconds);
  });
});

describe('a retry of the same message after a 503', () => {
  it('is accepted, and the message counts once however often it was tried', async () => {
    const viewer = newViewer();
    const key = randomUUID();
    faults.push({ call: 'count', kind: 'late' }, { call: 'store message', kind: 'lost' });
    expect((await post(viewer, key)).statusCode).toBe(503);
    expect((await post(viewer, key)).statusCode).toBe(503);
    const stored = await post(viewer, key);
    expect(stored.statusCode).toBe(200);
    expect(await stack.aws.message(stored.json.id!)).toMatchObject({ idempotencyKey: key, status: 'emailed' });
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(full(TEST_VISITOR_LIMIT.messages - 1));
  });
});

describe('a request that makes no message of its own', () => {
  it('costs nothing of the allowance: the same message sent again after it was stored, or another text under its key (422)', async () => {
    const viewer = newViewer();
    const key = randomUUID();
    const first = await post(viewer, key);
    expect(first.statusCode).toBe(200);
    const otherText = async () =>
      answer(
        await handler(
          contactEvent({
            viewer,
            headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key },
            body: { ...VALID_BODY, message: 'Een ander bericht onder dezelfde sleutel' },
          }),
        ),
      );
    for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) {
      expect(await post(viewer, key)).toMatchObject({ statusCode: 200, json: { id: first.json.id } });
      expect((await otherText()).statusCode).toBe(422);
    }
    expect(await statuses(viewer, TEST_VISITOR_LIMIT.messages)).toEqual(full(TEST_VISITOR_LIMIT.messages - 1));
  });
});
