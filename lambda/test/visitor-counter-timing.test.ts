/**
 * When the visitor's counter (visitor-counter.ts) frees a place, against dynalite: a message found stored costs the visitor until the window ends, also
 * when it is erased or tried again afterwards; the moment a refusal names is the earliest
 * one at which an entry not stored settles, and none when every message was stored; what
 * other requests of the same visitor do to the counter between two calls of one count (a
 * release, the counter gone, every freed place taken); and a release DynamoDB never answers,
 * which the visitor's 503 does not wait for.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { emulatorClientConfig, emulatorConnections } from '@site/emulators/connections';
import { createAwsClients } from '../src/shared/aws';
import { createContactHandler } from '../src/contact/contact-handler';
import { type MessageTable } from '../src/store/store';
import { countMessage, releaseMessage, SETTLE_MS, type CountResult, type Reservation } from '../src/spam/visitor-counter';
import { visitorCounterId, visitorHash, visitorHashKey, windowAt } from '../src/spam/visitor-limit';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useLocalAws } from './support/contact-stack';

const LIMIT = 5;
const WINDOW_SECONDS = 600;
const key = visitorHashKey(randomBytes(32).toString('base64url'));

const stack = useLocalAws();

let visitors = 0;
/** A minute into a window of its own, far enough in that SETTLE_MS later is the same window. */
function newVisitor() {
  visitors += 1;
  const start = Date.UTC(2032, 0, 1 + visitors) + 60_000;
  const window = windowAt(new Date(start), WINDOW_SECONDS);
  return { counterId: visitorCounterId(visitorHash(key, `198.51.100.${visitors}`), window), window, start };
}
type Visitor = ReturnType<typeof newVisitor>;

/** One message counted against the visitor's counter at `at` (epoch ms), through `table` (default: the plain one). */
function count(visitor: Visitor, at: number, messageId = ulid(at), table: MessageTable = stack.aws.table): Promise<CountResult> {
  return countMessage(table, { id: visitor.counterId, messageId, limit: LIMIT, expiresAt: visitor.window.endsAt, now: new Date(at) });
}

const counted = (result: CountResult): Reservation => (result.outcome === 'counted' ? result.reservation : expect.fail('expected counted'));

/** A full counter: LIMIT messages counted at `at`, stored (as the contact function stores them) when `stored`. */
async function fill(visitor: Visitor, at: number, stored: boolean) {
  const reservations = [];
  for (let i = 0; i < LIMIT; i += 1) {
    const reservation = counted(await count(visitor, at, ulid(at + i)));
    if (stored) await stack.aws.put({ id: reservation.messageId, status: 'received' });
    reservations.push(reservation);
  }
  return reservations;
}

const counterOf = async (visitor: Visitor) => (await stack.aws.items()).find((item) => item.id === visitor.counterId);

/**
 * The table through a client on which `before` runs before each call is sent: what another
 * request of the same visitor does to the counter in the meantime.
 */
function racedTable(before: (command: string, input: Record<string, any>) => Promise<void>): MessageTable {
  const { documents } = createAwsClients(emulatorConnections(stack.aws.urls, 'send-contact-email'));
  documents.middlewareStack.add(
    (next, context) => async (args) => {
      await before(context.commandName ?? '', args.input as Record<string, any>);
      return next(args);
    },
    { step: 'initialize', name: 'otherRequests' },
  );
  return { name: stack.aws.table.name, client: documents };
}

describe('a message found stored', () => {
  it('costs the visitor until the window ends, even after the firm erases it', async () => {
    const visitor = newVisitor();
    const [erased] = await fill(visitor, visitor.start, true);
    // The first refusal finds every message stored and marks their entries settled.
    expect(await count(visitor, visitor.start + 1000)).toEqual({ outcome: 'over', retryAt: undefined });
    await stack.aws.erase(erased!.messageId);

    // Long after any request could still store it: a settled entry is never looked up again.
    const later = visitor.start + 2 * SETTLE_MS;
    expect(await count(visitor, later)).toEqual({ outcome: 'over', retryAt: undefined });
    expect(await counterOf(visitor)).toMatchObject({ messageCount: LIMIT, [`message#${erased!.messageId}`]: 0 });
  });

  it('stays settled when a retry of it counts it again, so erasing it later frees nothing either', async () => {
    const visitor = newVisitor();
    const [retried] = await fill(visitor, visitor.start, true);
    await count(visitor, visitor.start + 1000);

    // A retry of the stored message (the same Idempotency-Key) costs nothing more, and leaves its entry settled.
    const retry = await count(visitor, visitor.start + 2000, retried!.messageId);
    expect(retry).toEqual({
      outcome: 'counted',
      reservation: { counterId: visitor.counterId, messageId: retried!.messageId, at: visitor.start + 2000, added: false },
    });
    expect(await counterOf(visitor)).toMatchObject({ messageCount: LIMIT, [`message#${retried!.messageId}`]: 0 });

    await stack.aws.erase(retried!.messageId);
    expect(await count(visitor, visitor.start + 2000 + 2 * SETTLE_MS)).toEqual({ outcome: 'over', retryAt: undefined });
  });
});

describe('the moment a refusal names', () => {
  it('is the earliest at which an entry whose message is not stored settles', async () => {
    const visitor = newVisitor();
    // Three messages not stored at the start, two ten seconds later (their requests failed, their releases too).
    for (let i = 0; i < 3; i += 1) counted(await count(visitor, visitor.start, ulid(visitor.start + i)));
    for (let i = 0; i < 2; i += 1) counted(await count(visitor, visitor.start + 10_000, ulid(visitor.start + 10_000 + i)));
    expect(await count(visitor, visitor.start + 20_000)).toEqual({ outcome: 'over', retryAt: visitor.start + SETTLE_MS });
    // And a place is free then.
    expect((await count(visitor, visitor.start + SETTLE_MS)).outcome).toBe('counted');
  });

  it('is none when every message was stored: no place frees before the window ends', async () => {
    const visitor = newVisitor();
    await fill(visitor, visitor.start, true);
    expect(await count(visitor, visitor.start + 1000)).toEqual({ outcome: 'over', retryAt: undefined });
  });
});

describe('counting while other requests of the visitor change the counter', () => {
  it('adds a retry’s entry afresh when the first try released it between the read and the refresh', async () => {
    const visitor = newVisitor();
    const messageId = ulid(visitor.start);
    const first = counted(await count(visitor, visitor.start, messageId));
    let released = false;
    // The first try's store failed: its release lands just before the retry refreshes the entry it read.
    const table = racedTable(async (command, input) => {
      if (command === 'UpdateItemCommand' && input.UpdateExpression === 'SET #entry = :to' && !released) {
        released = true;
        await releaseMessage(stack.aws.table, first);
      }
    });
    const retry = await count(visitor, visitor.start + 500, messageId, table);
    expect(released).toBe(true);
    // The retry holds the entry itself now, so it may give it back if its own store fails.
    expect(retry).toEqual({
      outcome: 'counted',
      reservation: { counterId: visitor.counterId, messageId, at: visitor.start + 500, added: true },
    });
    expect(await counterOf(visitor)).toMatchObject({ messageCount: 1, [`message#${messageId}`]: visitor.start + 500 });
  });

  it('counts the message when the full counter is gone by the time it is read (its window ended and TTL took it)', async () => {
    const visitor = newVisitor();
    await fill(visitor, visitor.start, true);
    let deleted = false;
    const table = racedTable(async (command, input) => {
      if (command === 'GetItemCommand' && input.Key?.id === visitor.counterId && !deleted) {
        deleted = true;
        await stack.aws.documents.send(new DeleteCommand({ TableName: stack.aws.table.name, Key: { id: visitor.counterId } }));
      }
    });
    const result = await count(visitor, visitor.start + 1000, undefined, table);
    expect(deleted).toBe(true);
    expect(result).toMatchObject({ outcome: 'counted', reservation: { added: true } });
    expect(await counterOf(visitor)).toMatchObject({ messageCount: 1 });
  });

  it('gives up after three rounds when other requests take every place it frees, so one request never spins', async () => {
    const visitor = newVisitor();
    const now = visitor.start + SETTLE_MS + 60_000;
    const messageId = ulid(now);
    let tries = 0;
    // Before each of this message's counting writes the counter is full again: entries of messages
    // never stored, old enough to settle, so each round frees every place and loses it again.
    const table = racedTable(async (command, input) => {
      if (command !== 'UpdateItemCommand' || input.ExpressionAttributeNames?.['#entry'] !== `message#${messageId}`) return;
      if (!String(input.UpdateExpression).includes('ADD #messageCount :one')) return;
      tries += 1;
      // Bounded, so a count that never stops would end (counted) rather than hang the test.
      if (tries > 10) return;
      const stale = Object.fromEntries(Array.from({ length: LIMIT }, (_, i) => [`message#${ulid(visitor.start + i)}`, visitor.start]));
      await stack.aws.put({ id: visitor.counterId, messageCount: LIMIT, expiresAt: visitor.window.endsAt, ...stale });
    });
    expect(await count(visitor, now, messageId, table)).toEqual({ outcome: 'over', retryAt: undefined });
    expect(tries).toBe(3);
  });
});

/** Everything a request sent, as text. */
async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * DynamoDB (dynalite behind a proxy) that takes the calls `stalls` picks and never answers
 * them, as a stalled endpoint does, and answers every other call as dynalite does.
 */
async function stallingDynamoDb(stalls: (body: string) => boolean) {
  let held = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (stalls(body)) {
        held += 1;
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answered = await fetch(stack.aws.urls.dynamodb, { method: request.method, headers, body });
      response.writeHead(answered.status, { 'content-type': answered.headers.get('content-type') ?? 'application/x-amz-json-1.0' });
      response.end(Buffer.from(await answered.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a release DynamoDB takes and never answers', () => {
  it('is given up after a second, so the visitor whose message was not stored gets the 503 without waiting on it', async () => {
    const dynamodb = await stallingDynamoDb((body) => body.includes('REMOVE #entry'));
    try {
      const { documents } = createAwsClients({
        ...emulatorConnections(stack.aws.urls, 'send-contact-email'),
        dynamodb: emulatorClientConfig(dynamodb.url, 'send-contact-email'),
      });
      // The message's store fails before it is sent; its place is then released, into the stall.
      documents.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'PutItemCommand' && JSON.stringify(args.input).includes('"receivedAt"')) {
            throw Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
          }
          return next(args);
        },
        { step: 'initialize', name: 'storeTimesOut' },
      );
      const handler = createContactHandler({ config: stack.aws.config, clients: { documents, ses: stack.aws.clients.ses } });
      stack.logs.clear();
      const started = Date.now();
      const response = answer(await handler(contactEvent({ viewer: '203.0.113.200', body: VALID_BODY })));
      const waited = Date.now() - started;
      expect(response.statusCode).toBe(503);
      expect(dynamodb.held()).toBe(1);
      expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'store_failed', error: 'TimeoutError; release: AbortError' });
      // Past the release's second, well short of the SDK's own request timeout (two seconds, tried twice).
      expect(waited).toBeGreaterThanOrEqual(1000);
      expect(waited).toBeLessThan(1900);
    } finally {
      await dynamodb.close();
    }
  });
});
