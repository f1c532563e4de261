/**
 * The log lines that CloudWatch metric filters count for the alarms: each line's `msg` and
 * the fields the filters read, defined once for the function that writes the line
 * (lambda/src/handlers) and the alarm that counts it (infra/lib/constructs/alarms.ts), so
 * the two cannot drift apart. Plain constants, so the CDK stack builds its filters from
 * them without loading the SDK clients.
 */

/** The one line per retry run: how many messages are still waiting, and how many were given up. */
export const RETRY_RUN_LOG = { msg: 'retry-undelivered', pendingField: 'pending', failedField: 'failed' } as const;

/**
 * The one line per contact request, and the outcomes in which the visitor's message was
 * not stored. A form post answers those with a 303 to the error page, not a 5xx, so the
 * API's 5xx alarm alone would miss them; a metric filter reads these instead.
 */
export const CONTACT_REQUEST_LOG = {
  msg: 'contact request',
  outcomeField: 'outcome',
  notStored: ['store_failed', 'config_error', 'unexpected_error'],
} as const;
