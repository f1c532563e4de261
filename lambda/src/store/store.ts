/**
 * The contact function's reads and writes of its messages: store a message once, record each
 * delivery attempt and each delivery event on it, and find what the retry job must send.
 * Writes that must happen once are conditional (conditional-write.ts); each function is given
 * the table it works on: its name and the client that reaches it. Idempotency records are in
 * idempotency-records.ts, visitor counters in visitor-counter.ts, and the operator's own
 * queries beside the commands that use them (ops/messages/queries.ts).
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  paginateQuery,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { AWAITING_DELIVERY, type DeliveryOutcome, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { conditionalWrite, writeIfCondition } from './conditional-write';

/** The message table: its name, and the client that reaches it. */
export interface MessageTable {
  name: string;
  client: DynamoDBDocumentClient;
}

const STATUS_INDEX: IndexName = 'byStatus';

/** 'exists' when an item with this id is already there (an earlier request stored it). */
export async function storeMessage(table: MessageTable, message: StoredMessage): Promise<'stored' | 'exists'> {
  const write = await conditionalWrite(() =>
    table.client.send(new PutCommand({ TableName: table.name, Item: message, ConditionExpression: 'attribute_not_exists(id)' })),
  );
  return write.applied ? 'stored' : 'exists';
}

/** One message by id; undefined when there is none (an idempotency record is not a message). */
export async function getMessage(table: MessageTable, id: string): Promise<StoredMessage | undefined> {
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id }, ConsistentRead: true }));
  return Item && 'status' in Item ? (Item as StoredMessage) : undefined;
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
  const write = await conditionalWrite(() =>
    table.client.send(
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
    ),
  );
  if (write.applied) return;
  const message = await getMessage(table, id);
  if (message === undefined || message.attempts < attempt.number) throw write.refusal;
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
  const write = await conditionalWrite(() =>
    table.client.send(
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
    ),
  );
  if (write.applied) return 'recorded';
  const message = await readAttempts(table, id);
  if (message === undefined) return 'unknown_message';
  return isOurAttempt(message, outcome) ? 'superseded' : 'not_our_attempt';
}

/** What a message records of its delivery attempts. */
type AttemptRecord = Pick<StoredMessage, 'attempts' | 'emailedAttempt' | 'sesMessageId'>;

/**
 * A message's attempts alone, never what the visitor wrote: all the delivery-event consumer
 * reads (its role may GetItem for this), when an event did not apply and it must say why.
 */
async function readAttempts(table: MessageTable, id: string): Promise<AttemptRecord | undefined> {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.name,
      Key: { id },
      ConsistentRead: true,
      ProjectionExpression: '#status, attempts, emailedAttempt, sesMessageId',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return Item && 'status' in Item ? (Item as AttemptRecord) : undefined;
}

/** Whether the event's attempt was made, and, where its SES message id is recorded, with that id. */
function isOurAttempt(message: AttemptRecord, outcome: DeliveryOutcome): boolean {
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
  return writeIfCondition(() =>
    table.client.send(
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
    ),
  );
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

/**
 * The most any count of the retry job reads: a run's reads stay the same however large a
 * backlog grows (a wave of 100,000 messages included), and a count of COUNT_CAP means "that
 * many or more", which every alarm on it reads as far past its threshold.
 */
export const COUNT_CAP = 1000;

/** Counts what `query` finds, reading at most COUNT_CAP items (a filter counts fewer than it reads). */
async function countUpTo(table: MessageTable, query: QueryCommandInput): Promise<number> {
  let count = 0;
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({ ...query, Select: 'COUNT', Limit: COUNT_CAP - read, ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    read += page.ScannedCount ?? page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined && read < COUNT_CAP);
  return count;
}

/** How many messages older than `receivedBefore` still wait for delivery (up to COUNT_CAP): what the undelivered alarm watches. */
export function countUndelivered(table: MessageTable, receivedBefore: Date): Promise<number> {
  return countUpTo(table, undeliveredQuery(table, receivedBefore));
}

/**
 * How many messages that arrived before `receivedBefore` SES accepted through a configuration
 * set and has not reported delivered (or bounced, …), up to COUNT_CAP: what the not-delivered
 * alarm watches. Messages e-mailed before delivery events existed carry no configuration set,
 * and no event will ever come for them, so they do not count.
 */
export async function countNotDelivered(table: MessageTable, receivedBefore: Date): Promise<number> {
  let count = 0;
  for (const status of AWAITING_DELIVERY) {
    count += await countUpTo(table, {
      TableName: table.name,
      IndexName: STATUS_INDEX,
      KeyConditionExpression: '#status = :status AND receivedAt < :before',
      FilterExpression: 'attribute_exists(configurationSet)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':before': receivedBefore.toISOString() },
    });
  }
  return Math.min(count, COUNT_CAP);
}
