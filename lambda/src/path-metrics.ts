/**
 * What each function counts on the path (core/src/metric-names.ts), from what it did: the
 * contact function from how a request ended, the retry job from its run's summary, the
 * delivery-event consumer from the event it recorded. Pure; lambda/src/metrics.ts writes them.
 */
import type { RefusalReason } from '@site/core/metric-names';
import type { HeldFor } from '@site/core/spam';
import type { Outcome } from './contact-answer';
import type { DeliveryReport } from './delivery-events';
import type { MetricValue } from './metrics';
import type { RetrySummary } from './retry';

const RECEIVED: MetricValue = { name: 'Received', value: 1 };
const NOT_STORED: MetricValue[] = [RECEIVED, { name: 'NotStored', value: 1 }];
const refused = (reason: RefusalReason): MetricValue[] => [RECEIVED, { name: 'Refused', value: 1, by: reason }];

/**
 * One contact request: received, then stored and e-mailed, refused and why, or not stored.
 * `status` is the answer's own, before a form post is sent on to its page. A request without
 * the origin secret is no post from the site (a call around CloudFront, or every post while
 * CloudFront sends a wrong secret): counted as that alone. The outside check's post counts in a
 * metric of its own and in none of the path's, so no alarm on visitors' messages moves for it.
 */
export function contactMetrics(outcome: Outcome, status: number, heldFor: HeldFor = 'suspect'): MetricValue[] {
  const byOutcome: Record<Outcome, MetricValue[]> = {
    stored_and_emailed: [RECEIVED, { name: 'Stored', value: 1 }, { name: 'Emailed', value: 1 }],
    stored_email_deferred: [RECEIVED, { name: 'Stored', value: 1 }],
    stored_held: [RECEIVED, { name: 'Stored', value: 1 }, { name: 'Held', value: 1, by: heldFor }],
    // A repeat of a stored message: received, nothing more.
    duplicate: [RECEIVED],
    // A proof-of-work challenge for the page's script: no post.
    challenge: [],
    invalid: refused(status === 413 ? 'too-large' : 'invalid'),
    idempotency_conflict: refused('invalid'),
    cross_site: refused('cross-site'),
    visitor_limited: refused('visitor-limit'),
    not_through_cloudfront: [{ name: 'NotThroughCloudFront', value: 1 }],
    outside_check: status === 200 ? [{ name: 'CheckPosts', value: 1 }] : [],
    store_failed: NOT_STORED,
    config_error: NOT_STORED,
    unexpected_error: NOT_STORED,
  };
  return byOutcome[outcome];
}

/** One retry run: its attempts, the e-mails SES took and the messages given up, its digest, and the two levels it found. */
export function retryMetrics(summary: RetrySummary): MetricValue[] {
  return [
    { name: 'Retried', value: summary.delivered + summary.deferred + summary.failed },
    { name: 'Digested', value: summary.digested },
    { name: 'DigestFailed', value: summary.digestError === undefined ? 0 : 1 },
    { name: 'Emailed', value: summary.delivered },
    { name: 'GivenUp', value: summary.failed },
    { name: 'RetryBacklog', value: summary.pending },
    { name: 'NotDelivered', value: summary.notDelivered },
  ];
}

/**
 * One delivery event: counted by what SES reported when it changed the message. A repeat, a
 * late event, and an event for no message or attempt of ours count nothing here (their own
 * metric filters count the last two).
 */
export function deliveryMetrics(report: DeliveryReport, outcome: string): MetricValue[] {
  return report.kind === 'outcome' && outcome === 'recorded' ? [{ name: 'DeliveryOutcomes', value: 1, by: report.outcome.status }] : [];
}
