/**
 * The us-east-1 stack of a stage's alarms, as on call depends on it: CloudFront's 5xx and 4xx
 * rates judged only with enough requests, the API edge function's errors as CloudFront counts
 * them, the certificate's days left with an own domain, the WAF's blocks with a WAF; the topics
 * they notify (a page topic only with pageTo); CloudFront's access log in CloudWatch Logs with
 * only the fields on call reads, kept as the access logs are, and its saved query.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import {
  CERTIFICATE_DAYS_LEFT,
  CLOUDFRONT_5XX_PERCENT,
  EDGE_FUNCTION_ERRORS,
  RATE_MIN_REQUESTS,
  SITE_4XX_PERCENT,
} from '../lib/alarm-catalogue';
import { CLOUDFRONT_LOG_FIELDS } from '../lib/constructs/cloudfront-access-log';
import { EDGE_LOG_QUERIES } from '../lib/log-queries';
import { only, synth, TEST_DOMAIN, type Synthesized } from './synth';

const ALARM_EMAIL = `ops@${TEST_DOMAIN}`;
const ZONE = { hostedZoneName: TEST_DOMAIN, hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';

let s: Synthesized;
let edge: Template;
beforeAll(() => {
  s = synth({ alarmEmail: ALARM_EMAIL });
  edge = Template.fromStack(s.edgeAlarms);
});

const alarm = (template: Template, name: string) =>
  only(template, 'AWS::CloudWatch::Alarm', { AlarmName: `consultancy-site-test-${name}` }).resource.Properties;
const topicId = (template: Template, suffix: string) =>
  Object.entries<any>(template.findResources('AWS::SNS::Topic')).find(([, topic]) => topic.Properties.TopicName.endsWith(suffix))?.[0];

/** A metric-math alarm's metrics by their id: the metric's name, dimensions and statistic, or the expression. */
function metricsOf(props: any): Record<string, any> {
  return Object.fromEntries(
    props.Metrics.map((entry: any) => [
      entry.Id,
      entry.Expression ?? {
        name: entry.MetricStat.Metric.MetricName,
        namespace: entry.MetricStat.Metric.Namespace,
        dimensions: Object.fromEntries(entry.MetricStat.Metric.Dimensions.map((d: any) => [d.Name, d.Value])),
        stat: entry.MetricStat.Stat,
        period: entry.MetricStat.Period,
      },
    ]),
  );
}

describe('the topics', () => {
  it('are one encrypted topic that mails alarmEmail, in us-east-1, and no page topic without pageTo', () => {
    expect(s.edgeAlarms.region).toBe('us-east-1');
    expect(s.edgeAlarms.stackName).toBe('consultancy-site-test-edge-alarms');
    const topic = only(edge, 'AWS::SNS::Topic').resource.Properties;
    expect(topic.TopicName).toBe('consultancy-site-test-edge-alarms');
    expect(only(edge, 'AWS::KMS::Key').resource.Properties.EnableKeyRotation).toBe(true);
    expect(topic.KmsMasterKeyId['Fn::GetAtt'][1]).toBe('Arn');
    expect(only(edge, 'AWS::SNS::Subscription').resource.Properties).toMatchObject({ Protocol: 'email', Endpoint: ALARM_EMAIL });
    expect(topicId(s.template, '-page')).toBeUndefined();
  });

  it.each([
    ['an incident tool’s HTTPS endpoint', 'https://events.pagerduty.com/integration/0123456789abcdef/enqueue', 'https'],
    ['a phone for SMS', '+31612345678', 'sms'],
  ])('with pageTo, %s, are two in each stack under one key, the page topic subscribing pageTo', (_what, pageTo, protocol) => {
    const paged = synth({ alarmEmail: ALARM_EMAIL, pageTo });
    for (const template of [paged.template, Template.fromStack(paged.edgeAlarms)]) {
      const page = topicId(template, '-page')!;
      expect(page).toBeDefined();
      template.resourceCountIs('AWS::KMS::Key', 1);
      const keys = Object.values<any>(template.findResources('AWS::SNS::Topic')).map((topic) => topic.Properties.KmsMasterKeyId);
      expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(1);
      expect(only(template, 'AWS::SNS::Subscription', { TopicArn: { Ref: page } }).resource.Properties).toMatchObject({
        Protocol: protocol,
        Endpoint: pageTo,
      });
    }
    expect(
      Object.values<any>(paged.template.findResources('AWS::SNS::Topic'))
        .map((t) => t.Properties.TopicName)
        .sort(),
    ).toEqual(['consultancy-site-test-alarms', 'consultancy-site-test-page']);
  });
});

describe('the alarms', () => {
  it('watch CloudFront’s 5xx rate on the site’s distribution, only in periods with enough requests to judge, twice in a row', () => {
    const props = alarm(edge, 'CloudFront5xxRate');
    expect(props).toMatchObject({
      EvaluationPeriods: 2,
      Threshold: CLOUDFRONT_5XX_PERCENT,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    const metrics = metricsOf(props);
    expect(Object.values(metrics)).toContain(`IF(requests >= ${RATE_MIN_REQUESTS.fiveXx}, rate, 0)`);
    expect(metrics.requests).toMatchObject({ name: 'Requests', namespace: 'AWS/CloudFront', stat: 'Sum', period: 300 });
    expect(metrics.rate).toMatchObject({ name: '5xxErrorRate', stat: 'Average', period: 300 });
    expect(metrics.rate.dimensions.Region).toBe('Global');
    // Read across regions from the site stack's distribution.
    expect(JSON.stringify(metrics.rate.dimensions.DistributionId)).toContain('consultancy-site-test');
    const published = Object.entries<any>(s.template.toJSON().Outputs).filter(([name]) => name.startsWith('PublishOutputRef'));
    expect(published.map(([, output]) => output.Value)).toContainEqual({ Ref: only(s.template, 'AWS::CloudFront::Distribution').id });
  });

  it('watch CloudFront’s 4xx rate with a higher minimum of requests, three periods in a row', () => {
    const props = alarm(edge, 'Site4xxRate');
    expect(props).toMatchObject({ EvaluationPeriods: 3, Threshold: SITE_4XX_PERCENT, ComparisonOperator: 'GreaterThanThreshold' });
    const metrics = metricsOf(props);
    expect(Object.values(metrics)).toContain(`IF(requests >= ${RATE_MIN_REQUESTS.fourXx}, rate, 0)`);
    expect(metrics.rate).toMatchObject({ name: '4xxErrorRate', stat: 'Average' });
  });

  it('watch the API edge function’s execution and validation errors, as CloudFront counts them for the distribution', () => {
    const props = alarm(edge, 'EdgeFunctionErrors');
    expect(props).toMatchObject({ Threshold: EDGE_FUNCTION_ERRORS, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const metrics = metricsOf(props);
    expect(Object.values(metrics)).toContain('FILL(execution, 0) + FILL(validation, 0)');
    expect(metrics.execution).toMatchObject({ name: 'LambdaExecutionError', namespace: 'AWS/CloudFront', stat: 'Sum' });
    expect(metrics.validation).toMatchObject({ name: 'LambdaValidationError', namespace: 'AWS/CloudFront', stat: 'Sum' });
    expect(metrics.execution.dimensions.Region).toBe('Global');
  });

  it('are these three without a domain or a WAF: no certificate to watch', () => {
    const withoutWaf = Template.fromStack(synth({ alarmEmail: ALARM_EMAIL, wafRateLimit: false }).edgeAlarms);
    expect(
      Object.values<any>(withoutWaf.findResources('AWS::CloudWatch::Alarm'))
        .map((a) => a.Properties.AlarmName)
        .sort(),
    ).toEqual(['CloudFront5xxRate', 'EdgeFunctionErrors', 'Site4xxRate'].map((name) => `consultancy-site-test-${name}`));
  });

  it('watch the days the certificate the app makes for domainName has left', () => {
    const withDomain = synth({ alarmEmail: ALARM_EMAIL, domainName: `www.${TEST_DOMAIN}`, ...ZONE });
    const props = alarm(Template.fromStack(withDomain.edgeAlarms), 'CertificateExpiry');
    expect(props).toMatchObject({
      Namespace: 'AWS/CertificateManager',
      MetricName: 'DaysToExpiry',
      Statistic: 'Minimum',
      Period: 86400,
      Threshold: CERTIFICATE_DAYS_LEFT,
      ComparisonOperator: 'LessThanThreshold',
    });
    // The certificate stack's, in the same region.
    expect(JSON.stringify(props.Dimensions)).toContain('"StackName":"consultancy-site-test-certificate","Region":"us-east-1"');
    expect(withDomain.edgeAlarms.dependencies.map((stack) => stack.stackName)).toContain(withDomain.certificate!.stackName);
  });

  it('watch the days a certificate given as certificateArn has left', () => {
    const given = synth({
      alarmEmail: ALARM_EMAIL,
      domainName: `www.${TEST_DOMAIN}`,
      ...ZONE,
      certificateArn: CERTIFICATE_ARN,
      createMailIdentity: false,
    });
    expect(alarm(Template.fromStack(given.edgeAlarms), 'CertificateExpiry').Dimensions).toEqual([
      { Name: 'CertificateArn', Value: CERTIFICATE_ARN },
    ]);
  });

  it('watch the WAF’s blocked requests when the WAF is on', () => {
    const withWaf = synth({ alarmEmail: ALARM_EMAIL, wafRateLimit: 500 });
    expect(alarm(Template.fromStack(withWaf.edgeAlarms), 'WafBlockedRequests')).toMatchObject({
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

describe('CloudFront’s access log in CloudWatch Logs', () => {
  it('is delivered by CloudFront’s standard logging (v2) from the distribution to a log group kept as the access logs are', () => {
    const group = only(edge, 'AWS::Logs::LogGroup');
    expect(group.resource.Properties).toEqual({
      LogGroupName: '/aws/cloudfront/consultancy-site-test-access',
      RetentionInDays: ACCESS_LOG_RETENTION_DAYS,
    });
    const source = only(edge, 'AWS::Logs::DeliverySource').resource.Properties;
    expect(source).toMatchObject({ Name: 'consultancy-site-test-cloudfront', LogType: 'ACCESS_LOGS' });
    expect(JSON.stringify(source.ResourceArn)).toMatch(/:cloudfront::.*:distribution\//);
    const destination = only(edge, 'AWS::Logs::DeliveryDestination').resource.Properties;
    expect(destination).toMatchObject({ Name: 'consultancy-site-test-cloudfront-logs', OutputFormat: 'json' });
    expect(JSON.stringify(destination.DestinationResourceArn)).toContain(':log-group:');
    expect(JSON.stringify(destination.DestinationResourceArn)).toContain(`{"Ref":"${group.id}"}`);
  });

  it('holds only the fields on call reads: no address, referrer, query string, cookie or user agent', () => {
    const delivery = only(edge, 'AWS::Logs::Delivery').resource.Properties;
    expect(delivery.RecordFields).toEqual([...CLOUDFRONT_LOG_FIELDS]);
    for (const personal of ['c-ip', 'cs(Referer)', 'cs(User-Agent)', 'cs-uri-query', 'cs(Cookie)', 'x-forwarded-for', 'c-port']) {
      expect(delivery.RecordFields).not.toContain(personal);
    }
  });

  it('may be written by the log delivery service only, for this account, into its own group', () => {
    const policy = JSON.parse(
      only(edge, 'AWS::Logs::ResourcePolicy')
        .resource.Properties.PolicyDocument['Fn::Join'][1].map((part: unknown) => (typeof part === 'string' ? part : 'X'))
        .join(''),
    );
    expect(policy.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'delivery.logs.amazonaws.com' },
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Condition: { StringEquals: { 'aws:SourceAccount': 'X' }, ArnLike: { 'aws:SourceArn': 'arn:aws:logs:us-east-1:X:*' } },
      }),
    ]);
    expect(policy.Statement[0].Resource).toMatch(/:log-group:X:log-stream:\*$/);
  });

  it('has a saved query in us-east-1 over it, for the alarms that link to it', () => {
    const query = only(edge, 'AWS::Logs::QueryDefinition').resource.Properties;
    expect(query.Name).toBe(`consultancy-site-test/${Object.keys(EDGE_LOG_QUERIES)[0]}`);
    expect(query.LogGroupNames).toEqual([{ Ref: only(edge, 'AWS::Logs::LogGroup').id }]);
    expect(query.QueryString).toContain('`x-edge-detailed-result-type`');
  });
});
