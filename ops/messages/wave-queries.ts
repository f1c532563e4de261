/**
 * The operator's reads and writes for a spam wave (`wave`, `purge`, `release`): the messages
 * of one status received in a period, read from the byStatus index by its sort key a bounded
 * page at a time (never a scan), and the two conditional updates that take a message out of
 * `held`, so that a second run, or a run racing another, changes nothing more.
 */
import { UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { IndexName, MessageStatus, StoredMessage } from '@site/core/table';
import { writeIfCondition } from '@site/lambda/conditional-write';
import type { MessageTable } from '@site/lambda/store';
import type { Period } from './period';

const STATUS_INDEX: IndexName = 'byStatus';

/** What wave and purge read of a message: never its text, its name or its address. */
export type WaveItem = Pick<StoredMessage, 'id' | 'receivedAt' | 'status' | 'expiresAt' | 'score' | 'signals' | 'fingerprint' | 'heldFor'>;
const WAVE_ATTRIBUTES = [
  'id',
  'receivedAt',
  'status',
  'expiresAt',
  'score',
  'signals',
  'fingerprint',
  'heldFor',
] as const satisfies readonly (keyof WaveItem)[];

/** Items per query page: DynamoDB's 1 MB a page bounds it too. */
export const PAGE_SIZE = 500;

/** The messages of `status` received in the period, oldest first, a page at a time. */
export async function* receivedIn(table: MessageTable, status: MessageStatus, period: Period): AsyncGenerator<WaveItem> {
  const pages = paginateQuery(
    { client: table.client, pageSize: PAGE_SIZE },
    {
      TableName: table.name,
      IndexName: STATUS_INDEX,
      KeyConditionExpression: '#status = :status AND receivedAt BETWEEN :from AND :to',
      ProjectionExpression: WAVE_ATTRIBUTES.map((name) => `#${name}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(WAVE_ATTRIBUTES.map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: { ':status': status, ':from': period.from, ':to': period.to },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) yield item as WaveItem;
  }
}

/**
 * Marks a held message as spam, expiring at `expiresAt` (the caller never makes it later than
 * the message's own). False when the message is no longer held (released, marked already,
 * erased) or its expiry was moved earlier meanwhile.
 */
export function markSpam(table: MessageTable, id: string, expiresAt: number): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: 'SET #status = :spam, expiresAt = :expiresAt',
        ConditionExpression: '#status = :held AND expiresAt >= :expiresAt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':spam': 'spam' satisfies MessageStatus,
          ':held': 'held' satisfies MessageStatus,
          ':expiresAt': expiresAt,
        },
      }),
    ),
  );
}

/**
 * Takes a held message out of `held` into `received`, the status the normal delivery path
 * starts from, with `at` as its last attempt so the caller can lease it from the retry job as
 * resend does. False when it is not held (any more): only one release gets it.
 */
export function releaseHeld(table: MessageTable, id: string, at: Date): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: 'SET #status = :received, lastAttemptAt = :at',
        ConditionExpression: '#status = :held',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':received': 'received' satisfies MessageStatus,
          ':held': 'held' satisfies MessageStatus,
          ':at': at.toISOString(),
        },
      }),
    ),
  );
}
