/**
 * The delivery path after SES: the stage's configuration set, its event destination, the
 * rule that brings this stage's events to the consumer, what the functions are given; and the
 * refusal of a prod stage that would notify nobody. (The us-east-1 alarms: edge-alarms.test.ts.)
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_ALARM_ENV, FUNCTION_ENV } from '@site/core/function-env';
import { SES_DETAIL_TYPES } from '@site/core/ses-events';
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

describe('a prod stage', () => {
  it('is refused at synth without alarmEmail: alarms that notify nobody are no alarms', () => {
    expect(() => synth({ stage: 'prod' }, { contentPlaceholders: new Map() })).toThrow(
      /alarmEmail: required for stage prod: alarms that notify nobody/,
    );
  });
});
