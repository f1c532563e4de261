/**
 * Monitoring: the encrypted SNS topic alarms notify (and alarmEmail, when set), the metrics
 * read from the functions' log lines (core/src/log-lines.ts: the retry job's summary, the
 * contact requests whose message was not stored, the delivery events), and the alarms on the
 * functions, the API, the messages that are not getting out or not arriving, and SES's
 * reputation. What CloudFront and the WAF publish is watched in us-east-1 (edge-alarms-stack.ts).
 */
import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { CONTACT_REQUEST_LOG, DELIVERY_EVENT_LOG, RETRY_RUN_LOG } from '@site/core/log-lines';
import { API_4XX_SURGE, SES_REPUTATION, type AlarmName } from '../alarm-catalogue';
import { AlarmTopic } from './alarm-topic';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import { notifyingAlarm, type AlarmRule } from './notifying-alarm';

/** Each alarm's period and statistic unless it says otherwise: a count per 5 minutes. */
const FIVE_MINUTES = { period: Duration.minutes(5), statistic: 'Sum' };

/** A log line whose `field` holds any of `values`. */
const oneOf = (field: string, values: readonly string[]) =>
  FilterPattern.any(...values.map((value) => FilterPattern.stringValue(`$.${field}`, '=', value)));

export interface AlarmsProps {
  /** Start of every resource name. */
  prefix: string;
  /** Namespace of the metrics read from the logs. */
  metricNamespace: string;
  contact: ContactApi;
  deliveryEvents: DeliveryEvents;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
}

export class Alarms extends Construct {
  readonly topic: Topic;
  private readonly prefix: string;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.prefix = props.prefix;
    this.topic = new AlarmTopic(this, 'AlarmTopic', { prefix: props.prefix, alarmEmail: props.alarmEmail }).topic;

    this.watchFunctionsAndApi(props.contact);
    this.watchMessages(props.contact, props.metricNamespace);
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

  /** What the retry job and the contact function say about the stored messages: not stored, not e-mailed, given up on, not delivered. */
  private watchMessages(contact: ContactApi, metricNamespace: string): void {
    // The retry job's summary line of each run, read for one of its counts.
    const retryCount = (id: string, metricName: string, field: string) =>
      new MetricFilter(this, id, {
        logGroup: contact.retryFunction.logGroup,
        filterPattern: FilterPattern.stringValue('$.msg', '=', RETRY_RUN_LOG.msg),
        metricNamespace,
        metricName,
        metricValue: `$.${field}`,
      });
    const undelivered = retryCount('UndeliveredMetric', 'UndeliveredMessages', RETRY_RUN_LOG.pendingField);
    const failed = retryCount('FailedMetric', 'FailedMessages', RETRY_RUN_LOG.failedField);

    const notStored = new MetricFilter(this, 'NotStoredMetric', {
      logGroup: contact.sendFunction.logGroup,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.msg', '=', CONTACT_REQUEST_LOG.msg),
        oneOf(CONTACT_REQUEST_LOG.outcomeField, CONTACT_REQUEST_LOG.notStored),
      ),
      metricNamespace,
      metricName: 'MessagesNotStored',
      metricValue: '1',
    });

    const notDelivered = retryCount('NotDeliveredMetric', 'MessagesNotDelivered', RETRY_RUN_LOG.notDeliveredField);

    // Minimum over 30 minutes: every run (one per 10 minutes) left messages undelivered.
    this.alarm('MessagesUndelivered', undelivered.metric({ period: Duration.minutes(30), statistic: 'Minimum' }));
    this.alarm('MessagesNotStored', notStored.metric(FIVE_MINUTES));
    this.alarm('MessagesFailed', failed.metric({ period: Duration.minutes(10), statistic: 'Sum' }));
    // Minimum over 20 minutes: two runs of the retry job in a row counted one or more.
    this.alarm('MessagesNotDelivered', notDelivered.metric({ period: Duration.minutes(20), statistic: 'Minimum' }));
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
    notifyingAlarm(this, { prefix: this.prefix, topic: this.topic }, name, metric, rule);
  }
}
