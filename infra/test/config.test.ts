/** The CDK context read into Config: defaults, CLI strings, and one clear message per mistake. */
import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';
import { ConfigError, loadConfig, retentionDaysFrom } from '../lib/config';
import { CDK_JSON_CONTEXT, makeSiteDir } from './synth';

const MINIMAL = { stage: 'test', contactRecipient: 'info@example.nl', senderAddress: 'website@example.nl' };

function problemsOf(context: Record<string, unknown>): string[] {
  try {
    loadConfig(context);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads cdk.json as committed, feature flags included', () => {
    expect(loadConfig(CDK_JSON_CONTEXT)).toEqual({
      stage: 'test',
      region: 'eu-west-1',
      contactRecipient: 'info@example.nl',
      senderAddress: 'website@example.nl',
      domainName: undefined,
      hostedZoneName: undefined,
      hostedZoneId: undefined,
      certificateArn: undefined,
      alarmEmail: undefined,
      retentionDays: 365,
      apiRateLimit: { rate: 10, burst: 20 },
      reservedConcurrency: 10,
      deletionProtection: false,
      createMailIdentity: true,
    });
  });

  it('fills in the defaults and turns deletion protection on for prod', () => {
    const config = loadConfig({ ...MINIMAL, stage: 'prod' });
    expect(config).toMatchObject({
      region: 'eu-west-1',
      retentionDays: 365,
      apiRateLimit: { rate: 10, burst: 20 },
      deletionProtection: true,
    });
    expect(loadConfig({ ...MINIMAL, stage: 'prod', deletionProtection: false }).deletionProtection).toBe(false);
  });

  it('takes -c key=value strings as the JSON they spell', () => {
    const config = loadConfig({
      ...MINIMAL,
      retentionDays: '30',
      apiRateLimit: '{"rate": 5, "burst": 8}',
      reservedConcurrency: 'false',
      deletionProtection: 'true',
    });
    expect(config).toMatchObject({
      retentionDays: 30,
      apiRateLimit: { rate: 5, burst: 8 },
      reservedConcurrency: false,
      deletionProtection: true,
    });
  });

  it("ignores the CDK's own context keys", () => {
    expect(() =>
      loadConfig({
        ...MINIMAL,
        '@aws-cdk/aws-iam:minimizePolicies': true,
        'aws:cdk:enable-path-metadata': true,
        'hosted-zone:account=123456789012:domainName=example.nl:region=eu-west-1': {},
        'acknowledged-issue-numbers': [],
      }),
    ).not.toThrow();
  });

  it('names an unknown key and lists the known ones', () => {
    expect(problemsOf({ ...MINIMAL, senderAdress: 'x@example.nl' })).toEqual([
      expect.stringMatching(/^senderAdress: unknown key\. Known keys: stage, region, contactRecipient, senderAddress, /),
    ]);
  });

  it('names every invalid e-mail address', () => {
    expect(problemsOf({ ...MINIMAL, contactRecipient: 'info@', senderAddress: 'website example.nl', alarmEmail: 'ops' })).toEqual([
      'contactRecipient: "info@" is not an e-mail address.',
      'senderAddress: "website example.nl" is not an e-mail address.',
      'alarmEmail: "ops" is not an e-mail address.',
    ]);
  });

  it('asks for what is missing', () => {
    expect(problemsOf({})).toEqual([
      expect.stringMatching(/^stage: required/),
      'contactRecipient: required (an e-mail address).',
      'senderAddress: required (an e-mail address).',
    ]);
  });

  it('refuses a domain without its hosted zone, or outside it', () => {
    expect(problemsOf({ ...MINIMAL, domainName: 'www.example.nl' })).toEqual([
      'domainName: needs hostedZoneName and hostedZoneId, the Route 53 zone that holds it (the synth does no lookups).',
    ]);
    expect(
      problemsOf({ ...MINIMAL, domainName: 'www.example.nl', hostedZoneName: 'example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ' }),
    ).toEqual(['domainName: www.example.nl is not inside hostedZoneName example.com.']);
    expect(problemsOf({ ...MINIMAL, hostedZoneName: 'example.nl' })).toEqual([
      'hostedZoneName, hostedZoneId and certificateArn only apply with domainName: set domainName or remove them.',
    ]);
  });

  it('refuses a certificate outside us-east-1', () => {
    expect(
      problemsOf({
        ...MINIMAL,
        domainName: 'example.nl',
        hostedZoneName: 'example.nl',
        hostedZoneId: 'Z0123456789ABCDEFGHIJ',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
      }),
    ).toEqual([expect.stringMatching(/^certificateArn: ".*" is not the ARN of an ACM certificate in us-east-1/)]);
  });

  it('names bad numbers and says what is allowed', () => {
    expect(
      problemsOf({ ...MINIMAL, retentionDays: 'a year', apiRateLimit: { rate: 0, burst: 2.5, speed: 1 }, reservedConcurrency: -1 }),
    ).toEqual([
      'retentionDays: "a year" is not a whole number from 1 to 3653.',
      'apiRateLimit.rate: 0 is not a whole number from 1 to 10000.',
      'apiRateLimit.burst: 2.5 is not a whole number from 1 to 5000.',
      'apiRateLimit.speed: unknown key; only rate and burst.',
      'reservedConcurrency: -1 is not a whole number from 1 to 1000.',
    ]);
    expect(problemsOf({ ...MINIMAL, retentionDays: 42 })).toEqual([
      expect.stringMatching(/^retentionDays: 42 is not a period CloudWatch Logs offers; use one of 1, 3, 5, /),
    ]);
    expect(problemsOf({ ...MINIMAL, apiRateLimit: 10 })).toEqual(['apiRateLimit: 10 is not an object like {"rate": 10, "burst": 20}.']);
  });

  it('refuses stage names that would not fit in resource names', () => {
    for (const stage of ['Prod', 'prod_1', '1prod', 'a-very-long-stage-name']) {
      expect(problemsOf({ ...MINIMAL, stage })).toEqual([expect.stringMatching(/^stage: ".*" is not a stage name/)]);
    }
  });

  it('puts every problem in one message that says what to fix', () => {
    expect(() => loadConfig({ ...MINIMAL, contactRecipient: 'x', region: 'Ireland' })).toThrow(
      'Invalid CDK context (cdk.json "context", or -c key=value):\n' +
        '  - region: "Ireland" is not an AWS region such as eu-west-1.\n' +
        '  - contactRecipient: "x" is not an e-mail address.\n' +
        'Fix these and run the command again.',
    );
  });

  it('stops the synth before anything is built', () => {
    const app = new App({ context: { ...CDK_JSON_CONTEXT, senderAddress: 'nobody' } });
    expect(() => buildApp(app, { siteDir: makeSiteDir() })).toThrow(/senderAddress: "nobody" is not an e-mail address/);
    expect(app.node.children).toHaveLength(0);
  });
});

describe('retentionDaysFrom', () => {
  it('gives the retention a synth with this context uses, as loadConfig does', () => {
    expect(retentionDaysFrom({})).toBe(365);
    expect(retentionDaysFrom({ retentionDays: '90' })).toBe(90);
    expect(retentionDaysFrom({ retentionDays: 30 })).toBe(loadConfig({ ...MINIMAL, retentionDays: 30 }).retentionDays);
    expect(() => retentionDaysFrom({ retentionDays: 100 })).toThrow('retentionDays: 100 is not a period CloudWatch Logs offers');
  });
});
