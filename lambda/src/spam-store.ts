/**
 * What the spam signals and the mail budget count in the message table: each stamp's use,
 * the messages of one text today, and the e-mails each budget has cost in its hour and its
 * day. Items of their own (no status, no address, no text: keyed hashes, ids and counts),
 * each with a TTL, so none is ever in an index and none outlives its day by much.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, writeIfCondition } from './conditional-write';
import { budgetWindows, type BudgetKind, type BudgetWindow, type MailBudget } from './mail-budget';
import type { MessageTable } from './store';

const DAY_SECONDS = 24 * 60 * 60;

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
        Item: { id: `stamp#${stamp.id}`, messageId: stamp.messageId, expiresAt: stamp.expiresAt },
        ConditionExpression: 'attribute_not_exists(id) OR messageId = :messageId',
        ExpressionAttributeValues: { ':messageId': stamp.messageId },
      }),
    ),
  );
}

/**
 * Counts `messageId` as one of the messages with the text of `fingerprint` today (UTC), and
 * answers how many there are. A set of ids, so a message sent again counts once.
 */
export async function countSameText(table: MessageTable, fingerprint: string, messageId: string, now: Date): Promise<number> {
  const day = Math.floor(now.getTime() / 1000 / DAY_SECONDS);
  const { Attributes } = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { id: `text#${fingerprint}#${day}` },
      UpdateExpression: 'ADD messages :message SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
      ExpressionAttributeValues: { ':message': new Set([messageId]), ':expiresAt': (day + 2) * DAY_SECONDS },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return (Attributes?.messages as Set<string> | undefined)?.size ?? 1;
}

function spend(table: MessageTable, window: BudgetWindow, by: 1 | -1) {
  return table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { id: window.id },
      UpdateExpression: 'ADD sent :by SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
      ...(by === 1 && { ConditionExpression: 'attribute_not_exists(sent) OR sent < :limit' }),
      ExpressionAttributeValues: { ':by': by, ':expiresAt': window.expiresAt, ...(by === 1 && { ':limit': window.limit }) },
    }),
  );
}

/**
 * Takes one e-mail from the budget of `kind` in this hour and this day, or none when either
 * is spent. Each count is one conditional update, so concurrent requests never spend past
 * it; the hour's is given back when the day's is spent.
 */
export async function takeMailBudget(table: MessageTable, kind: BudgetKind, budget: MailBudget, now: Date): Promise<boolean> {
  const [hour, day] = budgetWindows(kind, budget, now);
  if (!(await conditionalWrite(() => spend(table, hour, 1))).applied) return false;
  if ((await conditionalWrite(() => spend(table, day, 1))).applied) return true;
  await spend(table, hour, -1);
  return false;
}

/** Gives an e-mail back to both windows: the message it was taken for was not stored. Best effort. */
export async function returnMailBudget(table: MessageTable, kind: BudgetKind, budget: MailBudget, now: Date): Promise<void> {
  await Promise.all(budgetWindows(kind, budget, now).map((window) => spend(table, window, -1)));
}
