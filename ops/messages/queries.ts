/**
 * The operator's reads and writes of the message table, for `npm run messages` (list, show,
 * export, erase, retention): the newest messages, one person's messages and everything else
 * that names them, every message's expiry, and deleting or shortening one. The function's own
 * path is in lambda/src/store/store.ts; only these commands use these.
 */
import { DeleteCommand, QueryCommand, UpdateCommand, paginateQuery, paginateScan } from '@aws-sdk/lib-dynamodb';
import { emailKey, MESSAGE_STATUSES, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { writeIfCondition } from '@site/lambda/conditional-write';
import { IDEMPOTENCY_PREFIX } from '@site/core/table';
import type { IdempotencyRecord } from '@site/lambda/idempotency-records';
import { STAMP_PREFIX } from '@site/lambda/spam-store';
import type { MessageTable } from '@site/lambda/store';
import { countedMessages, entryName, MESSAGE_COUNT } from '@site/lambda/visitor-counter';
import { VISITOR_COUNTER_PREFIX } from '@site/lambda/visitor-limit';

const STATUS_INDEX: IndexName = 'byStatus';
const EMAIL_INDEX: IndexName = 'byEmail';

/** A visitor counter that counts some of the person's messages: a keyed hash of their network, the window, and those entries. */
export interface LinkedCounter {
  id: string;
  /** When the counter's window ended (epoch seconds): DynamoDB deletes it some time after. */
  expiresAt: number;
  /** The entries of all messages it counts, the person's and possibly others' from the same network. */
  messageCount: number;
  /** The person's messages among them. */
  messageIds: string[];
}

/** A proof-of-work stamp's record: which message used the challenge, so that no other can (lambda/src/spam/spam-store.ts). */
export interface StampRecord {
  id: string;
  messageId: string;
  /** When the challenge expired (epoch seconds): DynamoDB deletes it some time after. */
  expiresAt: number;
}

/** What else than the messages themselves names one of them: their idempotency records, the visitor counters that count them, and the stamps they used. */
export interface LinkedRecords {
  idempotencyRecords: IdempotencyRecord[];
  visitorCounters: LinkedCounter[];
  stampRecords: StampRecord[];
}

/**
 * Every idempotency record, visitor counter and stamp record that names one of `messageIds`,
 * read by a consistent scan of those kinds of item. None has an index (they hold no address to
 * find them by), and a message's own `idempotencyKey` would miss a record of a message stored
 * before it was kept; a scan misses nothing. Reads the whole table, a page at a time: an
 * erasure or an access request is rare, and the table small.
 */
export async function findLinkedRecords(table: MessageTable, messageIds: ReadonlySet<string>): Promise<LinkedRecords> {
  const linked: LinkedRecords = { idempotencyRecords: [], visitorCounters: [], stampRecords: [] };
  if (messageIds.size === 0) return linked;
  const pages = paginateScan(
    { client: table.client },
    {
      TableName: table.name,
      ConsistentRead: true,
      FilterExpression: 'begins_with(id, :records) OR begins_with(id, :counters) OR begins_with(id, :stamps)',
      ExpressionAttributeValues: { ':records': IDEMPOTENCY_PREFIX, ':counters': VISITOR_COUNTER_PREFIX, ':stamps': STAMP_PREFIX },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const id = String(item.id);
      if (id.startsWith(IDEMPOTENCY_PREFIX)) {
        if (messageIds.has(String(item.messageId))) linked.idempotencyRecords.push(item as IdempotencyRecord);
        continue;
      }
      if (id.startsWith(STAMP_PREFIX)) {
        if (messageIds.has(String(item.messageId))) {
          linked.stampRecords.push({ id, messageId: String(item.messageId), expiresAt: Number(item.expiresAt) });
        }
        continue;
      }
      const theirs = countedMessages(item).filter((entry) => messageIds.has(entry.messageId));
      if (theirs.length === 0) continue;
      linked.visitorCounters.push({
        id,
        expiresAt: Number(item.expiresAt),
        messageCount: Number(item[MESSAGE_COUNT]),
        messageIds: theirs.map((entry) => entry.messageId).sort(),
      });
    }
  }
  linked.idempotencyRecords.sort((a, b) => a.messageId.localeCompare(b.messageId));
  linked.visitorCounters.sort((a, b) => a.id.localeCompare(b.id));
  linked.stampRecords.sort((a, b) => a.messageId.localeCompare(b.messageId) || a.id.localeCompare(b.id));
  return linked;
}

/**
 * Takes a message's entry out of a visitor counter and lowers its count with it, so the count
 * stays the number of entries; false when the entry is gone already.
 */
export async function forgetCountedMessage(table: MessageTable, counterId: string, messageId: string): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: counterId },
        UpdateExpression: 'REMOVE #entry ADD #messageCount :minusOne',
        ConditionExpression: 'attribute_exists(#entry)',
        ExpressionAttributeNames: { '#entry': entryName(messageId), '#messageCount': MESSAGE_COUNT },
        ExpressionAttributeValues: { ':minusOne': -1 },
      }),
    ),
  );
}

/**
 * Deletes a visitor counter that counts no message any more: what is left of it (a keyed hash
 * of the person's network, and a window) refers to nobody else. False when it still counts
 * one (another message from the same network) or is gone.
 */
export async function deleteEmptyCounter(table: MessageTable, counterId: string): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id: counterId },
        ConditionExpression: 'begins_with(id, :counters) AND #messageCount <= :none',
        ExpressionAttributeNames: { '#messageCount': MESSAGE_COUNT },
        ExpressionAttributeValues: { ':counters': VISITOR_COUNTER_PREFIX, ':none': 0 },
      }),
    ),
  );
}

/**
 * Deletes the record of a stamp this message used. Its challenge expired two hours after it was
 * issued (STAMP_DIFFICULTY), so the stamp cannot be used again once the record is gone.
 */
export async function deleteStampRecord(table: MessageTable, record: Pick<StampRecord, 'id' | 'messageId'>): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id: record.id },
        ConditionExpression: 'begins_with(id, :stamps) AND messageId = :messageId',
        ExpressionAttributeValues: { ':stamps': STAMP_PREFIX, ':messageId': record.messageId },
      }),
    ),
  );
}

/** What the retention of a stored message is judged by. */
export type MessageExpiry = Pick<StoredMessage, 'id' | 'receivedAt' | 'expiresAt'>;

/**
 * Every stored message's id, arrival and expiry, status by status, a page at a time, so a
 * table of any size is read in bounded memory. Idempotency records and visitor counters have
 * no status, so the status index never holds them.
 */
export async function* listExpiries(table: MessageTable, pageSize = 1000): AsyncGenerator<MessageExpiry> {
  for (const status of MESSAGE_STATUSES) {
    const pages = paginateQuery(
      { client: table.client, pageSize },
      {
        TableName: table.name,
        IndexName: STATUS_INDEX,
        KeyConditionExpression: '#status = :status',
        ProjectionExpression: 'id, receivedAt, expiresAt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) yield item as MessageExpiry;
    }
  }
}

/**
 * Moves a message's expiry earlier, to `expiresAt`. False when the message is gone or
 * already expires that early: never later, and never an item of its own.
 */
export async function shortenExpiry(table: MessageTable, id: string, expiresAt: number): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: 'SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_exists(id) AND expiresAt > :expiresAt',
        ExpressionAttributeValues: { ':expiresAt': expiresAt },
      }),
    ),
  );
}

/** The newest messages, newest first: of one status, or of every status. */
export async function listLatest(table: MessageTable, limit: number, status?: MessageStatus): Promise<StoredMessage[]> {
  const perStatus = await Promise.all(
    (status ? [status] : MESSAGE_STATUSES).map(async (wanted) => {
      const { Items } = await table.client.send(
        new QueryCommand({
          TableName: table.name,
          IndexName: STATUS_INDEX,
          KeyConditionExpression: '#status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': wanted },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (Items ?? []) as StoredMessage[];
    }),
  );
  return perStatus
    .flat()
    .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt))
    .slice(0, limit);
}

/** Every message from this address, in any case, oldest first: a query on the byEmail index, page by page. */
export async function listByEmail(table: MessageTable, address: string): Promise<StoredMessage[]> {
  const pages = paginateQuery(
    { client: table.client, pageSize: 100 },
    {
      TableName: table.name,
      IndexName: EMAIL_INDEX,
      KeyConditionExpression: 'emailKey = :emailKey',
      ExpressionAttributeValues: { ':emailKey': emailKey(address) },
    },
  );
  const messages: StoredMessage[] = [];
  for await (const page of pages) messages.push(...((page.Items ?? []) as StoredMessage[]));
  return messages;
}

/** Deletes one message; false when it was already gone. Never deletes an idempotency record. */
export async function deleteMessage(table: MessageTable, id: string): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id },
        ConditionExpression: 'attribute_exists(#status)',
        ExpressionAttributeNames: { '#status': 'status' },
      }),
    ),
  );
}
