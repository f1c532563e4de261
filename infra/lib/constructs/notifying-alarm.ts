/**
 * One alarm that notifies an alarm topic when it fires and again when it is OK: named
 * `<prefix>-<name>`, described from the alarm catalogue (severity, when it fires, the first
 * thing to check, the links to the dashboard and to the saved query for its metric) for the
 * person who reads the e-mail. By default it fires on one or more in a period, and no data means
 * nothing happened.
 */
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { alarmDescription, type AlarmLinks, type AlarmName } from '../alarm-catalogue';

export interface AlarmTarget {
  /** Start of every alarm's name. */
  prefix: string;
  topic: ITopic;
  /** Where each alarm's e-mail sends its reader. */
  links: (name: AlarmName) => AlarmLinks;
}

export interface AlarmRule {
  threshold?: number;
  comparisonOperator?: ComparisonOperator;
  treatMissingData?: TreatMissingData;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

export function notifyingAlarm(scope: Construct, target: AlarmTarget, name: AlarmName, metric: IMetric, rule: AlarmRule = {}): Alarm {
  const alarm = new Alarm(scope, name, {
    alarmName: `${target.prefix}-${name}`,
    alarmDescription: alarmDescription(name, target.links(name)),
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    ...rule,
  });
  // The same topic for both: whoever was told it fired is told it is over.
  const notify = new SnsAction(target.topic);
  alarm.addAlarmAction(notify);
  alarm.addOkAction(notify);
  return alarm;
}
