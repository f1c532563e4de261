/**
 * The one log line per retry run that CloudWatch metric filters read for the undelivered
 * and failed alarms. Plain constants, so the CDK stack builds its filters from these names
 * without loading the SDK clients.
 */
export const RETRY_RUN_LOG = { msg: 'retry-undelivered', pendingField: 'pending', failedField: 'failed' } as const;
