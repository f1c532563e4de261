/**
 * A second stage with its own domain: the us-east-1 certificate stack, TLS 1.2, alias
 * records, the SES domain identity with DKIM, and names that cannot clash with `test`.
 * Then a given certificate and an SES identity that exists outside the app.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { expectNoFindings, only, synth, TEST_ADDRESSES, TEST_DOMAIN, type Synthesized } from './synth';

const ZONE = { hostedZoneName: TEST_DOMAIN, hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
const WWW = `www.${TEST_DOMAIN}`;
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';

describe('prod with its www domain, a certificate stack and reserved concurrency', () => {
  let s: Synthesized;
  let certificate: Template;
  let distribution: any;
  beforeAll(() => {
    // The firm has replaced every content placeholder.
    s = synth(
      {
        stage: 'prod',
        domainName: WWW,
        ...ZONE,
        alarmEmail: `ops@${TEST_DOMAIN}`,
        apiRateLimit: { rate: 5, burst: 8 },
        reservedConcurrency: 10,
      },
      { contentPlaceholders: new Map() },
    );
    certificate = Template.fromStack(s.certificate!);
    distribution = only(s.template, 'AWS::CloudFront::Distribution').resource.Properties.DistributionConfig;
  });

  it('leaves no cdk-nag finding unacknowledged and no warning or error in any stack', () => {
    expectNoFindings(s.app, [s.site, s.certificate!, s.mail!, s.edgeAlarms]);
  });

  it('deploys three stacks named after the stage, the certificate and the edge alarms in us-east-1', () => {
    expect(s.site.stackName).toBe('consultancy-site-prod');
    expect(s.site.region).toBe('eu-west-1');
    expect(s.certificate!.stackName).toBe('consultancy-site-prod-certificate');
    expect(s.certificate!.region).toBe('us-east-1');
    expect(s.edgeAlarms.stackName).toBe('consultancy-site-prod-edge-alarms');
    expect(s.edgeAlarms.region).toBe('us-east-1');
  });

  it('validates the certificate through DNS in the hosted zone', () => {
    expect(only(certificate, 'AWS::CertificateManager::Certificate').resource.Properties).toMatchObject({
      DomainName: WWW,
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: WWW, HostedZoneId: ZONE.hostedZoneId }],
    });
  });

  it('serves the www domain with that certificate, TLS 1.2 or newer, without custom resources to read it', () => {
    expect(distribution.Aliases).toEqual([WWW]);
    expect(distribution.ViewerCertificate).toEqual({
      AcmCertificateArn: {
        'Fn::GetStackOutput': {
          StackName: 'consultancy-site-prod-certificate',
          Region: 'us-east-1',
          OutputName: expect.stringMatching(/^PublishOutputRefCertificate/),
        },
      },
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(Object.keys(s.template.findResources('AWS::CloudFormation::CustomResource'))).toEqual([]);
    expect(Object.keys(s.template.findResources('Custom::CrossRegionExportReader'))).toEqual([]);
  });

  it('points A and AAAA records of the www domain at the distribution', () => {
    for (const type of ['A', 'AAAA']) {
      expect(only(s.template, 'AWS::Route53::RecordSet', { Type: type }).resource.Properties).toMatchObject({
        Name: `${WWW}.`,
        HostedZoneId: ZONE.hostedZoneId,
        AliasTarget: { DNSName: { 'Fn::GetAtt': [only(s.template, 'AWS::CloudFront::Distribution').id, 'DomainName'] } },
      });
    }
    expect(s.template.toJSON().Outputs.SiteUrl.Value).toBe(`https://${WWW}`);
  });

  it('verifies the mail domain with DKIM records in the zone, in the shared mail stack, and still lets the functions send only as senderAddress', () => {
    expect(s.config.verifySenderDomain).toBe(true);
    expect(s.mail!.stackName).toBe('consultancy-site-mail-streepjevoorfinance-nl');
    const mail = s.mailTemplate!;
    const identity = only(mail, 'AWS::SES::EmailIdentity');
    expect(identity.resource.Properties).toEqual({ EmailIdentity: TEST_DOMAIN });
    const dkim = Object.values(mail.findResources('AWS::Route53::RecordSet', { Properties: { Type: 'CNAME' } }));
    expect(dkim).toHaveLength(3);
    for (const [index, record] of dkim.entries()) {
      expect((record as any).Properties).toMatchObject({
        HostedZoneId: ZONE.hostedZoneId,
        Name: { 'Fn::GetAtt': [identity.id, `DkimDNSTokenName${index + 1}`] },
      });
    }
    // In the zone, so nothing to publish by hand.
    expect(Object.keys(mail.toJSON().Outputs)).toEqual(['IdentityArn']);
    const statements = (Object.values(s.template.findResources('AWS::IAM::Policy')) as any[])
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => statement.Action === 'ses:SendEmail');
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': TEST_ADDRESSES.senderAddress } });
    }
  });

  it('protects the prod table from deletion', () => {
    expect(only(s.template, 'AWS::DynamoDB::Table').resource.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('takes the throttle and concurrency from the configuration, and says what quota the reservation needs', () => {
    expect(only(s.template, 'AWS::ApiGatewayV2::Stage').resource.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 8,
    });
    const send = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-prod-send-contact-email' });
    expect(send.resource.Properties.ReservedConcurrentExecutions).toBe(10);
    // An info line in the synth output, not a warning: the deploy may well be fine.
    const info = Annotations.fromStack(s.site).findInfo('*', Match.stringLikeRegexp('reservedConcurrency'));
    expect(info.map((entry) => entry.entry.data)).toEqual([
      expect.stringMatching(
        /^reservedConcurrency 10: Lambda keeps 100 concurrent executions unreserved, so this deploy needs an account quota of at least 110 /,
      ),
    ]);
  });

  it('names every named resource after the stage, so it deploys beside test', () => {
    const named: [string, (props: any) => string][] = [
      ['AWS::Lambda::Function', (p) => p.FunctionName],
      ['AWS::DynamoDB::Table', (p) => p.TableName],
      ['AWS::Logs::LogGroup', (p) => p.LogGroupName],
      ['AWS::CloudFront::Function', (p) => p.Name],
      ['AWS::CloudFront::ResponseHeadersPolicy', (p) => p.ResponseHeadersPolicyConfig.Name],
      ['AWS::ApiGatewayV2::Api', (p) => p.Name],
      ['AWS::SNS::Topic', (p) => p.TopicName],
      ['AWS::CloudWatch::Alarm', (p) => p.AlarmName],
      ['AWS::Events::Rule', (p) => p.Name],
    ];
    const names = named.flatMap(([type, nameOf]) =>
      Object.values(s.template.findResources(type))
        .map((resource: any) => nameOf(resource.Properties))
        .filter((name) => name !== undefined),
    );
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect(name).toContain('consultancy-site-prod-');
    expect(only(s.template, 'AWS::DynamoDB::Table').resource.Properties.TableName).toBeUndefined();
    expect(JSON.stringify(s.template.toJSON())).not.toContain('consultancy-site-test');
  });
});

describe('an own certificate, an SES identity made outside the app, and a known account', () => {
  let s: Synthesized;
  let distribution: any;
  beforeAll(() => {
    // With credentials, as at deploy time, the CLI hands the app its account.
    process.env.CDK_DEFAULT_ACCOUNT = '123456789012';
    try {
      s = synth({ domainName: TEST_DOMAIN, ...ZONE, certificateArn: CERTIFICATE_ARN, createMailIdentity: false });
    } finally {
      delete process.env.CDK_DEFAULT_ACCOUNT;
    }
    distribution = only(s.template, 'AWS::CloudFront::Distribution').resource.Properties.DistributionConfig;
  });

  it('leaves no cdk-nag finding unacknowledged and no annotation, with the account known', () => {
    expect(s.site.account).toBe('123456789012');
    expectNoFindings(s.app, [s.site]);
  });

  it('uses the given certificate and needs no certificate stack', () => {
    expect(s.certificate).toBeUndefined();
    expect(s.app.node.children.filter((child) => child.node.id.endsWith('-certificate'))).toEqual([]);
    expect(distribution.ViewerCertificate).toEqual({
      AcmCertificateArn: CERTIFICATE_ARN,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(distribution.Aliases).toEqual([TEST_DOMAIN]);
  });

  it('creates no SES identity or mail stack, imports nothing, and grants sending as senderAddress on the identities of the account', () => {
    expect(s.mail).toBeUndefined();
    expect(s.app.node.children.filter((child) => child.node.id.includes('-mail-'))).toEqual([]);
    s.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    s.template.resourceCountIs('AWS::Route53::RecordSet', 2);
    expect(s.template.toJSON().Outputs.MailIdentityArn).toBeUndefined();
    // Only the us-east-1 stacks every site stack reads from: the Lambda@Edge function's version and the web ACL.
    expect(s.site.dependencies.map((stack) => stack.stackName).sort()).toEqual([s.apiEdge.stackName, s.waf!.stackName].sort());
    const statements = (Object.values(s.template.findResources('AWS::IAM::Policy')) as any[])
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => statement.Action === 'ses:SendEmail');
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      expect(statement.Resource).toEqual([
        'arn:aws:ses:eu-west-1:123456789012:configuration-set/consultancy-site-test',
        'arn:aws:ses:eu-west-1:123456789012:identity/*',
      ]);
      expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': TEST_ADDRESSES.senderAddress } });
    }
  });
});

describe('the sender domain verified without a Route 53 zone', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synth({ verifySenderDomain: true });
  });

  it('leaves no cdk-nag finding unacknowledged and no warning or error', () => {
    expectNoFindings(s.app, [s.site, s.mail!]);
  });

  it('creates the domain identity and gives its three DKIM CNAMEs as outputs for the DNS provider', () => {
    const mail = s.mailTemplate!;
    const identity = only(mail, 'AWS::SES::EmailIdentity');
    expect(identity.resource.Properties).toEqual({ EmailIdentity: TEST_DOMAIN });
    mail.resourceCountIs('AWS::Route53::RecordSet', 0);
    const outputs = mail.toJSON().Outputs;
    for (const n of [1, 2, 3]) {
      expect(outputs[`DkimRecord${n}`]).toEqual({
        Description: `DKIM record ${n} of 3 for ${TEST_DOMAIN}: add it at the domain's DNS provider`,
        Value: {
          'Fn::Join': [
            ' ',
            [{ 'Fn::GetAtt': [identity.id, `DkimDNSTokenName${n}`] }, 'CNAME', { 'Fn::GetAtt': [identity.id, `DkimDNSTokenValue${n}`] }],
          ],
        },
      });
    }
  });
});
