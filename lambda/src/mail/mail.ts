/**
 * The notification the firm receives for each message: built as plain data (no I/O, so
 * every escaping rule can be tested directly; the layout is in notification.ts, the words in
 * core's content) and sent through SES v1 SendEmail, through the stage's configuration set
 * with tags that bring its delivery events back to the stored message.
 */
import { SendEmailCommand, type SESClient, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { type ContactFields, type FieldValues } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import type { StoredMessage } from '@site/core/table';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { headerText, mailbox } from './mail-header';
import { htmlBody, subjectFor, textBody, type NotifiedMessage } from './notification';

export interface MailRoute {
  /** The sender address (MAIL_FROM): a verified SES identity, and what the IAM condition ses:FromAddress allows. */
  from: string;
  /** The name shown before it in the firm's inbox. */
  senderName: string;
  to: string[];
  /** The SES configuration set every notification goes through: it publishes the delivery events. */
  configurationSet: string;
}

/**
 * The route of every notification, the contact function's, the retry job's and `npm run
 * messages -- resend`'s alike: the configured addresses and set, and the sender's name.
 */
export function mailRoute(config: { mailFrom: string; mailTo: string[]; configurationSet: string }): MailRoute {
  return { from: config.mailFrom, senderName: NOTIFICATION_TEXT.sender, to: config.mailTo, configurationSet: config.configurationSet };
}

/** Which e-mail of a message this is: 1 for the contact function's, one more for each retry or resend. */
export interface Attempt {
  messageId: string;
  number: number;
}

/** The number of the attempt about to be made on a stored message: one more than those recorded. */
export const nextAttempt = (message: Pick<StoredMessage, 'id' | 'attempts'>): Attempt => ({
  messageId: message.id,
  number: message.attempts + 1,
});

/** What makes SES publish an e-mail's delivery events, and tag them with its message and attempt. */
export function tracking(configurationSet: string, attempt: Attempt): Pick<SendEmailCommandInput, 'ConfigurationSetName' | 'Tags'> {
  return {
    ConfigurationSetName: configurationSet,
    Tags: [
      { Name: DELIVERY_TAGS.messageId, Value: attempt.messageId },
      { Name: DELIVERY_TAGS.attempt, Value: String(attempt.number) },
    ],
  };
}

/**
 * The SendEmail request for a stored message's attempt `attempt`. Replies go to the visitor,
 * not to MAIL_FROM.
 */
export function buildNotification<T extends FieldList = ContactFields>(
  message: NotifiedMessage<T> & Pick<FieldValues, 'name' | 'email' | 'company'> & Pick<StoredMessage, 'attempts'>,
  route: MailRoute,
  fields: T = CONTACT_FIELDS as FieldList as T,
): SendEmailCommandInput {
  return {
    ...tracking(route.configurationSet, nextAttempt(message)),
    // `Name <address>`, the name encoded as it needs (mail-header.ts); SES authorises the send by the address alone.
    Source: mailbox(route.senderName, route.from),
    Destination: { ToAddresses: route.to },
    ReplyToAddresses: [message.email],
    Message: {
      // Encoded by us when not plain, so nothing the visitor typed is read as an encoded word.
      Subject: { Data: headerText(subjectFor(message.name, message.company)), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(message, fields), Charset: 'UTF-8' },
        Html: { Data: htmlBody(message, fields), Charset: 'UTF-8' },
      },
    },
  };
}

/** Sends and returns SES's message id; throws whatever SES or the network throws. */
export async function sendNotification(ses: SESClient, input: SendEmailCommandInput): Promise<string> {
  const { MessageId } = await ses.send(new SendEmailCommand(input));
  if (!MessageId) throw new Error('SES accepted the e-mail without a MessageId');
  return MessageId;
}
