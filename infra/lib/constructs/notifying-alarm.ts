/**
 * One alarm that notifies an alarm topic: named `<prefix>-<id>`, described for the person
 * who reads the alarm e-mail. By default it fires on one or more in a period, and no data
 * means nothing happened.
 */
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

export interface AlarmTarget {
  /** Start of every alarm's name. */
  prefix: string;
  topic: ITopic;
}

export interface AlarmRule {
  threshold?: number;
  comparisonOperator?: ComparisonOperator;
  treatMissingData?: TreatMissingData;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

export function notifyingAlarm(
  scope: Construct,
  target: AlarmTarget,
  id: string,
  description: string,
  metric: IMetric,
  rule: AlarmRule = {},
): Alarm {
  const alarm = new Alarm(scope, id, {
    alarmName: `${target.prefix}-${id}`,
    alarmDescription: description,
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    ...rule,
  });
  alarm.addAlarmAction(new SnsAction(target.topic));
  return alarm;
}
