/**
 * SES delivery events as the consumer receives them: the example records of "Examples of
 * event data that Amazon SES publishes to Amazon SNS" (SES Developer Guide), as they are
 * there, each the `detail` of an EventBridge event with SES's detail-type (EventBridge
 * events reference, SES). Only what ties a record to one of our e-mails is ours: the SES
 * message id, our message tags, the times, and a subject and Reply-To holding a visitor's
 * name and address, as ours do, so a test can prove neither reaches a log.
 */
import { randomUUID } from 'node:crypto';
import { DELIVERY_TAGS, type SesDetailType } from '@site/core/ses-events';

/** The documented mail object of the Bounce example, with its custom tags. */
function documentedMail() {
  return {
    timestamp: '2017-08-05T00:40:02.012Z',
    source: 'Sender Name <sender@example.com>',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: ['recipient@example.com'],
    headersTruncated: false,
    headers: [
      { name: 'From', value: 'Sender Name <sender@example.com>' },
      { name: 'To', value: 'recipient@example.com' },
      { name: 'Subject', value: 'Message sent from Amazon SES' },
      { name: 'MIME-Version', value: '1.0' },
      { name: 'Content-Type', value: 'multipart/alternative; boundary="----=_Part_7307378_1629847660.1516840721503"' },
    ],
    commonHeaders: {
      from: ['Sender Name <sender@example.com>'],
      to: ['recipient@example.com'],
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      subject: 'Message sent from Amazon SES',
    },
    tags: {
      'ses:configuration-set': ['ConfigSet'],
      'ses:source-ip': ['192.0.2.0'],
      'ses:from-domain': ['example.com'],
      'ses:caller-identity': ['ses_user'],
    },
  };
}

/** Each event type's own object, as the examples give it. */
const DOCUMENTED_OBJECTS = {
  'Email Sent': { eventType: 'Send', key: 'send', object: () => ({}) },
  'Email Delivered': {
    eventType: 'Delivery',
    key: 'delivery',
    object: () => ({
      timestamp: '2016-10-19T23:21:04.133Z',
      processingTimeMillis: 11893,
      recipients: ['recipient@example.com'],
      smtpResponse: '250 2.6.0 Message received',
      reportingMTA: 'mta.example.com',
    }),
  },
  'Email Delivery Delayed': {
    eventType: 'DeliveryDelay',
    key: 'deliveryDelay',
    object: () => ({
      timestamp: '2020-06-16T00:25:40.095Z',
      delayType: 'TransientCommunicationFailure',
      expirationTime: '2020-06-16T00:25:40.914Z',
      delayedRecipients: [
        { emailAddress: 'recipient@example.com', status: '4.4.1', diagnosticCode: 'smtp; 421 4.4.1 Unable to connect to remote host' },
      ],
    }),
  },
  'Email Bounced': {
    eventType: 'Bounce',
    key: 'bounce',
    object: () => ({
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        { emailAddress: 'recipient@example.com', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
      ],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      reportingMTA: 'dsn; mta.example.com',
    }),
  },
  'Email Complaint Received': {
    eventType: 'Complaint',
    key: 'complaint',
    object: () => ({
      complainedRecipients: [{ emailAddress: 'recipient@example.com' }],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.90 Safari/537.36',
      complaintFeedbackType: 'abuse',
      arrivalDate: '2017-08-05T00:41:02.669Z',
    }),
  },
  'Email Rejected': { eventType: 'Reject', key: 'reject', object: () => ({ reason: 'Bad content' }) },
  'Email Rendering Failed': {
    eventType: 'Rendering Failure',
    key: 'failure',
    object: () => ({ errorMessage: "Attribute 'attributeName' is not present in the rendering data.", templateName: 'MyTemplate' }),
  },
} as const satisfies Record<SesDetailType, { eventType: string; key: string; object: () => Record<string, unknown> }>;

/** A visitor, as our e-mails carry one: their name in the subject, their address as Reply-To. */
export const VISITOR = { name: 'Marieke van den Berg', email: 'marieke.vandenberg@voorbeeld-groothandel.nl' } as const;

export interface OurEmail {
  /** The stored message's id; undefined leaves our tags out, as for an e-mail someone else sent through the set. */
  messageId?: string;
  attempt?: number;
  sesMessageId: string;
  /** When the event happened (its own timestamp), default the documented one. */
  at?: string;
}

/** A new SES message id, in SES's shape. */
export const sesMessageId = () => `0102019${randomUUID().replace(/-/g, '')}-${randomUUID()}-000000`;

/** The EventBridge event SES publishes for `email`, built from the documented example of its type. */
export function sesEvent(detailType: SesDetailType, email: OurEmail, change: (record: Record<string, any>) => void = () => {}) {
  const { eventType, key, object } = DOCUMENTED_OBJECTS[detailType];
  const mail: Record<string, any> = documentedMail();
  mail.messageId = email.sesMessageId;
  mail.commonHeaders.messageId = email.sesMessageId;
  const subject = `Nieuw contactbericht van ${VISITOR.name}`;
  mail.commonHeaders.subject = subject;
  mail.commonHeaders.replyTo = [VISITOR.email];
  mail.headers = mail.headers.map((header: { name: string; value: string }) =>
    header.name === 'Subject' ? { ...header, value: subject } : header,
  );
  mail.headers.push({ name: 'Reply-To', value: VISITOR.email });
  if (email.messageId !== undefined) {
    mail.tags[DELIVERY_TAGS.messageId] = [email.messageId];
    mail.tags[DELIVERY_TAGS.attempt] = [String(email.attempt ?? 1)];
  }
  const detail: Record<string, any> = { eventType, mail, [key]: object() };
  if (email.at !== undefined && 'timestamp' in detail[key]) detail[key].timestamp = email.at;
  change(detail);
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source: 'aws.ses',
    account: '123456789012',
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'eu-west-1',
    resources: [],
    detail,
  };
}
