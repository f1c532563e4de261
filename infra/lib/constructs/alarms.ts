/**
 * Monitoring: the encrypted SNS topics alarms notify (alarmEmail, and pageTo for what cannot
 * wait), and the alarms on the outside check, the functions, the API, the messages that are
 * not getting out or not arriving, and SES's reputation, with the composite alarms that make
 * one incident one notification. The messages are watched on the path's metrics the functions
 * write (core/src/metric-names.ts: not stored, the retry backlog, given up, not delivered, the
 * check's runs) and on metric filters of the delivery events' log lines (core/src/log-lines.ts:
 * every event that reports a problem, whether or not it changed its message). What CloudFront,
 * the certificate and the WAF publish is watched in us-east-1 (edge-alarms-stack.ts).
 */
import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Metric, TreatMissingData, type Alarm, type CompositeAlarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { OUTSIDE_CHECK } from '@site/core/outside-check';
import {
  API_4XX_SURGE,
  NOT_THROUGH_CLOUDFRONT,
  OUTSIDE_CHECK_FAILED_RUNS,
  SES_REPUTATION,
  SLOW_SHARE_OF_TIMEOUT,
  STORED_SURGE_PER_HOUR,
  SUSPECT_SURGE_PER_HOUR,
  UNDELIVERED_ALARM_MINUTES,
  type AlarmLinks,
  type AlarmName,
  type CompositeName,
} from '../alarm-catalogue';
import { pathMetric, pathMetricBy } from '../path-metrics';
import { AlarmTopic } from './alarm-topic';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import { compositeAlarm, notifyingAlarm, type AlarmRuleProps, type AlarmTarget } from './notifying-alarm';

/** Each alarm's period and statistic unless it says otherwise: a count per 5 minutes. */
const FIVE_MINUTES = { period: Duration.minutes(5), statistic: 'Sum' };

/** A count per hour: the mail budget's own period, and a wave's. */
const ONE_HOUR = { period: Duration.hours(1), statistic: 'Sum' };

/** A log line whose `field` holds any of `values`. */
const oneOf = (field: string, values: readonly string[]) =>
  FilterPattern.any(...values.map((value) => FilterPattern.stringValue(`$.${field}`, '=', value)));

export interface AlarmsProps {
  /** Start of every resource name. */
  prefix: string;
  /** The stage the functions count the path's metrics under. */
  stage: string;
  /** Namespace of the metrics read from the delivery events' log lines. */
  metricNamespace: string;
  contact: ContactApi;
  deliveryEvents: DeliveryEvents;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
  /** Who is paged for what cannot wait (pageTo); without it those alarms e-mail only. */
  pageTo?: string;
  /** Where each alarm's e-mail sends its reader. */
  links: (name: AlarmName) => AlarmLinks;
}

export class Alarms extends Construct {
  readonly topic: Topic;
  readonly pageTopic?: Topic;
  /** Every metric alarm made here, for the dashboard. */
  readonly alarms: Alarm[] = [];
  /** The composite alarms, for the dashboard. */
  readonly composites: CompositeAlarm[] = [];
  private readonly target: AlarmTarget;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const topics = new AlarmTopic(this, 'AlarmTopic', { prefix: props.prefix, alarmEmail: props.alarmEmail, pageTo: props.pageTo });
    this.topic = topics.topic;
    this.pageTopic = topics.pageTopic;
    this.target = { prefix: props.prefix, topic: this.topic, pageTopic: this.pageTopic, links: props.links };

    this.watchOutsideCheck(props.stage);
    this.watchFunctionsAndApi(props.contact, props.stage);
    this.watchMessages(props.stage);
    this.watchSpamWaves(props.stage);
    this.watchDelivery(props.deliveryEvents, props.metricNamespace);
    this.watchSesReputation();
    for (const name of ['ContactPathDown', 'SpamWave'] as const satisfies CompositeName[]) {
      this.composites.push(compositeAlarm(this, this.target, name, this.alarms));
    }
  }

  /**
   * The outside check's runs: each writes 1 or 0. Its alarm fires when no run passed in
   * OUTSIDE_CHECK_FAILED_RUNS intervals, and so also when the runs are missing (the schedule
   * stopped, the function cannot start): a check that does not run proves nothing. One window
   * of two intervals, not two windows of one: a run a few seconds late leaves an interval empty.
   */
  private watchOutsideCheck(stage: string): void {
    const window = Duration.minutes(OUTSIDE_CHECK.intervalMinutes * OUTSIDE_CHECK_FAILED_RUNS);
    this.alarm('OutsideCheckFailed', pathMetric(stage, 'OutsideCheck', { period: window, statistic: 'Maximum' }), {
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
    });
  }

  /** The functions and the API themselves: errors, throttles, slowness, 5xx, a 4xx surge, posts without the origin secret, a retry job that stopped. */
  private watchFunctionsAndApi(contact: ContactApi, stage: string): void {
    this.alarm('SendFunctionErrors', contact.sendFunction.metricErrors(FIVE_MINUTES));
    this.alarm('SendFunctionThrottles', contact.sendFunction.metricThrottles(FIVE_MINUTES));
    // Two periods: one slow request in a quiet five minutes is its p99 alone.
    this.alarm('SendFunctionSlow', contact.sendFunction.metricDuration({ period: Duration.minutes(5), statistic: 'p99' }), {
      threshold: FUNCTION_TIMEOUT_SECONDS * 1000 * SLOW_SHARE_OF_TIMEOUT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
    });
    this.alarm('PostsNotThroughCloudFront', pathMetric(stage, 'NotThroughCloudFront', FIVE_MINUTES), {
      threshold: NOT_THROUGH_CLOUDFRONT,
    });
    this.alarm('RetryFunctionErrors', contact.retryFunction.metricErrors(FIVE_MINUTES));
    this.alarm('Api5xx', contact.httpApi.metricServerError(FIVE_MINUTES));
    // The heartbeat: the alarms above read the job's own output, so they stay quiet when it
    // stops running (a disabled rule, a broken deploy, throttling). No run in 30 minutes
    // (three missed), no data at all included, fires.
    this.alarm('RetryJobNotRunning', contact.retryFunction.metricInvocations({ period: Duration.minutes(30), statistic: 'Sum' }), {
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
    });
    this.alarm('Api4xxSurge', contact.httpApi.metricClientError(FIVE_MINUTES), { threshold: API_4XX_SURGE });
  }

  /** What the contact function and the retry job count about the stored messages: not stored, not e-mailed, given up on, their digest, not delivered. */
  private watchMessages(stage: string): void {
    this.alarm('MessagesNotStored', pathMetric(stage, 'NotStored', FIVE_MINUTES));
    // Minimum over 30 minutes: every run (one per 10 minutes) left messages waiting. A run that
    // reports nothing (it timed out, or did not run) is no sign the backlog is gone: breaching.
    this.alarm(
      'MessagesUndelivered',
      pathMetric(stage, 'RetryBacklog', { period: Duration.minutes(UNDELIVERED_ALARM_MINUTES), statistic: 'Minimum' }),
      { treatMissingData: TreatMissingData.BREACHING },
    );
    this.alarm('MessagesFailed', pathMetric(stage, 'GivenUp', { period: Duration.minutes(10), statistic: 'Sum' }));
    // Two runs in a row (one per 10 minutes): one failure is retried by the next run unasked.
    this.alarm('DigestFailed', pathMetric(stage, 'DigestFailed', { period: Duration.minutes(20), statistic: 'Sum' }), { threshold: 2 });
    // Minimum over 20 minutes: two runs of the retry job in a row counted one or more.
    this.alarm('MessagesNotDelivered', pathMetric(stage, 'NotDelivered', { period: Duration.minutes(20), statistic: 'Minimum' }));
  }

  /** A spam wave: many messages stored, the mail budget spent (messages held for the digest), many suspect. */
  private watchSpamWaves(stage: string): void {
    this.alarm('MessagesStoredSurge', pathMetric(stage, 'Stored', ONE_HOUR), { threshold: STORED_SURGE_PER_HOUR });
    this.alarm('MailBudgetSpent', pathMetricBy(stage, 'Held', 'budget', ONE_HOUR));
    this.alarm('ManySuspectMessages', pathMetricBy(stage, 'Held', 'suspect', ONE_HOUR), { threshold: SUSPECT_SURGE_PER_HOUR });
  }

  /** SES's delivery events on the firm's messages: bounces, complaints, rejects, and a consumer that fails. */
  private watchDelivery(deliveryEvents: DeliveryEvents, metricNamespace: string): void {
    // The consumer's line per event whose `field` holds one of `values`, counted once each.
    const eventCount = (id: string, metricName: string, field: string, values: readonly string[]) =>
      new MetricFilter(this, id, {
        logGroup: deliveryEvents.consumer.logGroup,
        filterPattern: FilterPattern.all(FilterPattern.stringValue('$.msg', '=', DELIVERY_EVENT_LOG.msg), oneOf(field, values)),
        metricNamespace,
        metricName,
        metricValue: '1',
      });
    const deliveryProblems = eventCount(
      'DeliveryProblemsMetric',
      'DeliveryProblems',
      DELIVERY_EVENT_LOG.reportsField,
      DELIVERY_EVENT_LOG.alarming,
    );
    // Counted, not alarmed: another stage's or a deleted message's event is no fault of this stage.
    eventCount('UnmatchedDeliveryEventsMetric', 'UnmatchedDeliveryEvents', DELIVERY_EVENT_LOG.outcomeField, DELIVERY_EVENT_LOG.unmatched);
    // Alarmed: only whoever can send through this stage's configuration set or invoke its consumer makes one.
    const notOurs = eventCount(
      'NotOurDeliveryEventsMetric',
      'NotOurDeliveryEvents',
      DELIVERY_EVENT_LOG.outcomeField,
      DELIVERY_EVENT_LOG.notOurs,
    );

    this.alarm('DeliveryProblems', deliveryProblems.metric(FIVE_MINUTES));
    this.alarm('DeliveryEventsNotOurs', notOurs.metric(FIVE_MINUTES));
    this.alarm('DeliveryEventFunctionErrors', deliveryEvents.consumer.metricErrors(FIVE_MINUTES));
  }

  /** The account's SES reputation, before AWS reviews or pauses its sending. */
  private watchSesReputation(): void {
    this.alarm(
      'SesBounceRate',
      new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', period: Duration.hours(1), statistic: 'Maximum' }),
      { threshold: SES_REPUTATION.bounceRate.alarm },
    );
    this.alarm(
      'SesComplaintRate',
      new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.ComplaintRate', period: Duration.hours(1), statistic: 'Maximum' }),
      { threshold: SES_REPUTATION.complaintRate.alarm },
    );
  }

  private alarm(name: AlarmName, metric: IMetric, rule?: AlarmRuleProps): void {
    this.alarms.push(notifyingAlarm(this, this.target, name, metric, rule));
  }
}
