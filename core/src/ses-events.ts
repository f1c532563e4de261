/**
 * SES's e-mail sending events as a configuration set publishes them to EventBridge: each
 * event's detail-type, the record's `eventType` in its `detail`, the key of the object in the
 * record that describes the event, and the event type as a configuration set's destination
 * names it. One table for the stack (which events the set publishes and the rule forwards),
 * the consumer that reads them and the local stack's mailbox simulator that makes them.
 * The record itself is SES's: see "Contents of event data that Amazon SES publishes".
 */

/** The `source` of every event SES puts on the EventBridge default bus. */
export const SES_EVENT_SOURCE = 'aws.ses';

export const SES_EVENTS = {
  'Email Sent': { eventType: 'Send', object: 'send', published: 'send' },
  'Email Delivered': { eventType: 'Delivery', object: 'delivery', published: 'delivery' },
  'Email Delivery Delayed': { eventType: 'DeliveryDelay', object: 'deliveryDelay', published: 'deliveryDelay' },
  'Email Bounced': { eventType: 'Bounce', object: 'bounce', published: 'bounce' },
  'Email Complaint Received': { eventType: 'Complaint', object: 'complaint', published: 'complaint' },
  'Email Rejected': { eventType: 'Reject', object: 'reject', published: 'reject' },
  'Email Rendering Failed': { eventType: 'Rendering Failure', object: 'failure', published: 'renderingFailure' },
} as const;

export type SesDetailType = keyof typeof SES_EVENTS;
export type SesEventType = (typeof SES_EVENTS)[SesDetailType]['eventType'];

/** The detail-types, in the table's order. */
export const SES_DETAIL_TYPES = Object.keys(SES_EVENTS) as SesDetailType[];

/** The tag SES adds to every e-mail sent through a configuration set, with the set's name. */
export const CONFIGURATION_SET_TAG = 'ses:configuration-set';

/**
 * The SES message tags of a notification. SES hands them back in every delivery event of
 * the e-mail (`mail.tags`), so the consumer finds the stored message by its key, and knows
 * which attempt the event is about: an event of an earlier attempt never overrides a later
 * one's. The firm's digest of held messages carries `digest` instead, and the outside check's
 * e-mail `check` (core/src/outside-check.ts): their events belong to no message. Tag values may
 * hold only ASCII letters, digits, `_` and `-`: a ULID and a number do.
 */
export const DELIVERY_TAGS = {
  messageId: 'contact-message',
  attempt: 'contact-attempt',
  digest: 'contact-digest',
  check: 'contact-check',
} as const;
