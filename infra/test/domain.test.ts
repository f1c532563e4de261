/**
 * A second stage with its own domain: the us-east-1 certificate stack, TLS 1.2, alias
 * records, the SES domain identity with DKIM, and names that cannot clash with `test`.
 * Then a given certificate and an SES identity another stage already created.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { expectNoFindings, only, synth, type Synthesized } from './synth';

const ZONE = { hostedZoneName: 'example.nl', hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';

describe('prod with www.example.nl and a certificate stack', () => {
  let s: Synthesized;
  let certificate: Template;
  let distribution: any;
  beforeAll(() => {
    s = synth({ stage: 'prod', domainName: 'www.example.nl', ...ZONE, apiRateLimit: { rate: 5, burst: 8 }, reservedConcurrency: false });
    certificate = Template.fromStack(s.certificate!);
    distribution = only(s.template, 'AWS::CloudFront::Distribution').resource.Properties.DistributionConfig;
  });

  it('leaves no cdk-nag finding unacknowledged and no annotation in either stack', () => {
    expectNoFindings(s.app, [s.site, s.certificate!]);
  });

  it('deploys two stacks named after the stage, the certificate in us-east-1', () => {
    expect(s.site.stackName).toBe('consultancy-site-prod');
    expect(s.site.region).toBe('eu-west-1');
    expect(s.certificate!.stackName).toBe('consultancy-site-prod-certificate');
    expect(s.certificate!.region).toBe('us-east-1');
  });

  it('validates the certificate through DNS in the hosted zone', () => {
    expect(only(certificate, 'AWS::CertificateManager::Certificate').resource.Properties).toMatchObject({
      DomainName: 'www.example.nl',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'www.example.nl', HostedZoneId: ZONE.hostedZoneId }],
    });
  });

  it('serves www.example.nl with that certificate, TLS 1.2 or newer, without custom resources to read it', () => {
    expect(distribution.Aliases).toEqual(['www.example.nl']);
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

  it('points A and AAAA records of www.example.nl at the distribution', () => {
    for (const type of ['A', 'AAAA']) {
      expect(only(s.template, 'AWS::Route53::RecordSet', { Type: type }).resource.Properties).toMatchObject({
        Name: 'www.example.nl.',
        HostedZoneId: ZONE.hostedZoneId,
        AliasTarget: { DNSName: { 'Fn::GetAtt': [only(s.template, 'AWS::CloudFront::Distribution').id, 'DomainName'] } },
      });
    }
    expect(s.template.toJSON().Outputs.SiteUrl.Value).toBe('https://www.example.nl');
  });

  it('verifies the mail domain with DKIM records in the zone, and still lets the functions send only as senderAddress', () => {
    const identity = only(s.template, 'AWS::SES::EmailIdentity');
    expect(identity.resource.Properties).toEqual({ EmailIdentity: 'example.nl' });
    const dkim = Object.values(s.template.findResources('AWS::Route53::RecordSet', { Properties: { Type: 'CNAME' } }));
    expect(dkim).toHaveLength(3);
    for (const [index, record] of dkim.entries()) {
      expect((record as any).Properties).toMatchObject({
        HostedZoneId: ZONE.hostedZoneId,
        Name: { 'Fn::GetAtt': [identity.id, `DkimDNSTokenName${index + 1}`] },
      });
    }
    for (const policy of Object.values(s.template.findResources('AWS::IAM::Policy')) as any[]) {
      for (const statement of policy.Properties.PolicyDocument.Statement.filter((st: any) => st.Action === 'ses:SendEmail')) {
        expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'website@example.nl' } });
        expect(JSON.stringify(statement.Resource)).toContain(identity.id);
      }
    }
  });

  it('protects the prod table from deletion', () => {
    expect(only(s.template, 'AWS::DynamoDB::Table').resource.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('takes the throttle and concurrency from the configuration', () => {
    expect(only(s.template, 'AWS::ApiGatewayV2::Stage').resource.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 8,
    });
    const send = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-prod-send-contact-email' });
    expect(send.resource.Properties.ReservedConcurrentExecutions).toBeUndefined();
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
    expect(JSON.stringify(s.template.toJSON())).not.toContain('consultancy-site-test');
  });
});

describe('an own certificate, an SES identity that already exists, and a known account', () => {
  let s: Synthesized;
  let distribution: any;
  beforeAll(() => {
    // With credentials, as at deploy time, the CLI hands the app its account.
    process.env.CDK_DEFAULT_ACCOUNT = '123456789012';
    try {
      s = synth({ domainName: 'example.nl', ...ZONE, certificateArn: CERTIFICATE_ARN, createMailIdentity: false });
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
    expect(distribution.Aliases).toEqual(['example.nl']);
  });

  it('creates no SES identity and grants sending on the existing one', () => {
    s.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    s.template.resourceCountIs('AWS::Route53::RecordSet', 2);
    const statements = (Object.values(s.template.findResources('AWS::IAM::Policy')) as any[])
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => statement.Action === 'ses:SendEmail');
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      expect(statement.Resource).toBe('arn:aws:ses:eu-west-1:123456789012:identity/example.nl');
    }
  });
});
