/**
 * The notification the firm receives for each message: built as plain data (no I/O, so
 * every escaping rule can be tested directly; the layout is in notification.ts, the words in
 * core's content) and sent through SES v1 SendEmail.
 */
import { SendEmailCommand, type SESClient, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { type ContactFields, type FieldTable, type FieldValues } from '@site/core/contract';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { htmlBody, subjectFor, textBody, type NotifiedMessage } from './notification';

export interface MailRoute {
  from: string;
  to: string[];
}

/** The SendEmail request for a stored message. Replies go to the visitor, not to MAIL_FROM. */
export function buildNotification<T extends FieldTable = ContactFields>(
  message: NotifiedMessage<T> & Pick<FieldValues, 'name' | 'email' | 'company'>,
  route: MailRoute,
  table: T = CONTACT_FIELDS as FieldTable as T,
): SendEmailCommandInput {
  return {
    Source: route.from,
    Destination: { ToAddresses: route.to },
    ReplyToAddresses: [message.email],
    Message: {
      Subject: { Data: subjectFor(message.name, message.company), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(message, table), Charset: 'UTF-8' },
        Html: { Data: htmlBody(message, table), Charset: 'UTF-8' },
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
