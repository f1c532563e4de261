/**
 * One alarm that notifies when it fires and again when it is OK: named `<prefix>-<name>`,
 * described from the alarm catalogue (severity, when it fires, the first thing to check, the
 * links to the dashboard and to the saved query for its metric) for the person who reads the
 * e-mail. Every alarm e-mails its stack's alarm topic; one that cannot wait (pages()) also goes
 * to the page topic when pageTo is set; a member of a composite alarm notifies nobody itself,
 * its composite does. By default it fires on one or more in a period, and no data means nothing
 * happened.
 */
import {
  Alarm,
  AlarmRule,
  ComparisonOperator,
  CompositeAlarm,
  TreatMissingData,
  type AlarmBase,
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import {
  alarmDescription,
  COMPOSITE_ALARMS,
  COMPOSITE_MEMBERS,
  pages,
  type AlarmLinks,
  type AlarmName,
  type CompositeName,
} from '../alarm-catalogue';

export interface AlarmTarget {
  /** Start of every alarm's name. */
  prefix: string;
  topic: ITopic;
  /** Where what cannot wait pages, with pageTo. */
  pageTopic?: ITopic;
  /** Where each alarm's e-mail sends its reader. */
  links: (name: AlarmName) => AlarmLinks;
}

export interface AlarmRuleProps {
  threshold?: number;
  comparisonOperator?: ComparisonOperator;
  treatMissingData?: TreatMissingData;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

/** The alarm's actions on ALARM and OK: the same topics for both, so whoever was told it fired is told it is over. */
function notify(alarm: AlarmBase, target: AlarmTarget, name: AlarmName): void {
  if (COMPOSITE_MEMBERS.has(name)) return;
  for (const topic of [target.topic, ...(target.pageTopic && pages(name) ? [target.pageTopic] : [])]) {
    const action = new SnsAction(topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}

export function notifyingAlarm(scope: Construct, target: AlarmTarget, name: AlarmName, metric: IMetric, rule: AlarmRuleProps = {}): Alarm {
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
  notify(alarm, target, name);
  return alarm;
}

/** The composite alarm `name`: in ALARM while any of its members is (COMPOSITE_ALARMS), which it finds among `alarms`. */
export function compositeAlarm(scope: Construct, target: AlarmTarget, name: CompositeName, alarms: readonly IAlarm[]): CompositeAlarm {
  const members = COMPOSITE_ALARMS[name].map((member) => {
    const found = alarms.find((alarm) => alarm.alarmName === `${target.prefix}-${member}` || alarm.node.id === member);
    if (!found) throw new Error(`The composite alarm ${name} needs ${member}, which this stack does not make.`);
    return found;
  });
  const composite = new CompositeAlarm(scope, name, {
    compositeAlarmName: `${target.prefix}-${name}`,
    alarmDescription: alarmDescription(name, target.links(name)),
    alarmRule: AlarmRule.anyOf(...members),
  });
  notify(composite, target, name);
  return composite;
}
