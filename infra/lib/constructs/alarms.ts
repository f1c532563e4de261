/**
 * Monitoring: the encrypted SNS topic alarms notify (and alarmEmail, when set), and the alarms
 * on the functions, the API, the messages that are not getting out or not arriving, and SES's
 * reputation. The messages are watched on the path's metrics the functions write
 * (core/src/metric-names.ts: not stored, the retry backlog, given up, not delivered) and on
 * metric filters of the delivery events' log lines (core/src/log-lines.ts: every event that
 * reports a problem, whether or not it changed its message). What CloudFront and the WAF
 * publish is watched in us-east-1 (edge-alarms-stack.ts).
 */
import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Metric, TreatMissingData, type Alarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import {
  API_4XX_SURGE,
  SES_REPUTATION,
  STORED_SURGE_PER_HOUR,
  SUSPECT_SURGE_PER_HOUR,
  UNDELIVERED_ALARM_MINUTES,
  type AlarmLinks,
  type AlarmName,
} from '../alarm-catalogue';
import { pathMetric, pathMetricBy } from '../path-metrics';
import { AlarmTopic } from './alarm-topic';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import { notifyingAlarm, type AlarmRule } from './notifying-alarm';

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
  /** Where each alarm's e-mail sends its reader. */
  links: (name: AlarmName) => AlarmLinks;
}

export class Alarms extends Construct {
  readonly topic: Topic;
  /** Every alarm made here, for the dashboard. */
  readonly alarms: Alarm[] = [];
  private readonly prefix: string;
  private readonly links: (name: AlarmName) => AlarmLinks;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.prefix = props.prefix;
    this.links = props.links;
    this.topic = new AlarmTopic(this, 'AlarmTopic', { prefix: props.prefix, alarmEmail: props.alarmEmail }).topic;

    this.watchFunctionsAndApi(props.contact);
    this.watchMessages(props.stage);
    this.watchSpamWaves(props.stage);
    this.watchDelivery(props.deliveryEvents, props.metricNamespace);
    this.watchSesReputation();
  }

  /** The functions and the API themselves: errors, throttles, 5xx, a 4xx surge, a retry job that stopped. */
  private watchFunctionsAndApi(contact: ContactApi): void {
    this.alarm('SendFunctionErrors', contact.sendFunction.metricErrors(FIVE_MINUTES));
    this.alarm('SendFunctionThrottles', contact.sendFunction.metricThrottles(FIVE_MINUTES));
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

  private alarm(name: AlarmName, metric: IMetric, rule?: AlarmRule): void {
    this.alarms.push(notifyingAlarm(this, { prefix: this.prefix, topic: this.topic, links: this.links }, name, metric, rule));
  }
}
