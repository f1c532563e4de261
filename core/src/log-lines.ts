/**
 * The one log line per retry run that CloudWatch metric filters read for the undelivered
 * and failed alarms. Plain constants, so the CDK stack builds its filters from these names
 * without loading the SDK clients.
 */
export const RETRY_RUN_LOG = { msg: 'retry-undelivered', pendingField: 'pending', failedField: 'failed' } as const;

/**
 * The one log line per contact request, and the outcomes in which the visitor's message was
 * not stored. A form post answers those with a 303 to the error page, not a 5xx, so the
 * API's 5xx alarm alone would miss them; a metric filter reads these instead.
 */
export const CONTACT_REQUEST_LOG = {
  msg: 'contact request',
  outcomeField: 'outcome',
  notStored: ['store_failed', 'config_error', 'unexpected_error'],
} as const;
