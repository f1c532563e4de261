/**
 * The contact path's metrics, one row each: what the functions count as CloudWatch Embedded
 * Metric Format lines (lambda/src/shared/metrics.ts), and what the dashboard draws, the alarms watch,
 * the local stack's counts page shows and the tests check, all read from this table. A new
 * metric is one row here and one call where the function counts it.
 *
 * Every metric is in one namespace with the stage as a dimension; a metric with a `dimension`
 * is counted once per value of it (why a post was refused, what SES reported). Nothing a
 * visitor sent is ever a dimension. Plain constants, so the CDK stack and the function read
 * them without loading anything else.
 */
import { APP_NAME, type FunctionName } from './names';
import { HELD_FOR } from './spam';
import { DELIVERY_OUTCOMES, type DeliveryStatus } from './table';

/** The one namespace of every stage's metrics. */
export const METRIC_NAMESPACE = APP_NAME;

/** The dimension every metric carries: the stage whose function counted it (FUNCTION_ENV.stage). */
export const STAGE_DIMENSION = 'Stage';

/**
 * Why the contact function refused a post from the site: a body it could not take or that
 * failed validation (`invalid`, 400/405/415/422), one over its size limit (`too-large`, 413),
 * a post from another site's page (`cross-site`, 403), a visitor over their limit
 * (`visitor-limit`, 429). A call around CloudFront is no post from the site: the API's own 4xx
 * counts it.
 */
export const REFUSAL_REASONS = ['invalid', 'too-large', 'cross-site', 'visitor-limit'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What SES reported about an e-mail, in the order of DELIVERY_OUTCOMES. */
export const DELIVERY_STATUSES = Object.keys(DELIVERY_OUTCOMES) as DeliveryStatus[];

/** The functions that count, by their handler's name (lambda/src/handlers); each writes to its own log group. */
export type MetricWriter = FunctionName;

export interface MetricSpec {
  /**
   * `count`: one per event, summed per period, written only when something happened.
   * `gauge`: a level the writer reports on every run, read by its minimum or maximum.
   */
  kind: 'count' | 'gauge';
  writers: readonly MetricWriter[];
  /** What one of it is, for the local counts page and the guide. */
  means: string;
  /**
   * Which of the dashboard's graphs draws it: `path`, the way through (received to delivered);
   * `off`, what left the path (refused, not stored); `retry`, the retry job's work and backlog;
   * `check`, the outside check's runs and its posts.
   */
  graph: 'path' | 'off' | 'retry' | 'check';
  /** Counted once per value of this dimension. */
  dimension?: { name: string; values: readonly string[] };
}

export const PATH_METRICS = {
  Received: {
    kind: 'count',
    graph: 'path',
    writers: ['send-contact-email'],
    means: 'posts from the site’s pages that reached the contact function',
  },
  Stored: { kind: 'count', graph: 'path', writers: ['send-contact-email'], means: 'new messages stored' },
  Held: {
    kind: 'count',
    graph: 'off',
    writers: ['send-contact-email'],
    means: 'stored messages held for the digest instead of e-mailed, by why (suspect, or the mail budget spent)',
    dimension: { name: 'Reason', values: HELD_FOR },
  },
  Refused: {
    kind: 'count',
    graph: 'off',
    writers: ['send-contact-email'],
    means: 'posts refused, by reason',
    dimension: { name: 'Reason', values: REFUSAL_REASONS },
  },
  NotStored: {
    kind: 'count',
    graph: 'off',
    writers: ['send-contact-email'],
    means: 'messages that could not be stored (the visitor was asked to try again)',
  },
  NotThroughCloudFront: {
    kind: 'count',
    graph: 'off',
    writers: ['send-contact-email'],
    means:
      'requests refused for want of the origin secret: a call around CloudFront, or every post and challenge while CloudFront sends a wrong one',
  },
  Emailed: {
    kind: 'count',
    graph: 'path',
    writers: ['send-contact-email', 'retry-undelivered'],
    means: 'messages SES accepted for the firm',
  },
  Digested: {
    kind: 'count',
    graph: 'retry',
    writers: ['retry-undelivered'],
    means: 'held messages the firm’s hourly digest counted',
  },
  DigestFailed: {
    kind: 'count',
    graph: 'retry',
    writers: ['retry-undelivered'],
    means: 'retry runs whose digest of held messages could not be read or sent (the next run tries again)',
  },
  Retried: { kind: 'count', graph: 'retry', writers: ['retry-undelivered'], means: 'e-mail attempts of the retry job' },
  GivenUp: { kind: 'count', graph: 'retry', writers: ['retry-undelivered'], means: 'messages the retry job gave up on (status failed)' },
  RetryBacklog: {
    kind: 'gauge',
    graph: 'retry',
    writers: ['retry-undelivered'],
    means: 'stored messages still waiting for their e-mail after a retry run',
  },
  NotDelivered: {
    kind: 'gauge',
    graph: 'retry',
    writers: ['retry-undelivered'],
    means: 'messages SES accepted longer ago than deliveryAlarmHours without a delivery event',
  },
  DeliveryOutcomes: {
    kind: 'count',
    graph: 'path',
    writers: ['record-delivery-event'],
    means: 'delivery events recorded on a message, by what SES reported',
    dimension: { name: 'Outcome', values: DELIVERY_STATUSES },
  },
  OutsideCheck: {
    kind: 'gauge',
    graph: 'check',
    writers: ['outside-check'],
    means: 'the outside check’s run: 1 when the page, an asset, the challenge and a complete post all worked, 0 when one did not',
  },
  CheckPosts: {
    kind: 'count',
    graph: 'check',
    writers: ['send-contact-email'],
    means: 'the outside check’s posts the contact function stored, to be e-mailed to SES’s mailbox simulator, never the firm',
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricName = keyof typeof PATH_METRICS;

export const METRIC_NAMES = Object.keys(PATH_METRICS) as MetricName[];

/** The metrics counted once per value of a dimension. */
export type DimensionedMetric = {
  [Name in MetricName]: (typeof PATH_METRICS)[Name] extends { dimension: object } ? Name : never;
}[MetricName];

export type PlainMetric = Exclude<MetricName, DimensionedMetric>;

/** The values a dimensioned metric is counted by. */
export type DimensionValue<Name extends DimensionedMetric> = (typeof PATH_METRICS)[Name]['dimension']['values'][number];
