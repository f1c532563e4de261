/**
 * One attempt to e-mail a stored message and record how it went. Shared by the handler
 * (first attempt), the retry job (later ones) and `npm run messages -- resend`, so all of
 * them count attempts the same way.
 */
import type { SESClient } from '@aws-sdk/client-ses';
import type { ContactFields } from '@site/core/contract';
import type { FieldList } from '@site/core/field-spec';
import { OUTSIDE_CHECK } from '@site/core/outside-check';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import { CHECK_PREFIX, type StoredMessage } from '@site/core/table';
import { buildNotification, nextAttempt, sendNotification, type MailRoute } from './mail';
import { describeError } from '../shared/log';
import { markDeliveryFailed, markEmailed, type MessageTable } from '../store/store';
import { markCheckEmailed, type CheckPost } from '../store/check-posts';

/** What a delivery needs: where the attempt is recorded, SES, the route, and the fields the e-mail lists. */
export interface DeliverySetup {
  table: MessageTable;
  ses: SESClient;
  route: MailRoute;
  fields: FieldList;
}

export interface DeliveryResult {
  outcome: 'emailed' | 'deferred' | 'failed';
  /** Why SES refused, by error name only. */
  error?: string;
  /** The attempt's outcome could not be written to the table. */
  recordError?: string;
}

export async function deliver(
  setup: DeliverySetup,
  message: StoredMessage,
  attempt: { at: Date; isLast: boolean },
): Promise<DeliveryResult> {
  const { table } = setup;
  // The number buildNotification tags the e-mail with, and the one recorded with it.
  const number = nextAttempt(message).number;
  let sesMessageId: string;
  try {
    // The fields hold the site's at least (a test may add one); a stored message has theirs.
    const input = buildNotification(message, setup.route, setup.fields as ContactFields);
    sesMessageId = await sendNotification(setup.ses, input);
  } catch (sendError) {
    const error = describeError(sendError);
    const outcome = attempt.isLast ? 'failed' : 'deferred';
    try {
      await markDeliveryFailed(table, message.id, { error, at: attempt.at, giveUp: attempt.isLast, attempt: number });
      return { outcome, error };
    } catch (recordError) {
      // Still 'received' with its old attempt count: the retry job will pick it up.
      return { outcome, error, recordError: describeError(recordError) };
    }
  }
  try {
    await markEmailed(table, message.id, {
      sesMessageId,
      at: attempt.at,
      attempt: number,
      configurationSet: setup.route.configurationSet,
    });
    return { outcome: 'emailed' };
  } catch (recordError) {
    // The e-mail is out; left 'received', the retry job may send it once more. A second
    // e-mail is better than a message nobody reads.
    return { outcome: 'emailed', recordError: describeError(recordError) };
  }
}

/**
 * The outside check's e-mail: built as a message's notification and sent the same way (the
 * sender, the configuration set, the same IAM conditions), but to SES's mailbox simulator, never
 * the firm, and tagged as the check's, so its delivery events are recorded on no message. One
 * attempt and no retry: the next run of the check is its retry.
 */
export async function sendCheckMail(
  setup: DeliverySetup,
  post: CheckPost,
  at: Date,
): Promise<Omit<DeliveryResult, 'outcome'> & { emailed: boolean }> {
  let sesMessageId: string;
  try {
    const input = buildNotification(
      { ...post, attempts: 0 },
      { ...setup.route, to: [OUTSIDE_CHECK.recipient] },
      setup.fields as ContactFields,
    );
    sesMessageId = await sendNotification(setup.ses, {
      ...input,
      Tags: [{ Name: DELIVERY_TAGS.check, Value: post.id.slice(CHECK_PREFIX.length) }],
    });
  } catch (sendError) {
    return { emailed: false, error: describeError(sendError) };
  }
  try {
    await markCheckEmailed(setup.table, post.id, { sesMessageId, at });
    return { emailed: true };
  } catch (recordError) {
    return { emailed: true, recordError: describeError(recordError) };
  }
}
