/**
 * Alarms, the topic they notify, the path's metrics the functions write and the metrics read
 * from their log lines, and the stack outputs; with an alarm e-mail address configured.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import { METRIC_NAMESPACE } from '@site/core/metric-names';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import {
  API_4XX_SURGE,
  COMPOSITE_ALARMS,
  COMPOSITE_MEMBERS,
  NOT_THROUGH_CLOUDFRONT,
  SES_REPUTATION,
  SLOW_SHARE_OF_TIMEOUT,
  STORED_SURGE_PER_HOUR,
  SUSPECT_SURGE_PER_HOUR,
  type AlarmName,
} from '../lib/alarm-catalogue';
import { only, synth, TEST_DOMAIN, type Synthesized } from './synth';

let s: Synthesized;
let resources: Record<string, any>;
beforeAll(() => {
  s = synth({ alarmEmail: `ops@${TEST_DOMAIN}` });
  resources = s.template.toJSON().Resources;
});

const topicId = () => only(s.template, 'AWS::SNS::Topic').id;
const alarm = (name: string) =>
  only(s.template, 'AWS::CloudWatch::Alarm', { AlarmName: `consultancy-site-test-${name}` }).resource.Properties;
const functionId = (name: string) => only(s.template, 'AWS::Lambda::Function', { FunctionName: `consultancy-site-test-${name}` }).id;

describe('alarm topic', () => {
  it('is encrypted with a rotated key only this account’s alarms may use, refuses plain HTTP, and mails alarmEmail', () => {
    const topic = only(s.template, 'AWS::SNS::Topic').resource.Properties;
    expect(topic.TopicName).toBe('consultancy-site-test-alarms');
    const keyId = topic.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = resources[keyId].Properties;
    expect(key.EnableKeyRotation).toBe(true);
    const ownAlarms = {
      StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
      ArnLike: { 'aws:SourceArn': { 'Fn::Join': ['', ['arn:aws:cloudwatch:eu-west-1:', { Ref: 'AWS::AccountId' }, ':alarm:*']] } },
    };
    const forCloudWatch = key.KeyPolicy.Statement.filter((statement: any) => statement.Principal?.Service === 'cloudwatch.amazonaws.com');
    // cfn-guard ct-kms-pr-3: a service principal in a key policy is scoped to the source.
    expect(forCloudWatch).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Resource: '*',
        Condition: ownAlarms,
      },
    ]);
    const policy = only(s.template, 'AWS::SNS::TopicPolicy').resource.Properties.PolicyDocument.Statement;
    expect(policy).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(policy).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Condition: ownAlarms,
      }),
    );
    expect(only(s.template, 'AWS::SNS::Subscription').resource.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: `ops@${TEST_DOMAIN}`,
      TopicArn: { Ref: topicId() },
    });
  });
});

/** The stage's own name of an alarm, without the prefix. */
const short = (name: string) => name.replace('consultancy-site-test-', '') as AlarmName;

describe('alarms', () => {
  it('are these twenty-two, each notifying the topic, or its composite alarm for it', () => {
    const names = Object.values(s.template.findResources('AWS::CloudWatch::Alarm')).map((a: any) => a.Properties.AlarmName);
    expect(names.sort()).toEqual(
      [
        'Api4xxSurge',
        'Api5xx',
        'DeliveryEventFunctionErrors',
        'DeliveryEventsNotOurs',
        'DeliveryProblems',
        'DigestFailed',
        'MailBudgetSpent',
        'ManySuspectMessages',
        'MessagesFailed',
        'MessagesNotDelivered',
        'MessagesNotStored',
        'MessagesStoredSurge',
        'MessagesUndelivered',
        'OutsideCheckFailed',
        'PostsNotThroughCloudFront',
        'RetryFunctionErrors',
        'RetryJobNotRunning',
        'SendFunctionErrors',
        'SendFunctionSlow',
        'SendFunctionThrottles',
        'SesBounceRate',
        'SesComplaintRate',
      ]
        .map((name) => `consultancy-site-test-${name}`)
        .sort(),
    );
    for (const name of names) {
      const props = alarm(short(name));
      expect(props.AlarmActions).toEqual(COMPOSITE_MEMBERS.has(short(name)) ? undefined : [{ Ref: topicId() }]);
      expect(JSON.stringify(props.AlarmDescription)).toContain('Severity ');
    }
  });

  it('that count events, fire on one or more and stay quiet when there is no data', () => {
    const rated = [
      'RetryJobNotRunning',
      'MessagesUndelivered',
      'SesBounceRate',
      'SesComplaintRate',
      'Api4xxSurge',
      'MessagesStoredSurge',
      'ManySuspectMessages',
      'DigestFailed',
      'OutsideCheckFailed',
      'SendFunctionSlow',
      'PostsNotThroughCloudFront',
    ].map((name) => `consultancy-site-test-${name}`);
    const names = Object.values(s.template.findResources('AWS::CloudWatch::Alarm'))
      .map((a: any) => a.Properties.AlarmName)
      .filter((name) => !rated.includes(name));
    expect(names).toHaveLength(11);
    for (const name of names) {
      const props = alarm(short(name));
      expect(props.AlarmActions).toEqual(COMPOSITE_MEMBERS.has(short(name)) ? undefined : [{ Ref: topicId() }]);
      expect(props.TreatMissingData).toBe('notBreaching');
      expect(props.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(props.Threshold).toBe(1);
      expect(JSON.stringify(props.AlarmDescription)).toContain('Severity ');
    }
  });

  it('watch errors of the three functions and throttles of the contact function', () => {
    for (const [name, metric, fn] of [
      ['SendFunctionErrors', 'Errors', 'send-contact-email'],
      ['SendFunctionThrottles', 'Throttles', 'send-contact-email'],
      ['RetryFunctionErrors', 'Errors', 'retry-undelivered'],
      ['DeliveryEventFunctionErrors', 'Errors', 'record-delivery-event'],
    ] as const) {
      expect(alarm(name)).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: metric,
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(fn) } }],
      });
    }
  });

  it('fire when the retry job has not run for 30 minutes, no data included (the heartbeat)', () => {
    const retry = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-retry-undelivered' });
    const rule = only(s.template, 'AWS::Events::Rule', { Name: 'consultancy-site-test-retry-undelivered' }).resource.Properties;
    expect(rule.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [retry.id, 'Arn'] });
    // Three scheduled runs fit in the period: only a stopped job leaves it empty.
    expect(rule.ScheduleExpression).toBe('rate(10 minutes)');
    expect(alarm('RetryJobNotRunning')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: retry.id } }],
      Statistic: 'Sum',
      Period: 1800,
      EvaluationPeriods: 1,
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
      AlarmActions: [{ Ref: topicId() }],
    });
  });

  it('watch 5xx answers of the API', () => {
    expect(alarm('Api5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Statistic: 'Sum',
      Period: 300,
      Dimensions: [{ Name: 'ApiId', Value: { Ref: only(s.template, 'AWS::ApiGatewayV2::Api').id } }],
    });
  });

  it("count the messages that could not be stored, whatever the answer's status, from the contact function's own metric of the stage", () => {
    expect(alarm('MessagesNotStored')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'NotStored',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
    });
  });

  it('give every function the stage its metrics are counted under', () => {
    for (const fn of ['send-contact-email', 'retry-undelivered', 'record-delivery-event']) {
      const props = only(s.template, 'AWS::Lambda::Function', { FunctionName: `consultancy-site-test-${fn}` }).resource.Properties;
      expect(props.Environment.Variables.STAGE, fn).toBe('test');
    }
  });

  it('watch a surge of 4xx answers of the API: the stage throttle’s 429s and refused posts', () => {
    expect(alarm('Api4xxSurge')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '4xx',
      Statistic: 'Sum',
      Period: 300,
      Threshold: API_4XX_SURGE,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: only(s.template, 'AWS::ApiGatewayV2::Api').id } }],
    });
  });

  it('watch the account’s SES bounce and complaint rates, well below the levels at which AWS reviews or pauses it', () => {
    for (const [name, metric, levels] of [
      ['SesBounceRate', 'Reputation.BounceRate', SES_REPUTATION.bounceRate],
      ['SesComplaintRate', 'Reputation.ComplaintRate', SES_REPUTATION.complaintRate],
    ] as const) {
      const props = alarm(name);
      expect(props).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Statistic: 'Maximum',
        Period: 3600,
        Threshold: levels.alarm,
      });
      // The account's own rate: no dimension, so every sender in the account counts.
      expect(props.Dimensions).toBeUndefined();
      expect(levels.alarm).toBeLessThanOrEqual(levels.review / 2);
      expect(JSON.stringify(props.AlarmDescription)).toContain(`${levels.review * 100}%`);
      expect(JSON.stringify(props.AlarmDescription)).toContain(`${levels.pause * 100}%`);
    }
    expect(SES_REPUTATION.bounceRate).toMatchObject({ review: 0.05, pause: 0.1 });
    expect(SES_REPUTATION.complaintRate).toMatchObject({ review: 0.001, pause: 0.005 });
  });

  it("count the consumer's bounce, complaint and reject events within 5 minutes, and the events for no known message apart", () => {
    const consumerLogGroup = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-record-delivery-event' })
      .resource.Properties.LoggingConfig.LogGroup;
    const filters = Object.values(s.template.findResources('AWS::Logs::MetricFilter')).map((f: any) => f.Properties);
    const filter = (metric: string) => filters.find((f) => f.MetricTransformations[0].MetricName === metric);
    expect(filter('DeliveryProblems')).toMatchObject({
      LogGroupName: consumerLogGroup,
      FilterPattern: `{ ($.msg = "${DELIVERY_EVENT_LOG.msg}") && (($.reports = "bounced") || ($.reports = "complained") || ($.reports = "rejected")) }`,
      MetricTransformations: [{ MetricNamespace: 'consultancy-site/test', MetricName: 'DeliveryProblems', MetricValue: '1' }],
    });
    expect(filter('UnmatchedDeliveryEvents')).toMatchObject({
      LogGroupName: consumerLogGroup,
      FilterPattern: `{ ($.msg = "${DELIVERY_EVENT_LOG.msg}") && (($.outcome = "unknown_message") || ($.outcome = "untagged") || ($.outcome = "malformed")) }`,
    });
    expect(filter('NotOurDeliveryEvents')).toMatchObject({
      LogGroupName: consumerLogGroup,
      FilterPattern: `{ ($.msg = "${DELIVERY_EVENT_LOG.msg}") && ($.outcome = "not_our_attempt") }`,
    });
    expect(alarm('DeliveryEventsNotOurs')).toMatchObject({
      MetricName: 'NotOurDeliveryEvents',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
    });
    expect(alarm('DeliveryProblems')).toMatchObject({
      Namespace: 'consultancy-site/test',
      MetricName: 'DeliveryProblems',
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 1,
    });
    expect(JSON.stringify(alarm('DeliveryProblems').AlarmDescription)).toContain('npm run messages -- list --status bounced');
  });

  it("read the retry job's count of messages not delivered within deliveryAlarmHours, at the configured hours", () => {
    const retry = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-retry-undelivered' }).resource
      .Properties;
    expect(retry.Environment.Variables.DELIVERY_ALARM_MINUTES).toBe(String(DEFAULTS.deliveryAlarmHours * 60));
    expect(alarm('MessagesNotDelivered')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'NotDelivered',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Minimum',
      Period: 1200,
    });
    const sixHours = synth({ deliveryAlarmHours: 6 });
    const retryOfSix = only(sixHours.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-retry-undelivered' })
      .resource.Properties;
    expect(retryOfSix.Environment.Variables.DELIVERY_ALARM_MINUTES).toBe('360');
  });

  it("read the retry job's backlog and the messages it gave up on from its own metrics; metric filters only for the delivery events", () => {
    // Every run in half an hour (three runs) left messages waiting.
    expect(alarm('MessagesUndelivered')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'RetryBacklog',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Minimum',
      Period: 1800,
      EvaluationPeriods: 1,
      // A run that timed out or never ran reports no backlog: that must not read as none.
      TreatMissingData: 'breaching',
    });
    expect(alarm('MessagesFailed')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'GivenUp',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
      Period: 600,
      EvaluationPeriods: 1,
    });
    // Two runs in a row whose digest failed: the first is retried by the next run unasked.
    expect(alarm('DigestFailed')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'DigestFailed',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
      Period: 1200,
      Threshold: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const filtered = Object.values(s.template.findResources('AWS::Logs::MetricFilter')).map(
      (f: any) => f.Properties.MetricTransformations[0].MetricName,
    );
    expect(filtered.sort()).toEqual(['DeliveryProblems', 'NotOurDeliveryEvents', 'UnmatchedDeliveryEvents']);
  });
});

describe('spam-wave alarms', () => {
  it('watch the messages stored and held per hour, on the counts the contact function writes', () => {
    expect(alarm('MessagesStoredSurge')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'Stored',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
      Period: 3600,
      Threshold: STORED_SURGE_PER_HOUR,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    // One message held because the budget was spent is one the firm will see only in the digest.
    expect(alarm('MailBudgetSpent')).toMatchObject({
      MetricName: 'Held',
      Dimensions: expect.arrayContaining([
        { Name: 'Stage', Value: 'test' },
        { Name: 'Reason', Value: 'budget' },
      ]),
      Statistic: 'Sum',
      Period: 3600,
      Threshold: 1,
    });
    expect(alarm('ManySuspectMessages')).toMatchObject({
      MetricName: 'Held',
      Dimensions: expect.arrayContaining([{ Name: 'Reason', Value: 'suspect' }]),
      Period: 3600,
      Threshold: SUSPECT_SURGE_PER_HOUR,
    });
    // One wave, one e-mail: the three notify through SpamWave, which says when it is over too.
    for (const name of ['MessagesStoredSurge', 'MailBudgetSpent', 'ManySuspectMessages']) {
      expect(alarm(name).AlarmActions, name).toBeUndefined();
      expect(alarm(name).OKActions, name).toBeUndefined();
    }
  });
});

describe('the outside check and the path’s other new watches', () => {
  it('fire when no run of the check passed in two intervals, a missing run counting as failed', () => {
    expect(alarm('OutsideCheckFailed')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'OutsideCheck',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Maximum',
      Period: 600,
      EvaluationPeriods: 1,
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
  });

  it('count the requests refused for want of the origin secret, on the contact function’s own metric', () => {
    expect(alarm('PostsNotThroughCloudFront')).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      MetricName: 'NotThroughCloudFront',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: NOT_THROUGH_CLOUDFRONT,
      TreatMissingData: 'notBreaching',
    });
  });

  it('fire when the contact function’s p99 stays near its timeout for two periods', () => {
    expect(alarm('SendFunctionSlow')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Duration',
      ExtendedStatistic: 'p99',
      Period: 300,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Threshold: FUNCTION_TIMEOUT_SECONDS * 1000 * SLOW_SHARE_OF_TIMEOUT,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });
});

describe('composite alarms', () => {
  const composite = (name: string) =>
    only(s.template, 'AWS::CloudWatch::CompositeAlarm', { AlarmName: `consultancy-site-test-${name}` }).resource.Properties;
  const alarmId = (name: string) => only(s.template, 'AWS::CloudWatch::Alarm', { AlarmName: `consultancy-site-test-${name}` }).id;

  it.each(Object.entries(COMPOSITE_ALARMS))(
    '%s is in ALARM while any of its members is, and notifies the topic for them',
    (name, members) => {
      const props = composite(name);
      const rule = JSON.stringify(props.AlarmRule);
      expect(rule).toContain('ALARM(\\"');
      const referenced = [...rule.matchAll(/"Fn::GetAtt":\["(\w+)","Arn"\]/g)].map(([, id]) => id).sort();
      expect(referenced).toEqual(members.map(alarmId).sort());
      expect(rule.match(/ OR /g) ?? []).toHaveLength(members.length - 1);
      expect(props.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(props.OKActions).toEqual([{ Ref: topicId() }]);
      expect(JSON.stringify(props.AlarmDescription)).toContain('Severity ');
    },
  );
});

describe('outputs', () => {
  it('give the dashboard, the site URL, distribution id, table name and API URL', () => {
    const outputs = s.template.toJSON().Outputs;
    expect(outputs.DashboardUrl.Value).toBe(
      'https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/consultancy-site-test',
    );
    const distributionId = only(s.template, 'AWS::CloudFront::Distribution').id;
    expect(outputs.SiteUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
    expect(outputs.DistributionId.Value).toEqual({ Ref: distributionId });
    expect(outputs.TableName.Value).toEqual({ Ref: only(s.template, 'AWS::DynamoDB::Table').id });
    expect(outputs.ApiUrl.Value).toEqual({ 'Fn::GetAtt': [only(s.template, 'AWS::ApiGatewayV2::Api').id, 'ApiEndpoint'] });
    // The CDK's own outputs that carry the distribution's and the saved queries' ids to the us-east-1 edge alarms are not the operator's.
    const operators = Object.entries<{ Description?: string }>(outputs).filter(([name]) => !name.startsWith('PublishOutput'));
    for (const [, output] of operators) expect(output.Description).toBeTruthy();
  });
});
