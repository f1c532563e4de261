/**
 * Taking a message out of `held`, for the firm's page (held-handler.ts) and the operator's
 * `npm run messages -- release` and `purge` alike: the two conditional updates, so that a
 * second click, a second run, or one racing another changes nothing more, and a release
 * that e-mails the message as its own notification the way the retry job does.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageStatus, StoredMessage } from '@site/core/table';
import { writeIfCondition } from '../store/conditional-write';
import { deliver, type DeliveryResult, type DeliverySetup } from '../mail/delivery';
import { leaseForRetry, type MessageTable } from '../store/store';

const DAY_SECONDS = 24 * 60 * 60;

/** The expiry a message marked spam now gets: spamRetentionDays from now, or its own when that is sooner. */
export function spamExpiry(message: Pick<StoredMessage, 'expiresAt'>, now: Date, spamRetentionDays: number): number {
  return Math.min(message.expiresAt, Math.floor(now.getTime() / 1000) + spamRetentionDays * DAY_SECONDS);
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

export type ReleaseResult =
  /** It left `held` in another request first: nothing sent. */
  | { outcome: 'not_held' }
  /** Released, and the retry job leased it first: it e-mails it. */
  | { outcome: 'taken' }
  /** Released, and this attempt's outcome: e-mailed, or left `received` for the retry job. */
  | { outcome: 'delivered'; delivery: DeliveryResult };

/**
 * Releases a held message the caller read, and e-mails it to the firm now as its own
 * notification (Reply-To the visitor): out of `held` by a conditional update first, so two
 * releases never both send it; then leased from the retry job, which may see it as
 * `received` from then on, and delivered as every attempt is.
 */
export async function releaseMessage(setup: DeliverySetup, message: StoredMessage, now: Date): Promise<ReleaseResult> {
  if (!(await releaseHeld(setup.table, message.id, now))) return { outcome: 'not_held' };
  const released: StoredMessage = { ...message, status: 'received', lastAttemptAt: now.toISOString() };
  // A later time than the one just written, so a retry run that read that one cannot lease it too.
  const at = new Date(now.getTime() + 1);
  if (!(await leaseForRetry(setup.table, released, at))) return { outcome: 'taken' };
  const delivery = await deliver(setup, { ...released, lastAttemptAt: at.toISOString() }, { at, isLast: false });
  return { outcome: 'delivered', delivery };
}
