/**
 * A visitor's counter in the message table (one item per counted network and window, see
 * visitor-limit.ts): which messages it counts, so that only messages that were stored cost
 * the visitor anything.
 *
 * The counter holds one entry per message id, the time it was counted, and their number:
 *
 *   { id: 'visitor#<hash>#<window>', messageCount: 2, expiresAt,
 *     'message#01J…A': 1765000000123, 'message#01J…B': 0 }
 *
 * Counting adds the message's entry and raises the count in one conditional update, so
 * concurrent requests can never count past the limit together (the local DynamoDB stand-in
 * has no transactions, and none are needed). Counting is per message id: a retry of the same
 * message (the same Idempotency-Key, or a form post of the same text) costs nothing more.
 *
 * A message that was not stored costs nothing:
 *   - The request whose store failed takes its entry out again (release), if it can.
 *   - It may not be able to: DynamoDB is down, or the counting update timed out in the SDK
 *     and was applied later ("lands late"), even after the release. So when a counter is
 *     full, every entry not yet settled is looked up: one whose message is there is marked
 *     settled (0) and never looked up again; one whose message is not in the table is removed
 *     once it is older than SETTLE_MS (no request of the function can still write by then).
 *   - So the visitor's Retry-After names a moment a place really frees: the window's end, or
 *     sooner when an entry whose message is not stored settles, never an entry whose message
 *     was stored (those free nothing before the window ends).
 * Every change to an entry is conditional on the time seen in it, so an entry a retry of
 * the same message has just counted again is never taken away from under it.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { writeIfCondition } from '../store/conditional-write';
import { type MessageTable } from '../store/store';

/**
 * How long after its counting an entry whose message is not stored can be given back: the
 * function's timeout (no request writes later than that) and time for DynamoDB to apply a
 * write it had already received when the SDK gave up waiting.
 */
export const SETTLE_MS = (FUNCTION_TIMEOUT_SECONDS + 20) * 1000;

/** An entry whose message was found stored: it counts until the window ends. */
const SETTLED = 0;

const ENTRY_PREFIX = 'message#';
/** The attribute of a counter that holds a message's entry (an erasure removes it: ops/messages/queries.ts). */
export const entryName = (messageId: string) => `${ENTRY_PREFIX}${messageId}`;

/** The messages a counter item counts, with the time each was counted (epoch ms, or 0 once settled). */
export function countedMessages(item: Record<string, unknown>): { messageId: string; at: number }[] {
  return Object.entries(item).flatMap(([name, at]) =>
    name.startsWith(ENTRY_PREFIX) && typeof at === 'number' ? [{ messageId: name.slice(ENTRY_PREFIX.length), at }] : [],
  );
}

/** A message counted against one counter. */
export interface Reservation {
  counterId: string;
  messageId: string;
  /** The time written into the entry (epoch ms). */
  at: number;
  /** This request added the entry (rather than finding it there): only then may it release it. */
  added: boolean;
}

export type CountResult =
  | { outcome: 'counted'; reservation: Reservation }
  /** The counter is full; `retryAt` (epoch ms) when an entry whose message is not stored settles, if one is there. */
  | { outcome: 'over'; retryAt?: number };

/** The counter item: its key, count and TTL, and an entry (epoch ms, or SETTLED) per message it counts. */
interface Counter {
  id: string;
  messageCount: number;
  expiresAt: number;
}

type CounterItem = Counter & Record<string, unknown>;

/** How many entries a counter holds: always as many as it has, since every write changes both. */
export const MESSAGE_COUNT: keyof Counter = 'messageCount';
const EXPIRES_AT: keyof Counter = 'expiresAt';

/**
 * Counts `messageId` against the counter, or answers 'over' when it holds `limit` other
 * messages that still count. Three rounds at most: each lost race is a change seen, and the
 * next round starts from it.
 */
export async function countMessage(
  table: MessageTable,
  counter: { id: string; messageId: string; limit: number; expiresAt: number; now: Date },
): Promise<CountResult> {
  const at = counter.now.getTime();
  let retryAt: number | undefined;
  for (let round = 0; round < 3; round += 1) {
    if (await addEntry(table, counter, at)) {
      return { outcome: 'counted', reservation: { counterId: counter.id, messageId: counter.messageId, at, added: true } };
    }
    const item = await readCounter(table, counter.id);
    if (item === undefined) continue;
    const seen = item[entryName(counter.messageId)];
    if (typeof seen === 'number') {
      // Counted already, by an earlier try of this message: refreshed, so no settling takes it away now.
      if (seen === SETTLED || (await changeEntry(table, counter.id, counter.messageId, seen, at))) {
        return { outcome: 'counted', reservation: { counterId: counter.id, messageId: counter.messageId, at, added: false } };
      }
      continue;
    }
    const settled = await settle(table, item, at);
    retryAt = settled.retryAt;
    if (settled.freed === 0) break;
  }
  return { outcome: 'over', retryAt };
}

/**
 * Takes a message's entry out again, when the request that added it did not store the
 * message. Nothing happens when the entry holds another time (a retry of the message counted
 * it since) or is gone.
 */
export async function releaseMessage(table: MessageTable, reservation: Reservation, abortSignal?: AbortSignal): Promise<void> {
  if (!reservation.added) return;
  await changeEntry(table, reservation.counterId, reservation.messageId, reservation.at, 'remove', abortSignal);
}

async function addEntry(table: MessageTable, counter: { id: string; messageId: string; limit: number; expiresAt: number }, at: number) {
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: counter.id },
        UpdateExpression: 'SET #entry = :at, #expiresAt = if_not_exists(#expiresAt, :expiresAt) ADD #messageCount :one',
        ConditionExpression: 'attribute_not_exists(#entry) AND (attribute_not_exists(#messageCount) OR #messageCount < :limit)',
        ExpressionAttributeNames: { '#entry': entryName(counter.messageId), '#messageCount': MESSAGE_COUNT, '#expiresAt': EXPIRES_AT },
        ExpressionAttributeValues: { ':at': at, ':expiresAt': counter.expiresAt, ':one': 1, ':limit': counter.limit },
      }),
    ),
  );
}

async function readCounter(table: MessageTable, id: string): Promise<CounterItem | undefined> {
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id }, ConsistentRead: true }));
  return Item as CounterItem | undefined;
}

/**
 * Sets an entry to a new time, or removes it (and lowers the count), if it still holds the
 * time `seen`. False when it does not.
 */
async function changeEntry(
  table: MessageTable,
  counterId: string,
  messageId: string,
  seen: number,
  to: number | 'remove',
  abortSignal?: AbortSignal,
): Promise<boolean> {
  const remove = to === 'remove';
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: counterId },
        UpdateExpression: remove ? 'REMOVE #entry ADD #messageCount :minusOne' : 'SET #entry = :to',
        ConditionExpression: '#entry = :seen',
        ExpressionAttributeNames: { '#entry': entryName(messageId), ...(remove && { '#messageCount': MESSAGE_COUNT }) },
        ExpressionAttributeValues: remove ? { ':seen': seen, ':minusOne': -1 } : { ':seen': seen, ':to': to },
      }),
      { abortSignal },
    ),
  );
}

async function isStored(table: MessageTable, messageId: string): Promise<boolean> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.name, Key: { id: messageId }, ProjectionExpression: 'id', ConsistentRead: true }),
  );
  return Item !== undefined;
}

/**
 * Looks up the messages of a full counter's open entries. An entry whose message is stored
 * is marked settled: it counts until the window ends and frees nothing. One whose message is
 * not stored is removed once it is old enough to judge (no request can still store it), and
 * frees a place then. Returns how many places it freed, and the earliest moment an entry
 * not stored becomes old enough: the one moment before the window's end that a place can free.
 */
async function settle(table: MessageTable, item: CounterItem, now: number): Promise<{ freed: number; retryAt?: number }> {
  const open = countedMessages(item).filter((entry) => entry.at !== SETTLED);
  const judged = await Promise.all(
    open.map(async (entry) => {
      const stored = await isStored(table, entry.messageId);
      const due = entry.at <= now - SETTLE_MS;
      // A young entry whose message is not stored may still be: its request can be storing it now.
      if (!stored && !due) return { freed: 0, settlesAt: entry.at + SETTLE_MS };
      const changed = await changeEntry(table, item.id, entry.messageId, entry.at, stored ? SETTLED : 'remove');
      return { freed: changed && !stored ? 1 : 0 };
    }),
  );
  const settling = judged.flatMap((entry) => (entry.settlesAt === undefined ? [] : [entry.settlesAt]));
  return {
    freed: judged.reduce((sum, entry) => sum + entry.freed, 0),
    retryAt: settling.length > 0 ? Math.min(...settling) : undefined,
  };
}
