/**
 * The records an Idempotency-Key reserves in the message table: whoever claims a key first
 * decides the message's id, and a retry of the same body gets that id back. A record holds
 * the keyed hash of the body (idempotency.ts), never a field of it, and expires after
 * IDEMPOTENCY_TTL_SECONDS.
 */
import { IDEMPOTENCY_PREFIX } from '@site/core/table';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import { writeIfCondition } from './conditional-write';
import type { MessageTable } from './store';

function epochSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

export type IdempotencyClaim =
  /** This request holds the key; `messageId` is the id it proposed. */
  | { outcome: 'claimed'; messageId: string }
  /** An earlier request with the same body holds the key (or one whose body can no longer be checked); answer with its id. */
  | { outcome: 'replayed'; messageId: string }
  /** The key was used for a different body. */
  | { outcome: 'conflict' };

/** What an Idempotency-Key reserved: never a field of the message, only the keyed hash of them (idempotency.ts). */
export interface IdempotencyRecord {
  id: string;
  messageId: string;
  bodyHash: string;
  /** The name of the key the hash was made with; absent on records made before hashes were keyed. */
  hashKeyName?: string;
  expiresAt: number;
}

/** The item id of the record that reserves `key`. */
export const idempotencyId = (key: string) => `${IDEMPOTENCY_PREFIX}${key}`;

/**
 * Whether an earlier record is a retry of this body. `bodyHashes` holds this body's hash
 * under each key the function holds, by key name; a record made under a key no longer held
 * (before a rotation of the origin secret, or before hashes were keyed) cannot be checked,
 * and its key is honoured: keys are random UUIDs, so another body under one is a client's bug.
 */
function isSameBody(existing: IdempotencyRecord, bodyHashes: Readonly<Record<string, string>>): boolean {
  const name = existing.hashKeyName;
  if (name === undefined || !Object.hasOwn(bodyHashes, name)) return true;
  return existing.bodyHash === bodyHashes[name];
}

/**
 * Writes the record unless its key is held by another record that has not expired (`now` in
 * epoch seconds); false when it is. DynamoDB deletes expired items only eventually, so an
 * expired key is free again.
 */
export async function putIdempotencyRecord(table: MessageTable, record: IdempotencyRecord, now: number): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: record,
        ConditionExpression: 'attribute_not_exists(id) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
}

/**
 * Reserves a message id for an Idempotency-Key. Whoever reserves first decides the id;
 * everyone with the same key and body gets that id back, and storing under it
 * (storeMessage) then succeeds exactly once. The record has no `status`, so it never
 * appears in the byStatus index.
 */
export async function claimIdempotencyKey(
  table: MessageTable,
  claim: { key: string; messageId: string; bodyHashes: Readonly<Record<string, string>>; hashKeyName: string; now: Date },
): Promise<IdempotencyClaim> {
  const now = epochSeconds(claim.now);
  const record: IdempotencyRecord = {
    id: idempotencyId(claim.key),
    messageId: claim.messageId,
    bodyHash: claim.bodyHashes[claim.hashKeyName]!,
    hashKeyName: claim.hashKeyName,
    expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
  };
  // Twice at most: the record can expire and be removed between the put and the get.
  for (let round = 0; round < 2; round += 1) {
    if (await putIdempotencyRecord(table, record, now)) return { outcome: 'claimed', messageId: claim.messageId };
    const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id: record.id }, ConsistentRead: true }));
    const existing = Item as IdempotencyRecord | undefined;
    if (existing) {
      return isSameBody(existing, claim.bodyHashes) ? { outcome: 'replayed', messageId: existing.messageId } : { outcome: 'conflict' };
    }
  }
  throw new Error('Idempotency record vanished twice while being claimed');
}

/**
 * Deletes the record that reserved `messageId` under `key`; false when there is none
 * (expired, never made, or the key reserved another message since).
 */
export async function deleteIdempotencyRecord(
  table: MessageTable,
  record: { key: string; messageId: string },
  abortSignal?: AbortSignal,
): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id: idempotencyId(record.key) },
        // Only this message's: the key may have been claimed again for another since it expired.
        ConditionExpression: 'messageId = :messageId',
        ExpressionAttributeValues: { ':messageId': record.messageId },
      }),
      { abortSignal },
    ),
  );
}
