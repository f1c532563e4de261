/**
 * Every read and write of the contact-messages table. Writes that must happen once are
 * conditional puts and updates (the local DynamoDB stand-in has no transactions, and none
 * are needed): a condition failure is how a duplicate or a lost race shows itself. Each
 * function is given the table it works on: its name and the client that reaches it.
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  paginateQuery,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import {
  AWAITING_DELIVERY,
  emailKey,
  MESSAGE_STATUSES,
  type DeliveryOutcome,
  type IndexName,
  type MessageStatus,
  type StoredMessage,
} from '@site/core/table';

/** The message table: its name, and the client that reaches it. */
export interface MessageTable {
  name: string;
  client: DynamoDBDocumentClient;
}

const STATUS_INDEX: IndexName = 'byStatus';
const EMAIL_INDEX: IndexName = 'byEmail';

export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';
}

function epochSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** 'exists' when an item with this id is already there (an earlier request stored it). */
export async function storeMessage(table: MessageTable, message: StoredMessage): Promise<'stored' | 'exists'> {
  try {
    await table.client.send(new PutCommand({ TableName: table.name, Item: message, ConditionExpression: 'attribute_not_exists(id)' }));
    return 'stored';
  } catch (error) {
    if (isConditionFailure(error)) return 'exists';
    throw error;
  }
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

/** Every idempotency record's item id starts so. */
export const IDEMPOTENCY_PREFIX = 'idempotency#';

const idempotencyId = (key: string) => `${IDEMPOTENCY_PREFIX}${key}`;

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
  try {
    await table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: record,
        ConditionExpression: 'attribute_not_exists(id) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
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

/** The record a message was claimed under (its `idempotencyKey`), while it lasts. */
export async function getIdempotencyRecord(table: MessageTable, message: StoredMessage): Promise<IdempotencyRecord | undefined> {
  if (message.idempotencyKey === undefined) return undefined;
  const key = { id: idempotencyId(message.idempotencyKey) };
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }));
  return Item?.messageId === message.id ? (Item as IdempotencyRecord) : undefined;
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
  try {
    await table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id: idempotencyId(record.key) },
        // Only this message's: the key may have been claimed again for another since it expired.
        ConditionExpression: 'messageId = :messageId',
        ExpressionAttributeValues: { ':messageId': record.messageId },
      }),
      { abortSignal },
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Records delivery attempt `number` once: its status and bookkeeping, and `attempts` set to
 * its number, only while the message has recorded no attempt as late. So the write is the
 * same however often it lands: the SDK sends it again after a timeout it may already have
 * been applied in, and a write that lands late after a later attempt changes nothing. (With
 * `attempts` raised by one each time, such a write counted an attempt twice, and the
 * message's delivery events, which count only for its last recorded attempt, never did.) No
 * delivery event of this attempt can have come first: events count only for an attempt
 * already recorded (recordDeliveryOutcome). When the write does not apply, a read tells an
 * attempt recorded already from a message that is gone, which is an error.
 */
async function recordAttempt(
  table: MessageTable,
  id: string,
  attempt: { number: number; status: MessageStatus; set: Record<string, string | number>; removeLastError?: boolean },
): Promise<void> {
  const values = Object.fromEntries(Object.entries(attempt.set).map(([name, value]) => [`:${name}`, value]));
  const assignments = Object.keys(attempt.set).map((name) => `${name} = :${name}`);
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: [
          `SET ${['#status = :status', 'attempts = :attempt', ...assignments].join(', ')}`,
          ...(attempt.removeLastError ? ['REMOVE lastError'] : []),
        ].join(' '),
        ConditionExpression: 'attribute_exists(id) AND attempts < :attempt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':status': attempt.status, ':attempt': attempt.number },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const message = await getMessage(table, id);
    if (message === undefined || message.attempts < attempt.number) throw error;
  }
}

export async function markEmailed(
  table: MessageTable,
  id: string,
  delivery: { sesMessageId: string; at: Date; attempt: number; configurationSet: string },
): Promise<void> {
  const at = delivery.at.toISOString();
  await recordAttempt(table, id, {
    number: delivery.attempt,
    status: 'emailed',
    set: {
      sesMessageId: delivery.sesMessageId,
      emailedAttempt: delivery.attempt,
      emailedAt: at,
      lastAttemptAt: at,
      configurationSet: delivery.configurationSet,
    },
    removeLastError: true,
  });
}

/**
 * Counts a failed delivery. `giveUp` marks the message 'failed' so the retry job stops;
 * otherwise it stays 'received' and the retry job tries again.
 */
export async function markDeliveryFailed(
  table: MessageTable,
  id: string,
  failure: { error: string; at: Date; giveUp: boolean; attempt: number },
): Promise<void> {
  await recordAttempt(table, id, {
    number: failure.attempt,
    status: failure.giveUp ? 'failed' : 'received',
    set: { lastError: failure.error, lastAttemptAt: failure.at.toISOString() },
  });
}

/**
 * What became of a delivery event: it set the message's status; it was older or weaker news;
 * it names an attempt that was not made, or another SES message id than its attempt's (not
 * ours: forged, or about an e-mail this message never sent); or there is no such message.
 */
export type OutcomeRecord = 'recorded' | 'superseded' | 'not_our_attempt' | 'unknown_message';

/**
 * Sets the status a delivery event reports, if it is news about the message's latest attempt:
 * the message exists (a message, not another kind of item, and not erased), the event's
 * attempt is the last one made (an earlier one's news is stale, a later one was never made),
 * it carries the SES message id recorded for that attempt when one is, and the outcome the
 * message holds is of an earlier attempt or of lower precedence (DELIVERY_OUTCOMES). One
 * conditional update, so redelivered and out-of-order events settle on the same state
 * whatever the order. Only when it does not apply, a read tells why.
 *
 * An event can come before its sender has recorded the attempt only when that record failed
 * (SES reports seconds after it accepts, the record takes milliseconds); the message is then
 * still `received`, and the retry job sends it again, whose events count.
 */
export async function recordDeliveryOutcome(table: MessageTable, id: string, outcome: DeliveryOutcome): Promise<OutcomeRecord> {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: 'SET #status = :status, #outcome = :outcome',
        ConditionExpression:
          'attribute_exists(#status) AND attempts = :attempt' +
          ' AND (attribute_not_exists(emailedAttempt) OR emailedAttempt <> :attempt OR sesMessageId = :sesMessageId)' +
          ' AND (attribute_not_exists(#outcome) OR #outcome.#attempt < :attempt' +
          ' OR (#outcome.#attempt = :attempt AND #outcome.#precedence < :precedence))',
        ExpressionAttributeNames: { '#status': 'status', '#outcome': 'outcome', '#attempt': 'attempt', '#precedence': 'precedence' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':outcome': outcome,
          ':attempt': outcome.attempt,
          ':precedence': outcome.precedence,
          ':sesMessageId': outcome.sesMessageId,
        },
      }),
    );
    return 'recorded';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const message = await getMessage(table, id);
  if (message === undefined) return 'unknown_message';
  return isOurAttempt(message, outcome) ? 'superseded' : 'not_our_attempt';
}

/** Whether the event's attempt was made, and, where its SES message id is recorded, with that id. */
function isOurAttempt(message: StoredMessage, outcome: DeliveryOutcome): boolean {
  if (outcome.attempt > message.attempts) return false;
  return message.emailedAttempt !== outcome.attempt || message.sesMessageId === outcome.sesMessageId;
}

/**
 * Takes a message for one delivery attempt by moving its lastAttemptAt from what the caller
 * read. Two overlapping retry runs read the same value; only one of them can move it, so
 * only one sends. False when another run got there first or the message changed.
 */
export async function leaseForRetry(table: MessageTable, message: StoredMessage, at: Date): Promise<boolean> {
  const unchangedSinceRead = message.lastAttemptAt === undefined ? 'attribute_not_exists(lastAttemptAt)' : 'lastAttemptAt = :seen';
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: message.id },
        UpdateExpression: 'SET lastAttemptAt = :at',
        ConditionExpression: `#status = :received AND attempts = :attempts AND ${unchangedSinceRead}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':at': at.toISOString(),
          ':received': 'received' satisfies MessageStatus,
          ':attempts': message.attempts,
          ...(message.lastAttemptAt !== undefined && { ':seen': message.lastAttemptAt }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The status index's messages still `received` that arrived before `receivedBefore`, oldest first. */
function undeliveredQuery(table: MessageTable, receivedBefore: Date) {
  return {
    TableName: table.name,
    IndexName: STATUS_INDEX,
    KeyConditionExpression: '#status = :received AND receivedAt < :before',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':received': 'received' satisfies MessageStatus, ':before': receivedBefore.toISOString() },
  };
}

/** Messages still waiting for delivery that arrived before `receivedBefore`, oldest first. */
export async function* listUndelivered(table: MessageTable, receivedBefore: Date): AsyncGenerator<StoredMessage> {
  const pages = paginateQuery({ client: table.client, pageSize: 100 }, undeliveredQuery(table, receivedBefore));
  for await (const page of pages) {
    for (const item of page.Items ?? []) yield item as StoredMessage;
  }
}

/** How many messages older than `receivedBefore` still wait for delivery: what the undelivered alarm watches. */
export async function countUndelivered(table: MessageTable, receivedBefore: Date): Promise<number> {
  const pages = paginateQuery({ client: table.client, pageSize: 1000 }, { ...undeliveredQuery(table, receivedBefore), Select: 'COUNT' });
  let count = 0;
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/**
 * How many messages that arrived before `receivedBefore` SES accepted through a configuration
 * set and has not reported delivered (or bounced, …): what the not-delivered alarm watches.
 * Messages e-mailed before delivery events existed carry no configuration set, and no event
 * will ever come for them, so they do not count.
 */
export async function countNotDelivered(table: MessageTable, receivedBefore: Date): Promise<number> {
  let count = 0;
  for (const status of AWAITING_DELIVERY) {
    const pages = paginateQuery(
      { client: table.client, pageSize: 1000 },
      {
        TableName: table.name,
        IndexName: STATUS_INDEX,
        KeyConditionExpression: '#status = :status AND receivedAt < :before',
        FilterExpression: 'attribute_exists(configurationSet)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':before': receivedBefore.toISOString() },
        Select: 'COUNT',
      },
    );
    for await (const page of pages) count += page.Count ?? 0;
  }
  return count;
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
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id },
        UpdateExpression: 'SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_exists(id) AND expiresAt > :expiresAt',
        ExpressionAttributeValues: { ':expiresAt': expiresAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
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

/** One message by id; undefined when there is none (an idempotency record is not a message). */
export async function getMessage(table: MessageTable, id: string): Promise<StoredMessage | undefined> {
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id }, ConsistentRead: true }));
  return Item && 'status' in Item ? (Item as StoredMessage) : undefined;
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
  try {
    await table.client.send(
      new DeleteCommand({
        TableName: table.name,
        Key: { id },
        ConditionExpression: 'attribute_exists(#status)',
        ExpressionAttributeNames: { '#status': 'status' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
