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
import { AlarmTopic } from './alarm-topic';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import { notifyingAlarm, type AlarmRule } from './notifying-alarm';

/**
 * SES reviews an account at a bounce rate of 5% and may pause its sending at 10%; for
 * complaints at 0.1% and 0.5% (Amazon SES Developer Guide, "Reputation metrics messages";
 * AWS re:Post, "Why is my Amazon SES sending account under review or paused?"). The alarms
 * fire at half the review level, while there is time to act. The rates are the account's in
 * the region, so another sender in the account moves them too.
 */
export const SES_REPUTATION = {
  bounceRate: { review: 0.05, pause: 0.1, alarm: 0.025 },
  complaintRate: { review: 0.001, pause: 0.005, alarm: 0.0005 },
} as const;

/**
 * 4xx answers of the API in 5 minutes that make a surge: a visitor's typo is one or two, the
 * stage throttle's 429s and a script's refused posts come by the dozen.
 */
export const API_4XX_SURGE = 50;

/** Each alarm's period and statistic unless it says otherwise: a count per 5 minutes. */
const FIVE_MINUTES = { period: Duration.minutes(5), statistic: 'Sum' };

/** A log line whose `field` holds any of `values`. */
const oneOf = (field: string, values: readonly string[]) =>
  FilterPattern.any(...values.map((value) => FilterPattern.stringValue(`$.${field}`, '=', value)));

const percent = (fraction: number) => `${Number((fraction * 100).toPrecision(3))}%`;

export interface AlarmsProps {
  /** Start of every resource name. */
  prefix: string;
  /** Namespace of the metrics read from the logs. */
  metricNamespace: string;
  contact: ContactApi;
  deliveryEvents: DeliveryEvents;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
  /** config.deliveryAlarmHours: the retry job counts e-mails not delivered within it. */
  deliveryAlarmHours: number;
}

export class Alarms extends Construct {
  readonly topic: Topic;
  private readonly prefix: string;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.prefix = props.prefix;
    this.topic = new AlarmTopic(this, 'AlarmTopic', { prefix: props.prefix, alarmEmail: props.alarmEmail }).topic;

    this.watchFunctionsAndApi(props.contact);
    this.watchMessages(props.contact, props.metricNamespace, props.deliveryAlarmHours);
    this.watchDelivery(props.deliveryEvents, props.metricNamespace);
    this.watchSesReputation();
  }

  /** The functions and the API themselves: errors, throttles, 5xx, a 4xx surge, a retry job that stopped. */
  private watchFunctionsAndApi(contact: ContactApi): void {
    this.alarm(
      'SendFunctionErrors',
      'The contact function failed: visitors may be getting 5xx answers.',
      contact.sendFunction.metricErrors(FIVE_MINUTES),
    );
    this.alarm(
      'SendFunctionThrottles',
      'The contact function hit its reserved concurrency: a flood of calls, or too low a limit.',
      contact.sendFunction.metricThrottles(FIVE_MINUTES),
    );
    this.alarm(
      'RetryFunctionErrors',
      'The retry job failed: undelivered messages are not being re-sent.',
      contact.retryFunction.metricErrors(FIVE_MINUTES),
    );
    this.alarm(
      'Api5xx',
      'The API answered 5xx (function error, timeout or 503 when a message could not be stored).',
      contact.httpApi.metricServerError(FIVE_MINUTES),
    );
    // The heartbeat: the alarms above read the job's own output, so they stay quiet when it
    // stops running (a disabled rule, a broken deploy, throttling). No run in 30 minutes
    // (three missed), no data at all included, fires.
    this.alarm(
      'RetryJobNotRunning',
      'The retry job has not run for 30 minutes (schedule disabled, failed deploy, throttling): undelivered messages are not being re-sent.',
      contact.retryFunction.metricInvocations({ period: Duration.minutes(30), statistic: 'Sum' }),
      { comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD, treatMissingData: TreatMissingData.BREACHING },
    );
    this.alarm(
      'Api4xxSurge',
      `The API answered ${API_4XX_SURGE} or more 4xx in 5 minutes: the stage throttle's 429s (apiRateLimit), the visitor limit, or a script posting refused messages. The API's access log shows the statuses and paths.`,
      contact.httpApi.metricClientError(FIVE_MINUTES),
      { threshold: API_4XX_SURGE },
    );
  }

  /** What the retry job and the contact function say about the stored messages: not stored, not e-mailed, given up on, not delivered. */
  private watchMessages(contact: ContactApi, metricNamespace: string, deliveryAlarmHours: number): void {
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
    this.alarm(
      'MessagesUndelivered',
      'Stored messages have not been e-mailed for 30 minutes: check SES (sandbox, identity, quota).',
      undelivered.metric({ period: Duration.minutes(30), statistic: 'Minimum' }),
    );
    this.alarm(
      'MessagesNotStored',
      'A visitor’s message could not be stored (DynamoDB or the function’s configuration); the visitor was asked to try again. Form posts answer this with a page, not a 5xx, so Api5xx does not see them.',
      notStored.metric(FIVE_MINUTES),
    );
    this.alarm(
      'MessagesFailed',
      'The retry job gave up on a message: `npm run messages -- list --status failed` shows it, `show <id>` reads it, `resend <id>` sends it again once SES works.',
      failed.metric({ period: Duration.minutes(10), statistic: 'Sum' }),
    );
    // Minimum over 20 minutes: two runs of the retry job in a row counted one or more.
    this.alarm(
      'MessagesNotDelivered',
      `SES accepted a message's e-mail more than ${deliveryAlarmHours} h ago (deliveryAlarmHours) and has not confirmed its delivery: \`npm run messages -- list --status emailed\` (and delayed) lists them; check the firm's mailbox and SES's sending statistics.`,
      notDelivered.metric({ period: Duration.minutes(20), statistic: 'Minimum' }),
    );
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

    this.alarm(
      'DeliveryProblems',
      'The firm’s mail server bounced a message’s e-mail, marked it as spam, or SES refused it: `npm run messages -- list --status bounced` (or complained, rejected) lists them, `show <id>` gives the server’s diagnostic. Fix contactRecipient or the firm’s mail server, deploy, then `resend <id>`.',
      deliveryProblems.metric(FIVE_MINUTES),
    );
    this.alarm(
      'DeliveryEventsNotOurs',
      'A delivery event named a stored message but an attempt it never made, or another SES message id than its attempt’s; it was not applied. Someone who can send through this stage’s configuration set, or invoke its delivery-event consumer, is forging events: check CloudTrail for SendEmail with the contact-message tag and for Invoke of record-delivery-event. (Also after the sender failed to record an attempt SES had taken; the retry job sends such a message again.)',
      notOurs.metric(FIVE_MINUTES),
    );
    this.alarm(
      'DeliveryEventFunctionErrors',
      'The consumer of SES delivery events failed (table, permissions): outcomes are not being recorded; Lambda and EventBridge retry for a day.',
      deliveryEvents.consumer.metricErrors(FIVE_MINUTES),
    );
  }

  /** The account's SES reputation, before AWS reviews or pauses its sending. */
  private watchSesReputation(): void {
    this.alarm(
      'SesBounceRate',
      `The account's SES bounce rate passed ${percent(SES_REPUTATION.bounceRate.alarm)}: AWS reviews the account at ${percent(SES_REPUTATION.bounceRate.review)} and may pause its sending at ${percent(SES_REPUTATION.bounceRate.pause)}. Find the bounced messages (npm run messages -- list --status bounced) and fix the address they go to.`,
      new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', period: Duration.hours(1), statistic: 'Maximum' }),
      { threshold: SES_REPUTATION.bounceRate.alarm },
    );
    this.alarm(
      'SesComplaintRate',
      `The account's SES complaint rate passed ${percent(SES_REPUTATION.complaintRate.alarm)}: AWS reviews the account at ${percent(SES_REPUTATION.complaintRate.review)} and may pause its sending at ${percent(SES_REPUTATION.complaintRate.pause)}. The firm's own mail filter marks the notifications as spam: have it allow senderAddress.`,
      new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.ComplaintRate', period: Duration.hours(1), statistic: 'Maximum' }),
      { threshold: SES_REPUTATION.complaintRate.alarm },
    );
  }

  private alarm(id: string, description: string, metric: IMetric, rule?: AlarmRule): void {
    notifyingAlarm(this, { prefix: this.prefix, topic: this.topic }, id, description, metric, rule);
  }
}
