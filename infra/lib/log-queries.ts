/**
 * The saved Logs Insights queries on call starts from, and which one each alarm links to: the
 * log lines behind an alarm, newest first, with the fields that say what went wrong. Built from
 * the log lines' own definitions (core/src/log-lines.ts), so a query cannot look for a message
 * a function no longer writes. Each is a QueryDefinition of the site stack
 * (constructs/log-queries.ts), named `<prefix>/<name>` (a folder per stage in the console).
 */
import type { QueryStringProps } from 'aws-cdk-lib/aws-logs';
import { CONTACT_REQUEST_LOG, DELIVERY_EVENT_LOG, OUTSIDE_CHECK_LOG, RETRY_RUN_LOG } from '@site/core/log-lines';
import { OUTSIDE_CHECK_STEPS } from '@site/core/outside-check';
import type { MetricWriter } from '@site/core/metric-names';
import type { AlarmName } from './alarm-catalogue';

/**
 * Where a query reads: a function's log group, the API stage's access log, or CloudFront's
 * access log (in us-east-1, where CloudFront delivers it: edge-alarms-stack.ts).
 */
export type LogSource = MetricWriter | 'api-access-log';
export type EdgeLogSource = 'cloudfront-access-log';

export interface LogQuery<Source = LogSource> {
  /** What its results are, for the dashboard's list. */
  shows: string;
  sources: readonly Source[];
  query: QueryStringProps;
}

const list = (values: readonly string[]) => `[${values.map((value) => `'${value}'`).join(', ')}]`;

/**
 * A function's failures: its own error lines (`level` error), and the Lambda runtime's in the
 * JSON log format (an uncaught error's `ERROR` with errorType and errorMessage, a timeout's or
 * crash's platform record). `error` is the function's own account of a failure and `where` the
 * positions it was thrown at (lambda/src/shared/log.ts: errorLocation; `npm run where` maps them back
 * to the TypeScript), in backticks as Logs Insights quotes a field name that could read as a
 * keyword; `@message` shows the whole line, whatever else it carries.
 */
const FAILED = `level in ['error', 'ERROR'] or record.status in ['timeout', 'error', 'failure']`;
const FAILURE_FIELDS = ['error', '`where`', 'errorType', 'errorMessage', '@message'];
const NEWEST_FIRST = { sort: '@timestamp desc', limit: 200 } as const;

export const LOG_QUERIES = {
  'server-errors': {
    shows: 'the 5xx answers of the API and the contact function’s failures, side by side',
    sources: ['send-contact-email', 'api-access-log'],
    query: {
      fields: ['@timestamp', '@log', 'status', 'outcome', 'integrationError', ...FAILURE_FIELDS],
      // The access log writes its status as text, the function's line as a number.
      filterStatements: [`status >= 500 or status like /^5\\d\\d$/ or ${FAILED}`],
      ...NEWEST_FIRST,
    },
  },
  'contact-errors': {
    shows: 'the contact function’s failures: its error lines, uncaught errors and timeouts',
    sources: ['send-contact-email'],
    query: {
      fields: ['@timestamp', 'requestId', 'outcome', 'format', 'status', ...FAILURE_FIELDS],
      filterStatements: [FAILED],
      ...NEWEST_FIRST,
    },
  },
  'not-stored': {
    shows: 'the requests whose message could not be stored, and why',
    sources: ['send-contact-email'],
    query: {
      fields: ['@timestamp', 'requestId', 'outcome', 'format', 'status', ...FAILURE_FIELDS],
      filterStatements: [
        `msg = '${CONTACT_REQUEST_LOG.msg}' and ${CONTACT_REQUEST_LOG.outcomeField} in ${list(CONTACT_REQUEST_LOG.notStored)}`,
      ],
      ...NEWEST_FIRST,
    },
  },
  'retry-runs': {
    shows: 'the retry job’s runs (what it found waiting, gave up, found undelivered), each attempt and its failures',
    sources: ['retry-undelivered'],
    query: {
      fields: [
        '@timestamp',
        'msg',
        'messageId',
        'outcome',
        'attempts',
        RETRY_RUN_LOG.pendingField,
        RETRY_RUN_LOG.failedField,
        RETRY_RUN_LOG.notDeliveredField,
        RETRY_RUN_LOG.digestErrorField,
        'recordError',
        ...FAILURE_FIELDS,
      ],
      // Its own lines all have a msg (its metric lines none); the runtime's failures have none either.
      filterStatements: [`ispresent(msg) or ${FAILED}`],
      ...NEWEST_FIRST,
    },
  },
  'delivery-problems': {
    shows: 'the bounces, complaints and rejects SES reported, with the mail server’s diagnostic type',
    sources: ['record-delivery-event'],
    query: {
      fields: [
        '@timestamp',
        'messageId',
        DELIVERY_EVENT_LOG.reportsField,
        'bounceType',
        'bounceSubType',
        'attempt',
        'sesMessageId',
        'outcome',
      ],
      filterStatements: [
        `msg = '${DELIVERY_EVENT_LOG.msg}' and ${DELIVERY_EVENT_LOG.reportsField} in ${list(DELIVERY_EVENT_LOG.alarming)}`,
      ],
      ...NEWEST_FIRST,
    },
  },
  'delivery-events-not-applied': {
    shows: 'the delivery events the consumer did not apply: another attempt’s, no message’s, unreadable ones',
    sources: ['record-delivery-event'],
    query: {
      fields: ['@timestamp', DELIVERY_EVENT_LOG.outcomeField, 'eventType', 'messageId', 'attempt', 'sesMessageId', 'problem', 'eventId'],
      filterStatements: [
        `msg = '${DELIVERY_EVENT_LOG.msg}' and ${DELIVERY_EVENT_LOG.outcomeField} in ${list([...DELIVERY_EVENT_LOG.notOurs, ...DELIVERY_EVENT_LOG.unmatched])}`,
      ],
      ...NEWEST_FIRST,
    },
  },
  'delivery-event-errors': {
    shows: 'the delivery-event consumer’s failures: records it could not write, uncaught errors, timeouts',
    sources: ['record-delivery-event'],
    query: { fields: ['@timestamp', 'eventId', 'messageId', 'outcome', ...FAILURE_FIELDS], filterStatements: [FAILED], ...NEWEST_FIRST },
  },
  'stored-and-held': {
    shows: 'the messages stored per hour, by outcome (e-mailed, held, deferred) and why held',
    sources: ['send-contact-email'],
    query: {
      filterStatements: [
        `msg = '${CONTACT_REQUEST_LOG.msg}' and ${CONTACT_REQUEST_LOG.outcomeField} in ${list(CONTACT_REQUEST_LOG.stored)}`,
      ],
      statsStatements: [`count(*) as messages by bin(1h) as hour, ${CONTACT_REQUEST_LOG.outcomeField}, ${CONTACT_REQUEST_LOG.heldField}`],
      sort: 'hour desc',
      limit: 200,
    },
  },
  'api-answers': {
    shows: 'what the API answered, by status, per 5 minutes: throttled 429s, refused 4xx, 5xx',
    sources: ['api-access-log'],
    query: { statsStatements: ['count(*) as answers by bin(5m) as period, status'], sort: 'period desc', limit: 200 },
  },
  'outside-check': {
    shows: 'each run of the outside check: passed or not, the step that failed and why, each step’s time',
    sources: ['outside-check'],
    query: {
      fields: [
        '@timestamp',
        OUTSIDE_CHECK_LOG.passedField,
        OUTSIDE_CHECK_LOG.failedStepField,
        OUTSIDE_CHECK_LOG.problemField,
        ...OUTSIDE_CHECK_STEPS.map((step) => `${step}Ms`),
        ...FAILURE_FIELDS,
      ],
      filterStatements: [`msg = '${OUTSIDE_CHECK_LOG.msg}' or ${FAILED}`],
      ...NEWEST_FIRST,
    },
  },
  'not-through-cloudfront': {
    shows: 'the requests refused for want of the origin secret, beside the API’s 403 answers and their paths',
    sources: ['send-contact-email', 'api-access-log'],
    query: {
      fields: ['@timestamp', '@log', 'requestId', 'outcome', 'method', 'path', 'status'],
      filterStatements: [
        `(msg = '${CONTACT_REQUEST_LOG.msg}' and ${CONTACT_REQUEST_LOG.outcomeField} in ${list(CONTACT_REQUEST_LOG.notThroughCloudFront)}) or status = '403'`,
      ],
      ...NEWEST_FIRST,
    },
  },
  'slow-requests': {
    shows: 'the contact function’s slowest requests, with their outcome and attempts',
    sources: ['send-contact-email'],
    query: {
      fields: ['@timestamp', 'requestId', 'outcome', 'format', 'status', 'durationMs', 'attempts', 'error'],
      filterStatements: [`msg = '${CONTACT_REQUEST_LOG.msg}'`],
      sort: 'durationMs desc',
      limit: 50,
    },
  },
} as const satisfies Record<string, LogQuery>;

export type LogQueryName = keyof typeof LOG_QUERIES;

/**
 * The queries of us-east-1, over CloudFront's access log (only the fields on call reads: no
 * address, referrer, query string or user agent; constructs/cloudfront-access-log.ts).
 */
export const EDGE_LOG_QUERIES = {
  'cloudfront-access': {
    shows: 'what CloudFront answered with a 4xx or 5xx: the path, the status and why (`x-edge-detailed-result-type`), and where',
    sources: ['cloudfront-access-log'],
    query: {
      fields: [
        '@timestamp',
        '`sc-status`',
        '`cs-method`',
        '`cs-uri-stem`',
        '`x-edge-detailed-result-type`',
        '`x-edge-location`',
        '`time-taken`',
      ],
      // The status as a number or as text, whichever the delivery wrote.
      filterStatements: ['`sc-status` >= 400 or `sc-status` like /^[45]\\d\\d$/'],
      ...NEWEST_FIRST,
    },
  },
} as const satisfies Record<string, LogQuery<EdgeLogSource>>;

export type EdgeLogQueryName = keyof typeof EDGE_LOG_QUERIES;

export const isEdgeQuery = (name: LogQueryName | EdgeLogQueryName): name is EdgeLogQueryName => Object.hasOwn(EDGE_LOG_QUERIES, name);

/** The query each alarm's description links to: where its cause shows. */
export const ALARM_QUERIES: Record<AlarmName, LogQueryName | EdgeLogQueryName> = {
  Api5xx: 'server-errors',
  SendFunctionErrors: 'contact-errors',
  MessagesNotStored: 'not-stored',
  CloudFront5xxRate: 'cloudfront-access',
  OutsideCheckFailed: 'outside-check',
  ContactPathDown: 'outside-check',
  Site4xxRate: 'cloudfront-access',
  EdgeFunctionErrors: 'cloudfront-access',
  CertificateExpiry: 'outside-check',
  PostsNotThroughCloudFront: 'not-through-cloudfront',
  SendFunctionSlow: 'slow-requests',
  SpamWave: 'stored-and-held',
  MessagesUndelivered: 'retry-runs',
  MessagesFailed: 'retry-runs',
  RetryJobNotRunning: 'retry-runs',
  RetryFunctionErrors: 'retry-runs',
  DigestFailed: 'retry-runs',
  DeliveryProblems: 'delivery-problems',
  MessagesNotDelivered: 'retry-runs',
  DeliveryEventsNotOurs: 'delivery-events-not-applied',
  DeliveryEventFunctionErrors: 'delivery-event-errors',
  SendFunctionThrottles: 'api-answers',
  SesBounceRate: 'delivery-problems',
  SesComplaintRate: 'delivery-problems',
  MailBudgetSpent: 'stored-and-held',
  MessagesStoredSurge: 'stored-and-held',
  ManySuspectMessages: 'stored-and-held',
  Api4xxSurge: 'api-answers',
  WafBlockedRequests: 'api-answers',
};
