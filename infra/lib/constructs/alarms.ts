/**
 * Monitoring: the encrypted SNS topic alarms notify (and alarmEmail, when set), the metrics
 * read from the functions' log lines (core/src/log-lines.ts: the retry job's summary, the
 * contact requests whose message was not stored), and the alarms on the functions, the API
 * and the messages that are not getting out.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { CONTACT_REQUEST_LOG, RETRY_RUN_LOG } from '@site/core/log-lines';
import { AlarmTopic } from './alarm-topic';
import type { ContactApi } from './contact-api';

export interface AlarmsProps {
  /** Start of every resource name. */
  prefix: string;
  /** Namespace of the metrics read from the logs. */
  metricNamespace: string;
  contact: ContactApi;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
}

export class Alarms extends Construct {
  readonly topic: Topic;
  private readonly prefix: string;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const { prefix, metricNamespace, contact } = props;
    this.prefix = prefix;

    this.topic = new AlarmTopic(this, 'AlarmTopic', { prefix, alarmEmail: props.alarmEmail }).topic;

    const retrySummary = FilterPattern.stringValue('$.msg', '=', RETRY_RUN_LOG.msg);
    const undelivered = new MetricFilter(this, 'UndeliveredMetric', {
      logGroup: contact.retryFunction.logGroup,
      filterPattern: retrySummary,
      metricNamespace,
      metricName: 'UndeliveredMessages',
      metricValue: `$.${RETRY_RUN_LOG.pendingField}`,
    });
    const failed = new MetricFilter(this, 'FailedMetric', {
      logGroup: contact.retryFunction.logGroup,
      filterPattern: retrySummary,
      metricNamespace,
      metricName: 'FailedMessages',
      metricValue: `$.${RETRY_RUN_LOG.failedField}`,
    });

    const notStored = new MetricFilter(this, 'NotStoredMetric', {
      logGroup: contact.sendFunction.logGroup,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.msg', '=', CONTACT_REQUEST_LOG.msg),
        FilterPattern.any(
          ...CONTACT_REQUEST_LOG.notStored.map((outcome) =>
            FilterPattern.stringValue(`$.${CONTACT_REQUEST_LOG.outcomeField}`, '=', outcome),
          ),
        ),
      ),
      metricNamespace,
      metricName: 'MessagesNotStored',
      metricValue: '1',
    });

    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    this.alarm(
      'SendFunctionErrors',
      'The contact function failed: visitors may be getting 5xx answers.',
      contact.sendFunction.metricErrors(fiveMinutes),
    );
    this.alarm(
      'SendFunctionThrottles',
      'The contact function hit its reserved concurrency: a flood of calls, or too low a limit.',
      contact.sendFunction.metricThrottles(fiveMinutes),
    );
    this.alarm(
      'RetryFunctionErrors',
      'The retry job failed: undelivered messages are not being re-sent.',
      contact.retryFunction.metricErrors(fiveMinutes),
    );
    this.alarm(
      'Api5xx',
      'The API answered 5xx (function error, timeout or 503 when a message could not be stored).',
      contact.httpApi.metricServerError(fiveMinutes),
    );
    // Minimum over 30 minutes: every run (one per 10 minutes) left messages undelivered.
    this.alarm(
      'MessagesUndelivered',
      'Stored messages have not been e-mailed for 30 minutes: check SES (sandbox, identity, quota).',
      undelivered.metric({ period: Duration.minutes(30), statistic: 'Minimum' }),
    );
    this.alarm(
      'MessagesNotStored',
      'A visitor’s message could not be stored (DynamoDB or the function’s configuration); the visitor was asked to try again. Form posts answer this with a page, not a 5xx, so Api5xx does not see them.',
      notStored.metric(fiveMinutes),
    );
    this.alarm(
      'MessagesFailed',
      'The retry job gave up on a message: `npm run messages -- list --status failed` shows it, `show <id>` reads it, `resend <id>` sends it again once SES works.',
      failed.metric({ period: Duration.minutes(10), statistic: 'Sum' }),
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
  }

  /** By default fires on one or more in a period, and no data means nothing happened. */
  private alarm(
    id: string,
    description: string,
    metric: IMetric,
    when = { comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD, treatMissingData: TreatMissingData.NOT_BREACHING },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      alarmName: `${this.prefix}-${id}`,
      alarmDescription: description,
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      ...when,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }
}
