/**
 * One attempt to e-mail a stored message and record how it went. Shared by the handler
 * (first attempt) and the retry job (later ones), so both count attempts the same way.
 */
import { buildNotification, sendNotification, type MailRoute } from './mail';
import { describeError } from './log';
import { markDeliveryFailed, markEmailed } from './store';
import type { StoredMessage } from '@site/core/table';

export interface DeliveryResult {
  outcome: 'emailed' | 'deferred' | 'failed';
  /** Why SES refused, by error name only. */
  error?: string;
  /** The attempt's outcome could not be written to the table. */
  recordError?: string;
}

export async function deliver(
  table: string,
  message: StoredMessage,
  route: MailRoute,
  attempt: { at: Date; isLast: boolean },
): Promise<DeliveryResult> {
  let sesMessageId: string;
  try {
    sesMessageId = await sendNotification(buildNotification(message, route));
  } catch (sendError) {
    const error = describeError(sendError);
    const outcome = attempt.isLast ? 'failed' : 'deferred';
    try {
      await markDeliveryFailed(table, message.id, { error, at: attempt.at, giveUp: attempt.isLast });
      return { outcome, error };
    } catch (recordError) {
      // Still 'received' with its old attempt count: the retry job will pick it up.
      return { outcome, error, recordError: describeError(recordError) };
    }
  }
  try {
    await markEmailed(table, message.id, { sesMessageId, at: attempt.at });
    return { outcome: 'emailed' };
  } catch (recordError) {
    // The e-mail is out; left 'received', the retry job may send it once more. A second
    // e-mail is better than a message nobody reads.
    return { outcome: 'emailed', recordError: describeError(recordError) };
  }
}
