/**
 * The operator's reads and writes of the message table, for `npm run messages` (list, show,
 * export, erase, retention): the newest messages, one person's messages, every message's
 * expiry, and deleting or shortening one. The function's own path is in
 * lambda/src/store.ts; only these commands use these.
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { emailKey, MESSAGE_STATUSES, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { writeIfCondition } from '@site/lambda/conditional-write';
import { idempotencyId, type IdempotencyRecord } from '@site/lambda/idempotency-records';
import type { MessageTable } from '@site/lambda/store';

const STATUS_INDEX: IndexName = 'byStatus';
const EMAIL_INDEX: IndexName = 'byEmail';

/** The record a message was claimed under (its `idempotencyKey`), while it lasts. */
export async function getIdempotencyRecord(table: MessageTable, message: StoredMessage): Promise<IdempotencyRecord | undefined> {
  if (message.idempotencyKey === undefined) return undefined;
  const key = { id: idempotencyId(message.idempotencyKey) };
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }));
  return Item?.messageId === message.id ? (Item as IdempotencyRecord) : undefined;
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
