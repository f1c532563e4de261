/**
 * What SES publishes for an e-mail sent through a configuration set, as the SES mailbox
 * simulator's addresses make it happen: `bounce@simulator.amazonses.com` a Bounce,
 * `complaint@…` a Delivery and then a Complaint, `suppressionlist@…` the bounce of an address
 * on the suppression list, and every other address (`success@…`, the local stack's own
 * recipient) a Delivery. A `+label` after the local part is ignored, as SES ignores it.
 * Each event is SES's record ("Contents of event data that Amazon SES publishes") wrapped as
 * EventBridge delivers it to the consumer. Pure: the local SES (local-ses.ts) sends them.
 */
import { randomUUID } from 'node:crypto';
import { CONFIGURATION_SET_TAG, SES_EVENT_SOURCE, SES_EVENTS, type SesDetailType } from '@site/core/ses-events';
import { EMULATOR_REGION } from './connections';

/** The account the local stand-ins pretend to be; SES's records always name one. */
export const LOCAL_ACCOUNT = '000000000000';
export const SIMULATOR_DOMAIN = 'simulator.amazonses.com';

/** An e-mail the local SES accepted: what SendEmail asked for, and the id it answered with. */
export interface AcceptedEmail {
  messageId: string;
  source: string;
  to: string[];
  replyTo: string[];
  subject: string;
  configurationSet: string;
  /** The message tags of the send, by name. */
  tags: Record<string, string>;
  /** When it was accepted. */
  at: Date;
}

export interface SesEventBridgeEvent {
  version: '0';
  id: string;
  'detail-type': SesDetailType;
  source: typeof SES_EVENT_SOURCE;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

type Fate = 'delivered' | 'bounced' | 'suppressed' | 'complained';

/** What the mailbox simulator does with mail to `address`. */
export function fateOf(address: string): Fate {
  const [local = '', domain = ''] = address.toLowerCase().split('@');
  if (domain !== SIMULATOR_DOMAIN) return 'delivered';
  switch (local.split('+')[0]) {
    case 'bounce':
      return 'bounced';
    case 'suppressionlist':
      return 'suppressed';
    case 'complaint':
      return 'complained';
    default:
      return 'delivered';
  }
}

/** The address of a Source that may carry a display name (`Name <address>`): SES's identity is the address. */
const addressOf = (source: string) => /<([^<>]+)>\s*$/.exec(source)?.[1] ?? source;

/** The record's mail object, as SES writes it for every event of the e-mail. */
function mailObject(email: AcceptedEmail) {
  const address = addressOf(email.source);
  const from = address.split('@')[1] ?? '';
  return {
    timestamp: email.at.toISOString(),
    source: email.source,
    sourceArn: `arn:aws:ses:${EMULATOR_REGION}:${LOCAL_ACCOUNT}:identity/${address}`,
    sendingAccountId: LOCAL_ACCOUNT,
    messageId: email.messageId,
    destination: email.to,
    headersTruncated: false,
    headers: [
      { name: 'From', value: email.source },
      ...email.replyTo.map((address) => ({ name: 'Reply-To', value: address })),
      { name: 'To', value: email.to.join(', ') },
      { name: 'Subject', value: email.subject },
      { name: 'MIME-Version', value: '1.0' },
      { name: 'Content-Type', value: 'multipart/alternative; boundary="----=_Part_0_local"' },
    ],
    commonHeaders: { from: [email.source], replyTo: email.replyTo, to: email.to, messageId: email.messageId, subject: email.subject },
    tags: {
      [CONFIGURATION_SET_TAG]: [email.configurationSet],
      'ses:source-ip': ['127.0.0.1'],
      'ses:from-domain': [from],
      'ses:caller-identity': ['local'],
      ...Object.fromEntries(Object.entries(email.tags).map(([name, value]) => [name, [value]])),
    },
  };
}

const REPORTING_MTA = `a1-2.smtp-out.${EMULATOR_REGION}.amazonses.com`;

/** The event object of each outcome, for the recipients it is about, at `at`. */
function eventObject(fate: Fate | 'sent', recipients: string[], at: Date, email: AcceptedEmail): [SesDetailType, unknown] {
  const timestamp = at.toISOString();
  const feedbackId = `${email.messageId}-feedback`;
  switch (fate) {
    case 'sent':
      return ['Email Sent', {}];
    case 'delivered':
      return [
        'Email Delivered',
        {
          timestamp,
          processingTimeMillis: at.getTime() - email.at.getTime(),
          recipients,
          smtpResponse: '250 2.6.0 Message received',
          reportingMTA: REPORTING_MTA,
        },
      ];
    case 'bounced':
    case 'suppressed':
      return [
        'Email Bounced',
        {
          bounceType: 'Permanent',
          bounceSubType: fate === 'bounced' ? 'General' : 'OnAccountSuppressionList',
          bouncedRecipients: recipients.map((emailAddress) =>
            fate === 'bounced'
              ? { emailAddress, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }
              : {
                  emailAddress,
                  action: 'failed',
                  status: '5.1.1',
                  diagnosticCode:
                    'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
                },
          ),
          timestamp,
          feedbackId,
          reportingMTA: `dsn; ${REPORTING_MTA}`,
        },
      ];
    case 'complained':
      return [
        'Email Complaint Received',
        {
          complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })),
          timestamp,
          feedbackId,
          userAgent: 'Amazon SES Mailbox Simulator',
          complaintFeedbackType: 'abuse',
          arrivalDate: timestamp,
        },
      ];
  }
}

function eventBridgeEvent(detailType: SesDetailType, object: unknown, email: AcceptedEmail, at: Date): SesEventBridgeEvent {
  const { eventType, object: key } = SES_EVENTS[detailType];
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source: SES_EVENT_SOURCE,
    account: LOCAL_ACCOUNT,
    time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: EMULATOR_REGION,
    resources: [],
    detail: { eventType, mail: mailObject(email), [key]: object },
  };
}

/**
 * Every event SES would publish for `email`, in the order it would: Send, then one Delivery
 * for the recipients it delivered to, one Bounce for those that bounced, and a Complaint for
 * each complaining one after its delivery. `at` is when the mail servers answered.
 */
export function simulatedEvents(email: AcceptedEmail, at: Date): SesEventBridgeEvent[] {
  const byFate = new Map<Fate, string[]>();
  for (const address of email.to) {
    const fate = fateOf(address);
    // A complaint comes from a mailbox the e-mail was delivered to.
    for (const outcome of fate === 'complained' ? (['delivered', 'complained'] as const) : [fate]) {
      byFate.set(outcome, [...(byFate.get(outcome) ?? []), address]);
    }
  }
  const order: Fate[] = ['delivered', 'bounced', 'suppressed', 'complained'];
  return [
    eventBridgeEvent(...eventObject('sent', email.to, email.at, email), email, email.at),
    ...order.flatMap((fate) => {
      const recipients = byFate.get(fate);
      return recipients ? [eventBridgeEvent(...eventObject(fate, recipients, at, email), email, at)] : [];
    }),
  ];
}
