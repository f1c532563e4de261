/**
 * What the spam signals and the mail budget count in the message table: each stamp's use,
 * the messages of one text today, and the e-mails each budget has cost in its hour and its
 * day. Items of their own (no status, no address, no text: keyed hashes, ids and counts),
 * each with a TTL, so none is ever in an index and none outlives its day by much.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DIGEST_STATE_ID, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { conditionalWrite, writeIfCondition } from '../store/conditional-write';
import { REPEATED_IN } from '@site/core/spam';
import { budgetCounter, type BudgetKind, type MailBudget } from './mail-budget';
import type { MessageTable } from '../store/store';

const DAY_SECONDS = 24 * 60 * 60;

/** Every stamp's record starts so: the challenge's id, and the message that used it. */
export const STAMP_PREFIX = 'stamp#';

/** Every text's count of senders starts so: a keyed hash of the text and the day, never the text. */
export const TEXT_PREFIX = 'text#';

/**
 * Records a valid stamp's use by a message; false when another message used it before (a
 * replayed stamp). The same message may use it again: a visitor's retry after a failed send
 * carries the same stamp and the same Idempotency-Key.
 */
export function useStamp(table: MessageTable, stamp: { id: string; expiresAt: number; messageId: string }): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: { id: `${STAMP_PREFIX}${stamp.id}`, messageId: stamp.messageId, expiresAt: stamp.expiresAt },
        ConditionExpression: 'attribute_not_exists(id) OR messageId = :messageId',
        ExpressionAttributeValues: { ':messageId': stamp.messageId },
      }),
    ),
  );
}

/**
 * Counts `sender` (senderTag in spam-signals.ts) as one of those who sent the text of
 * `fingerprint` today (UTC), and answers how many have, up to REPEATED_IN: once that many
 * have, the text is repeated and the item stops growing, so a wave from 100,000 addresses
 * costs one small write each, never an item near DynamoDB's 400 KB. Without a sender (the
 * same message sent again, already counted) it only reads. A set of keyed tags, so a sender
 * who sends the text again counts once; it holds no message id, so nothing in it leads to a
 * message.
 */
export async function countSameText(table: MessageTable, fingerprint: string, sender: string | undefined, now: Date): Promise<number> {
  const day = Math.floor(now.getTime() / 1000 / DAY_SECONDS);
  const Key = { id: `${TEXT_PREFIX}${fingerprint}#${day}` };
  if (sender === undefined) {
    const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key, ProjectionExpression: 'senders' }));
    return Math.min((Item?.senders as Set<string> | undefined)?.size ?? 0, REPEATED_IN);
  }
  let senders: Set<string> | undefined;
  const write = await conditionalWrite(async () => {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key,
        UpdateExpression: 'ADD senders :sender SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: 'attribute_not_exists(senders) OR size(senders) < :full',
        ExpressionAttributeValues: { ':sender': new Set([sender]), ':expiresAt': (day + 2) * DAY_SECONDS, ':full': REPEATED_IN },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    senders = Attributes?.senders as Set<string> | undefined;
  });
  if (!write.applied) return REPEATED_IN;
  return Math.min(senders?.size ?? 1, REPEATED_IN);
}

/**
 * Takes one e-mail from the budget of `kind` in this hour and this day, or none when either
 * is spent: one conditional update of the day's counter, which holds the hour's count too,
 * so concurrent requests never spend past either.
 */
export async function takeMailBudget(table: MessageTable, kind: BudgetKind, budget: MailBudget, now: Date): Promise<boolean> {
  const counter = budgetCounter(kind, budget, now);
  const write = await conditionalWrite(() =>
    table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: counter.id },
        UpdateExpression: 'ADD sent :one, #hour :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: '(attribute_not_exists(sent) OR sent < :perDay) AND (attribute_not_exists(#hour) OR #hour < :perHour)',
        ExpressionAttributeNames: { '#hour': counter.hour },
        ExpressionAttributeValues: { ':one': 1, ':perDay': counter.perDay, ':perHour': counter.perHour, ':expiresAt': counter.expiresAt },
      }),
    ),
  );
  return write.applied;
}

/** Gives an e-mail back to its hour and its day: the message it was taken for was not stored. Best effort. */
export async function returnMailBudget(table: MessageTable, kind: BudgetKind, budget: MailBudget, now: Date): Promise<void> {
  const counter = budgetCounter(kind, budget, now);
  await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { id: counter.id },
      UpdateExpression: 'ADD sent :back, #hour :back',
      ConditionExpression: 'attribute_exists(sent)',
      ExpressionAttributeNames: { '#hour': counter.hour },
      ExpressionAttributeValues: { ':back': -1 },
    }),
  );
}

/** When the last digest went out, and the last held message it counted (ISO): its one item. */
export interface DigestState {
  sentAt?: string;
  through?: string;
}

export async function readDigestState(table: MessageTable): Promise<DigestState> {
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id: DIGEST_STATE_ID }, ConsistentRead: true }));
  return { sentAt: Item?.sentAt as string | undefined, through: Item?.through as string | undefined };
}

/** Moves the digest's state from `from` to `to`; false when another run moved it first. */
export function claimDigest(table: MessageTable, from: DigestState, to: DigestState): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: { id: DIGEST_STATE_ID, ...to },
        ...(from.sentAt === undefined
          ? { ConditionExpression: 'attribute_not_exists(sentAt)' }
          : { ConditionExpression: 'sentAt = :sentAt', ExpressionAttributeValues: { ':sentAt': from.sentAt } }),
      }),
    ),
  );
}

/** Held messages that arrived after `after` (ISO), oldest first, at most `cap`; `more` when there are others. */
export async function listHeldSince(
  table: MessageTable,
  after: string | undefined,
  cap: number,
): Promise<{ messages: StoredMessage[]; more: boolean }> {
  const messages: StoredMessage[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'byStatus' satisfies IndexName,
        // DynamoDB refuses an empty string as a key's value (dynalite does not): before the first
        // digest, every held message, with no condition on receivedAt at all.
        KeyConditionExpression: after === undefined ? '#status = :held' : '#status = :held AND receivedAt > :after',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':held': 'held' satisfies MessageStatus, ...(after !== undefined && { ':after': after }) },
        Limit: cap - messages.length,
        ExclusiveStartKey: startKey,
      }),
    );
    messages.push(...((page.Items ?? []) as StoredMessage[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined && messages.length < cap);
  return { messages, more: startKey !== undefined };
}
