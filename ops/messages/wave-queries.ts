/**
 * The operator's reads for a spam wave (`wave`, `purge`, `release`): the messages
 * of one status received in a period, read from the byStatus index by its sort key a bounded
 * page at a time (never a scan). The updates that take a message out of `held` are the
 * function's (@site/lambda/held-store), which the firm's page of held messages uses too.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { IndexName, MessageStatus, StoredMessage } from '@site/core/table';
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
