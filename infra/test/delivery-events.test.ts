/**
 * The delivery path after SES: the stage's configuration set, its event destination, the
 * rule that brings this stage's events to the consumer, what the functions are given; the
 * us-east-1 alarms on CloudFront and the WAF; and the refusal of a prod stage that would
 * notify nobody.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_ALARM_ENV, FUNCTION_ENV } from '@site/core/function-env';
import { SES_DETAIL_TYPES } from '@site/core/ses-events';
import { CLOUDFRONT_5XX_PERCENT } from '../lib/alarm-catalogue';
import { only, synth, TEST_DOMAIN, type Synthesized } from './synth';

const ALARM_EMAIL = `ops@${TEST_DOMAIN}`;

let s: Synthesized;
beforeAll(() => {
  s = synth({ alarmEmail: ALARM_EMAIL });
});

const fn = (template: Template, name: string) => only(template, 'AWS::Lambda::Function', { FunctionName: `consultancy-site-test-${name}` });

describe('the configuration set', () => {
  it('is the stage’s own, with reputation metrics, and every function that e-mails sends through it', () => {
    const set = only(s.template, 'AWS::SES::ConfigurationSet');
    expect(set.resource.Properties).toMatchObject({
      Name: 'consultancy-site-test',
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
    });
    for (const name of ['send-contact-email', 'retry-undelivered']) {
      const sender = fn(s.template, name);
      // By name, as npm run messages -- resend knows it, and created only once the set exists.
      expect(sender.resource.Properties.Environment.Variables[FUNCTION_ENV.configurationSet], name).toBe('consultancy-site-test');
      expect(sender.resource.DependsOn, name).toContain(set.id);
    }
    expect(fn(s.template, 'retry-undelivered').resource.Properties.Environment.Variables[DELIVERY_ALARM_ENV.minutes]).toBe('180');
  });

  it('never adds an address to the suppression list nor applies the account’s: the firm’s own address cannot be suppressed by a wave’s bounces', () => {
    const set = only(s.template, 'AWS::SES::ConfigurationSet').resource.Properties;
    expect(set.SuppressionOptions).toEqual({ SuppressedReasons: [] });
  });

  it("publishes the seven sending events to the account's default EventBridge bus", () => {
    const destination = only(s.template, 'AWS::SES::ConfigurationSetEventDestination').resource.Properties;
    expect(destination.ConfigurationSetName).toEqual({ Ref: only(s.template, 'AWS::SES::ConfigurationSet').id });
    expect(destination.EventDestination).toMatchObject({
      Enabled: true,
      EventBridgeDestination: {
        EventBusArn: { 'Fn::Join': ['', ['arn:aws:events:eu-west-1:', { Ref: 'AWS::AccountId' }, ':event-bus/default']] },
      },
    });
    expect([...destination.EventDestination.MatchingEventTypes].sort()).toEqual(
      ['bounce', 'complaint', 'delivery', 'deliveryDelay', 'reject', 'renderingFailure', 'send'].sort(),
    );
  });

  it("has a rule that hands exactly this set's events to the consumer, retried for a day", () => {
    const consumer = fn(s.template, 'record-delivery-event');
    const rule = only(s.template, 'AWS::Events::Rule', { Name: 'consultancy-site-test-delivery-events' }).resource.Properties;
    expect(rule.EventPattern).toEqual({
      source: ['aws.ses'],
      'detail-type': SES_DETAIL_TYPES,
      detail: { mail: { tags: { 'ses:configuration-set': ['consultancy-site-test'] } } },
    });
    expect(rule.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [consumer.id, 'Arn'] },
        RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 },
      }),
    ]);
    const permission = only(s.template, 'AWS::Lambda::Permission', { FunctionName: { 'Fn::GetAtt': [consumer.id, 'Arn'] } }).resource
      .Properties;
    expect(permission).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com' });
  });

  it('gives the consumer the table’s name and not the firm’s address', () => {
    const consumer = fn(s.template, 'record-delivery-event');
    expect(consumer.resource.Properties.Environment.Variables).toMatchObject({
      [FUNCTION_ENV.tableName]: { Ref: only(s.template, 'AWS::DynamoDB::Table').id },
    });
    expect(Object.keys(consumer.resource.Properties.Environment.Variables)).not.toContain(FUNCTION_ENV.mailTo);
  });
});

describe('the edge alarms in us-east-1', () => {
  it('notify an encrypted topic of their own that mails alarmEmail', () => {
    expect(s.edgeAlarms.region).toBe('us-east-1');
    expect(s.edgeAlarms.stackName).toBe('consultancy-site-test-edge-alarms');
    const edge = Template.fromStack(s.edgeAlarms);
    const topic = only(edge, 'AWS::SNS::Topic').resource.Properties;
    expect(topic.TopicName).toBe('consultancy-site-test-edge-alarms');
    expect(only(edge, 'AWS::KMS::Key').resource.Properties.EnableKeyRotation).toBe(true);
    expect(topic.KmsMasterKeyId['Fn::GetAtt'][1]).toBe('Arn');
    expect(only(edge, 'AWS::SNS::Subscription').resource.Properties).toMatchObject({ Protocol: 'email', Endpoint: ALARM_EMAIL });
  });

  it("watch CloudFront's 5xx rate on the site's distribution, whose id comes from the site stack", () => {
    const edge = Template.fromStack(s.edgeAlarms);
    const alarm = only(edge, 'AWS::CloudWatch::Alarm', { AlarmName: 'consultancy-site-test-CloudFront5xxRate' }).resource.Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/CloudFront',
      MetricName: '5xxErrorRate',
      Statistic: 'Average',
      Period: 300,
      EvaluationPeriods: 2,
      Threshold: CLOUDFRONT_5XX_PERCENT,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: only(edge, 'AWS::SNS::Topic').id }],
    });
    const dimensions = Object.fromEntries(alarm.Dimensions.map((d: any) => [d.Name, d.Value]));
    expect(dimensions.Region).toBe('Global');
    // Read across regions from the site stack's distribution.
    expect(JSON.stringify(dimensions.DistributionId)).toContain('consultancy-site-test');
    const published = Object.entries<any>(s.template.toJSON().Outputs).filter(([name]) => name.startsWith('PublishOutputRef'));
    expect(published.map(([, output]) => output.Value)).toContainEqual({ Ref: only(s.template, 'AWS::CloudFront::Distribution').id });
    // The WAF's blocked requests beside it (the WAF is on by default).
    expect(Object.keys(edge.findResources('AWS::CloudWatch::Alarm'))).toHaveLength(2);
  });

  it("watch the WAF's blocked requests when the WAF is on", () => {
    const withWaf = synth({ alarmEmail: ALARM_EMAIL, wafRateLimit: 500 });
    const edge = Template.fromStack(withWaf.edgeAlarms);
    const alarm = only(edge, 'AWS::CloudWatch::Alarm', { AlarmName: 'consultancy-site-test-WafBlockedRequests' }).resource.Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: [
        { Name: 'Rule', Value: 'ALL' },
        { Name: 'WebACL', Value: only(Template.fromStack(withWaf.waf!), 'AWS::WAFv2::WebACL').resource.Properties.Name },
      ],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
    });
  });
});

describe('a prod stage', () => {
  it('is refused at synth without alarmEmail: alarms that notify nobody are no alarms', () => {
    expect(() => synth({ stage: 'prod' }, { contentPlaceholders: new Map() })).toThrow(
      /alarmEmail: required for stage prod: alarms that notify nobody/,
    );
  });
});
