/**
 * The log lines that on call reads: each line's `msg` and the fields read from it, defined
 * once for the function that writes the line (lambda/src/handlers), the metric filters that
 * count delivery events for the alarms (infra/lib/constructs/alarms.ts) and the saved Logs
 * Insights queries (infra/lib/log-queries.ts), so they cannot drift apart. Plain constants, so
 * the CDK stack builds from them without loading the SDK clients.
 */

/**
 * The one line per retry run: how many messages are still waiting, how many were given up,
 * and how many SES accepted longer ago than the delivery alarm's time without confirming
 * their delivery.
 */
export const RETRY_RUN_LOG = {
  msg: 'retry-undelivered',
  /** A run that failed before its summary: the error's name and where it was thrown. */
  failedMsg: 'retry-undelivered failed',
  pendingField: 'pending',
  failedField: 'failed',
  notDeliveredField: 'notDelivered',
  /** Why the run's digest of held messages could not be read or sent. */
  digestErrorField: 'digestError',
} as const;

/**
 * The one line per contact request, and the outcomes in which the visitor's message was
 * not stored. A form post answers those with a 303 to the error page, not a 5xx, so the
 * API's 5xx alarm alone would miss them: the function counts them as not stored too, and
 * the saved query of the alarm on that count finds these lines. A held message's line says
 * why it was held (the spam wave's query counts by it); never its score or its signals, which
 * the log would keep after the message itself is gone (the privacy statement says so).
 */
export const CONTACT_REQUEST_LOG = {
  msg: 'contact request',
  outcomeField: 'outcome',
  notStored: ['store_failed', 'config_error', 'unexpected_error'],
  /** Refused before anything was read: no origin secret, or a wrong one. */
  notThroughCloudFront: ['not_through_cloudfront'],
  /** The outside check's marked post (core/src/outside-check.ts). */
  check: ['outside_check'],
  stored: ['stored_and_emailed', 'stored_held', 'stored_email_deferred'],
  heldField: 'heldFor',
  /** Every key a line may hold, and nothing else: the privacy statement names each (frontend's privacy.ts). */
  fields: [
    'level',
    'msg',
    'requestId',
    'outcome',
    'format',
    'status',
    'durationMs',
    'attempts',
    'messageId',
    'error',
    'where',
    'heldFor',
    'crossSite',
    'visitorLimit',
  ],
} as const;

/** A key of the contact request's log line. */
export type ContactRequestLogField = (typeof CONTACT_REQUEST_LOG.fields)[number];

/**
 * The one line per SES delivery event the consumer reads. `reports` is the status the event
 * stands for, whether or not it changed the stored message (a redelivered bounce is still a
 * bounce): the bounce alarm counts the ones in `alarming`. `outcome` is what the consumer did;
 * the ones in `unmatched` are events for no message it knows, counted in a metric of their own;
 * the ones in `notOurs` name a message but an attempt of it that was not made, or another SES
 * message id than its attempt's: not applied, counted, and alarmed (someone forges events).
 */
export const DELIVERY_EVENT_LOG = {
  msg: 'delivery event',
  reportsField: 'reports',
  outcomeField: 'outcome',
  alarming: ['bounced', 'complained', 'rejected'],
  unmatched: ['unknown_message', 'untagged', 'malformed'],
  notOurs: ['not_our_attempt'],
} as const;

/**
 * The outside check's one line per run: whether it passed, the step that failed and why (a
 * status, a missing text; never what a page holds beyond that), and each step's time.
 */
export const OUTSIDE_CHECK_LOG = {
  msg: 'outside check',
  passedField: 'passed',
  failedStepField: 'failedStep',
  problemField: 'problem',
} as const;
