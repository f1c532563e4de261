/**
 * SES's delivery events, as EventBridge hands them to the consumer (`source` aws.ses, SES's
 * event record as `detail`), read into what the consumer records on the stored message.
 * Pure: parsing only (the recording is recordDeliveryOutcome in store.ts). Only what is
 * read is checked; the record's other fields (the subject, which holds the visitor's name,
 * the headers, the recipients' addresses) are never kept.
 */
import * as v from 'valibot';
import {
  DELIVERY_TAGS,
  SES_DETAIL_TYPES,
  SES_EVENT_SOURCE,
  SES_EVENTS,
  type SesDetailType,
  type SesEventType,
} from '@site/core/ses-events';
import { DELIVERY_OUTCOMES, type DeliveryOutcome, type DeliveryStatus } from '@site/core/table';

/** What one event means for the consumer. */
export type DeliveryReport =
  /** An outcome of an e-mail of ours: to record on its message. */
  | { kind: 'outcome'; eventType: SesEventType; messageId: string; outcome: DeliveryOutcome }
  /** SES accepted an e-mail: the sender recorded that itself. */
  | { kind: 'sent'; eventType: SesEventType; messageId?: string; sesMessageId: string }
  /** An outcome of the firm's digest (digest.ts): no message to record it on, only the log line the alarms count. */
  | { kind: 'digest'; eventType: SesEventType; status: DeliveryOutcome['status']; sesMessageId: string }
  /** An outcome of the outside check's e-mail (delivery.ts, sendCheckMail): no message either, only the log line. */
  | { kind: 'check'; eventType: SesEventType; status: DeliveryOutcome['status']; sesMessageId: string }
  /** An e-mail without our tags (sent through the set by something else). */
  | { kind: 'untagged'; eventType: SesEventType; sesMessageId: string }
  /** Not an SES event as documented; `problem` names the first thing wrong, never a value. */
  | { kind: 'malformed'; problem: string };

const TIMESTAMP = v.pipe(
  v.string(),
  v.check((value) => !Number.isNaN(Date.parse(value)), 'not a time'),
);

/** A bounced or delayed recipient: only what the mail server answered is read, never the address. */
const RECIPIENT = v.object({ diagnosticCode: v.optional(v.string()) });

/** The object of each event type, by its key in the record. */
const EVENT_OBJECTS = {
  send: v.object({}),
  delivery: v.object({ timestamp: TIMESTAMP }),
  deliveryDelay: v.object({ timestamp: TIMESTAMP, delayType: v.string(), delayedRecipients: v.optional(v.array(RECIPIENT), []) }),
  bounce: v.object({
    timestamp: TIMESTAMP,
    bounceType: v.string(),
    bounceSubType: v.string(),
    bouncedRecipients: v.optional(v.array(RECIPIENT), []),
  }),
  complaint: v.object({ timestamp: TIMESTAMP, complaintFeedbackType: v.optional(v.string()) }),
  reject: v.object({ reason: v.string() }),
  failure: v.object({ errorMessage: v.string() }),
} satisfies Record<(typeof SES_EVENTS)[SesDetailType]['object'], v.GenericSchema>;

const MAIL = v.object({
  messageId: v.string(),
  timestamp: TIMESTAMP,
  tags: v.optional(v.record(v.string(), v.array(v.string())), {}),
});

/** The envelope and the mail object; the event type's own object is read by its type. */
const ENVELOPE = v.object({
  'detail-type': v.picklist(SES_DETAIL_TYPES, 'not an SES e-mail event'),
  source: v.literal(SES_EVENT_SOURCE),
  detail: v.looseObject({ mail: MAIL }),
});

type Envelope = v.InferOutput<typeof ENVELOPE>;
type EventObjects = typeof EVENT_OBJECTS;

class Malformed extends Error {}

/** Where the first problem of a refused part is, by path, e.g. `detail.bounce.bounceType: …`. */
function problemOf(issues: readonly v.BaseIssue<unknown>[], prefix: string[] = []): string {
  const [issue] = issues;
  const path = [...prefix, ...(issue?.path ?? []).map((item) => String(item.key))].join('.');
  return path ? `${path}: ${issue!.message}` : (issue?.message ?? 'not an SES e-mail event');
}

/** The event type's own object in the record, as its schema reads it. */
function objectOf<K extends keyof EventObjects>(detail: Envelope['detail'], key: K): v.InferOutput<EventObjects[K]> {
  const result = v.safeParse(EVENT_OBJECTS[key], detail[key]);
  if (!result.success) throw new Malformed(problemOf(result.issues, ['detail', key]));
  return result.output;
}

/** Tag values are ASCII letters, digits, `_` and `-` (SES refuses others); anything else is not ours. */
const TAG_VALUE = /^[A-Za-z0-9_-]{1,128}$/;
const ATTEMPT = /^[1-9]\d{0,5}$/;
/** Room for a few mail servers' answers; the table item stays far below DynamoDB's limit. */
const MAX_DIAGNOSTIC_LENGTH = 1000;

function tag(tags: Record<string, string[]>, name: string, pattern: RegExp): string | undefined {
  const value = tags[name]?.[0];
  return value !== undefined && pattern.test(value) ? value : undefined;
}

/** The mail servers' answers for the recipients, each once. */
function diagnostics(recipients: readonly { diagnosticCode?: string }[]): string | undefined {
  const codes = [...new Set(recipients.flatMap((recipient) => (recipient.diagnosticCode ? [recipient.diagnosticCode] : [])))];
  return codes.length === 0 ? undefined : codes.join(' | ').slice(0, MAX_DIAGNOSTIC_LENGTH);
}

type Findings = { status: DeliveryStatus; at: string } & Pick<
  DeliveryOutcome,
  'bounceType' | 'bounceSubType' | 'diagnosticCode' | 'reason'
>;

/** What an event of each kind says happened, and when; undefined for Send, which reports nothing new. */
function findingsOf(event: Envelope): Findings | undefined {
  const { detail } = event;
  switch (event['detail-type']) {
    case 'Email Sent':
      objectOf(detail, 'send');
      return undefined;
    case 'Email Delivered':
      return { status: 'delivered', at: objectOf(detail, 'delivery').timestamp };
    case 'Email Delivery Delayed': {
      const delay = objectOf(detail, 'deliveryDelay');
      return { status: 'delayed', at: delay.timestamp, reason: delay.delayType, diagnosticCode: diagnostics(delay.delayedRecipients) };
    }
    case 'Email Bounced': {
      const bounce = objectOf(detail, 'bounce');
      return {
        status: 'bounced',
        at: bounce.timestamp,
        bounceType: bounce.bounceType,
        bounceSubType: bounce.bounceSubType,
        diagnosticCode: diagnostics(bounce.bouncedRecipients),
      };
    }
    case 'Email Complaint Received': {
      const complaint = objectOf(detail, 'complaint');
      return { status: 'complained', at: complaint.timestamp, reason: complaint.complaintFeedbackType };
    }
    // Neither carries a time of its own: SES decided when it accepted the e-mail.
    case 'Email Rejected':
      return { status: 'rejected', at: detail.mail.timestamp, reason: objectOf(detail, 'reject').reason };
    case 'Email Rendering Failed':
      objectOf(detail, 'failure');
      return { status: 'rejected', at: detail.mail.timestamp, reason: 'Rendering Failure' };
  }
}

/** Leaves out what the event did not say, so the stored outcome holds no empty attributes. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

export function readDeliveryEvent(input: unknown): DeliveryReport {
  const parsed = v.safeParse(ENVELOPE, input);
  if (!parsed.success) return { kind: 'malformed', problem: problemOf(parsed.issues) };
  const event = parsed.output;
  const { eventType } = SES_EVENTS[event['detail-type']];
  const { mail } = event.detail;
  const messageId = tag(mail.tags, DELIVERY_TAGS.messageId, TAG_VALUE);
  const attempt = tag(mail.tags, DELIVERY_TAGS.attempt, ATTEMPT);
  let findings: Findings | undefined;
  try {
    findings = findingsOf(event);
  } catch (error) {
    if (error instanceof Malformed) return { kind: 'malformed', problem: error.message };
    throw error;
  }
  if (findings === undefined) return { kind: 'sent', eventType, messageId, sesMessageId: mail.messageId };
  if (tag(mail.tags, DELIVERY_TAGS.digest, TAG_VALUE) !== undefined) {
    return { kind: 'digest', eventType, status: findings.status, sesMessageId: mail.messageId };
  }
  if (tag(mail.tags, DELIVERY_TAGS.check, TAG_VALUE) !== undefined) {
    return { kind: 'check', eventType, status: findings.status, sesMessageId: mail.messageId };
  }
  if (messageId === undefined || attempt === undefined) return { kind: 'untagged', eventType, sesMessageId: mail.messageId };
  return {
    kind: 'outcome',
    eventType,
    messageId,
    outcome: withoutUndefined({
      ...findings,
      attempt: Number(attempt),
      precedence: DELIVERY_OUTCOMES[findings.status],
      sesMessageId: mail.messageId,
    }),
  };
}
