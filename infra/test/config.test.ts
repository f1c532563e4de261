/** The CDK context read into Config: defaults, CLI strings, and one clear message per mistake. */
import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { PLACEHOLDERS_BY_FILE } from '@site/frontend/content-files';
import { PlaceholdersLeftError, type PlaceholdersByFile } from '@site/core/placeholders';
import { buildApp } from '../lib/app';
import {
  ConfigError,
  DEFAULTS,
  IPV6_NETWORK_FACTOR,
  ipv6NetworkLimitFrom,
  loadConfig,
  retentionDaysFrom,
  visitorLimitFrom,
} from '@site/core/node/deploy-config';
import { CDK_JSON_CONTEXT, makeSiteDir, TEST_ADDRESSES, TEST_DOMAIN, UNBUNDLED } from './synth';

const MINIMAL = { stage: 'test', ...TEST_ADDRESSES };

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
  it('finds no addresses in cdk.json as committed, and says for each how to set it', () => {
    expect(problemsOf(CDK_JSON_CONTEXT)).toEqual([
      'contactRecipient: required (the address contact messages are e-mailed to); set it with -c contactRecipient=<address> or as "contactRecipient" in the "context" of cdk.json.',
      'senderAddress: required (the From address of those e-mails); set it with -c senderAddress=<address> or as "senderAddress" in the "context" of cdk.json.',
    ]);
  });

  it('reads cdk.json as committed plus the addresses, feature flags included', () => {
    expect(loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES })).toEqual({
      stage: 'test',
      region: 'eu-west-1',
      contactRecipient: TEST_ADDRESSES.contactRecipient,
      senderAddress: TEST_ADDRESSES.senderAddress,
      domainName: undefined,
      hostedZoneName: undefined,
      hostedZoneId: undefined,
      certificateArn: undefined,
      alarmEmail: undefined,
      retentionDays: 365,
      apiRateLimit: { rate: 25, burst: 50 },
      reservedConcurrency: false,
      deletionProtection: false,
      createMailIdentity: true,
      verifySenderDomain: false,
      visitorLimit: { messages: 5, windowMinutes: 10 },
      ipv6NetworkLimit: 20,
      originSecretVersion: undefined,
      originSecretPreviousVersion: undefined,
      wafRateLimit: 100,
      hstsIncludeSubdomains: false,
      deliveryAlarmHours: 3,
      mailBudget: { perHour: 10, perDay: 40 },
      siteMailBudget: { perHour: 30, perDay: 120 },
      sesDailyQuota: 200,
      spamRetentionDays: 14,
      githubRepository: undefined,
      githubEnvironments: ['test', 'prod'],
      githubOidcProviderArn: undefined,
    });
  });

  it('fills in the defaults and turns deletion protection on for prod', () => {
    const config = loadConfig({ ...MINIMAL, stage: 'prod', alarmEmail: `ops@${TEST_DOMAIN}` });
    expect(config).toMatchObject({
      region: 'eu-west-1',
      retentionDays: 365,
      apiRateLimit: { rate: 25, burst: 50 },
      deletionProtection: true,
    });
    expect(loadConfig({ ...MINIMAL, stage: 'prod', alarmEmail: `ops@${TEST_DOMAIN}`, deletionProtection: false }).deletionProtection).toBe(
      false,
    );
  });

  it('refuses prod without alarmEmail: alarms that notify nobody are no alarms', () => {
    expect(problemsOf({ ...MINIMAL, stage: 'prod' })).toEqual([
      'alarmEmail: required for stage prod: alarms that notify nobody are no alarms; set it with -c alarmEmail=<address> or as "alarmEmail" in the "context" of cdk.json.',
    ]);
    expect(loadConfig({ ...MINIMAL, stage: 'test' }).alarmEmail).toBeUndefined();
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
    expect(problemsOf({ ...MINIMAL, senderAdress: `x@${TEST_DOMAIN}` })).toEqual([
      expect.stringMatching(/^senderAdress: unknown key\. Known keys: stage, region, contactRecipient, senderAddress, /),
    ]);
  });

  it('names every invalid e-mail address', () => {
    expect(problemsOf({ ...MINIMAL, contactRecipient: 'info@', senderAddress: 'website firm.nl', alarmEmail: 'ops' })).toEqual([
      'contactRecipient: "info@" is not an e-mail address.',
      'senderAddress: "website firm.nl" is not an e-mail address.',
      'alarmEmail: "ops" is not an e-mail address.',
    ]);
  });

  it('asks for what is missing', () => {
    expect(problemsOf({})).toEqual([
      expect.stringMatching(/^stage: required/),
      expect.stringMatching(/^contactRecipient: required .*-c contactRecipient=<address>/),
      expect.stringMatching(/^senderAddress: required .*-c senderAddress=<address>/),
    ]);
  });

  it.each([
    ['kantoor@example.nl', 'documentation example domain'],
    ['info@example.com', 'documentation example domain'],
    ['ops@example.org', 'documentation example domain'],
    ['ops@example.net', 'documentation example domain'],
    ['info@example.co.uk', 'documentation example domain'],
    ['info@mail.example.nl', 'documentation example domain'],
    ['Info@EXAMPLE.NL', 'documentation example domain'],
    ['website@firma.test', 'reserved top-level domain'],
    ['website@firma.example', 'reserved top-level domain'],
    ['website@firma.invalid', 'reserved top-level domain'],
    ['website@site.localhost', 'reserved top-level domain'],
    ['info@yourdomain.com', 'fill-in-here name'],
    ['info@your-company.nl', 'fill-in-here name'],
    ['changeme@streepjevoorfinance.nl', 'fill-in-here name'],
  ])('refuses the placeholder %s for every address key, naming the key and how to set it', (placeholder, why) => {
    for (const key of ['contactRecipient', 'senderAddress', 'alarmEmail']) {
      const [problem, ...others] = problemsOf({ ...MINIMAL, [key]: placeholder });
      expect(others).toEqual([]);
      expect(problem).toMatch(new RegExp(`^${key}: \\S+ is a placeholder \\(.*${why}`));
      expect(problem).toContain(`; set it with -c ${key}=<address> or as "${key}" in the "context" of cdk.json to the real address.`);
    }
  });

  it('accepts real-looking addresses, subdomains and plus tags', () => {
    for (const address of [
      'info@streepjevoorfinance.nl',
      'contact+site@mail.streepjevoorfinance.nl',
      'ops@examplefirm.nl',
      'test@firm.nl',
    ]) {
      expect(loadConfig({ ...MINIMAL, contactRecipient: address, alarmEmail: `oncall-${address}` }).contactRecipient).toBe(address);
    }
  });

  it('refuses an alarmEmail that is contactRecipient, in any case, saying why', () => {
    const contactRecipient = MINIMAL.contactRecipient as string;
    for (const alarmEmail of [contactRecipient, contactRecipient.toUpperCase()]) {
      expect(problemsOf({ ...MINIMAL, alarmEmail })).toEqual([
        'alarmEmail: is contactRecipient, the firm’s own mailbox: an alarm about that mailbox (full, bouncing, its mail filter) would go to the mailbox that fails, ' +
          'and visitors’ messages would drown the alarms. Give the address of whoever is on call.',
      ]);
    }
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
    expect(problemsOf({ ...MINIMAL, retentionDays: 'a year', apiRateLimit: { rate: 0, burst: 2.5, speed: 1 } })).toEqual([
      'retentionDays: "a year" is not a whole number from 1 to 3653.',
      'apiRateLimit.rate: 0 is not a whole number from 1 to 10000.',
      'apiRateLimit.burst: 2.5 is not a whole number from 1 to 5000.',
      'apiRateLimit.speed: unknown key; only rate and burst.',
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
    const app = new App({ context: { ...CDK_JSON_CONTEXT, ...UNBUNDLED, senderAddress: 'nobody' } });
    expect(() => buildApp(app, { siteDir: makeSiteDir() })).toThrow(/senderAddress: "nobody" is not an e-mail address/);
    expect(app.node.children).toHaveLength(0);
  });
});

describe('pageTo', () => {
  it('is unset by default, and takes an https:// address of an incident tool or an E.164 phone number', () => {
    expect(loadConfig(MINIMAL).pageTo).toBeUndefined();
    for (const pageTo of [
      'https://events.pagerduty.com/integration/abc/enqueue',
      'https://api.opsgenie.com/v1/json/amazonsns?apiKey=k',
      '+31612345678',
    ]) {
      expect(loadConfig({ ...MINIMAL, pageTo }).pageTo).toBe(pageTo);
    }
  });

  it('refuses plain HTTP, a phone number as people write it, and anything else, saying what it takes', () => {
    for (const pageTo of [
      'http://events.example.nl/page',
      '06 12345678',
      '+31 6 12345678',
      '0612345678',
      'ops@firma.nl',
      'https://localhost/x',
    ]) {
      expect(problemsOf({ ...MINIMAL, pageTo }), pageTo).toEqual([
        `pageTo: ${JSON.stringify(pageTo)} is neither an https:// address of an incident tool (https://events.example.com/integration/…) ` +
          'nor a phone number for SMS in E.164, a plus, the country code and the number without spaces (+31612345678).',
      ]);
    }
  });
});

describe('reservedConcurrency', () => {
  it('reserves nothing by default, which every account can deploy', () => {
    expect(DEFAULTS.reservedConcurrency).toBe(false);
    expect(loadConfig(MINIMAL).reservedConcurrency).toBe(false);
    expect(loadConfig({ ...MINIMAL, reservedConcurrency: 10 }).reservedConcurrency).toBe(10);
    expect(loadConfig({ ...MINIMAL, reservedConcurrency: '900' }).reservedConcurrency).toBe(900);
  });

  it.each([0, -1, 2.5, 901, 'ten', true])('refuses %j and explains the account quota it would need', (value) => {
    expect(problemsOf({ ...MINIMAL, reservedConcurrency: value })).toEqual([
      `reservedConcurrency: ${JSON.stringify(value)} is not false or a whole number from 1 to 900. ` +
        "Lambda keeps 100 concurrent executions unreserved, so the account's quota (Service Quotas, AWS Lambda, Concurrent executions; " +
        'new accounts often have 10, the usual default is 1000) must be at least the value + 100; false reserves none.',
    ]);
  });
});

describe('verifySenderDomain', () => {
  const ZONE = { domainName: `www.${TEST_DOMAIN}`, hostedZoneName: TEST_DOMAIN, hostedZoneId: 'Z0123456789ABCDEFGHIJ' };

  it('is on by default where the stack can write the DKIM records: the sender at the hosted zone', () => {
    expect(loadConfig(MINIMAL).verifySenderDomain).toBe(false);
    expect(loadConfig({ ...MINIMAL, ...ZONE }).verifySenderDomain).toBe(true);
    expect(loadConfig({ ...MINIMAL, ...ZONE, senderAddress: 'website@andere-firma.nl' }).verifySenderDomain).toBe(false);
    expect(loadConfig({ ...MINIMAL, ...ZONE, verifySenderDomain: false }).verifySenderDomain).toBe(false);
    expect(loadConfig({ ...MINIMAL, verifySenderDomain: 'true' }).verifySenderDomain).toBe(true);
    expect(loadConfig({ ...MINIMAL, ...ZONE, createMailIdentity: false }).verifySenderDomain).toBe(false);
  });

  it('must be true or false, and needs the app to create the identity', () => {
    expect(problemsOf({ ...MINIMAL, verifySenderDomain: 'yes' })).toEqual(['verifySenderDomain: "yes" is not true or false.']);
    expect(problemsOf({ ...MINIMAL, verifySenderDomain: true, createMailIdentity: false })).toEqual([
      'verifySenderDomain: only applies when the app creates the identity; remove it, or set createMailIdentity to true.',
    ]);
  });
});

describe('content placeholders', () => {
  const build = (stage: string, contentPlaceholders?: PlaceholdersByFile) =>
    buildApp(new App({ context: { ...CDK_JSON_CONTEXT, ...UNBUNDLED, ...TEST_ADDRESSES, alarmEmail: `ops@${TEST_DOMAIN}`, stage } }), {
      siteDir: makeSiteDir(),
      contentPlaceholders,
    });

  it('stop a prod synth while the content has any, naming each key and the file to replace them in', () => {
    const left: PlaceholdersByFile = new Map([
      [
        'core/src/content/firm.ts',
        new Map([
          ['firm.phone', '038 000 00 00'],
          ['firm.kvk', '00000000'],
        ]),
      ],
      ['frontend/src/content/privacy.ts', new Map([['privacy.email', 'privacy@jansen-advies.test']])],
    ]);
    let message = '';
    try {
      build('prod', left);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^Stage prod would publish sample content\. Replace these placeholder\(…\) values in core\/src\/content\/firm\.ts and frontend\/src\/content\/privacy\.ts /,
    );
    for (const key of [
      'firm.phone (core/src/content/firm.ts)',
      'firm.kvk (core/src/content/firm.ts)',
      'privacy.email (frontend/src/content/privacy.ts)',
    ]) {
      expect(message).toContain(`\n  - ${key}`);
    }
  });

  it('are the content’s own by default: a prod synth refuses while the content has any left, and only then', () => {
    const anyLeft = [...PLACEHOLDERS_BY_FILE.values()].some((placeholders) => placeholders.size > 0);
    if (anyLeft) expect(() => build('prod')).toThrow(PlaceholdersLeftError);
    else expect(() => build('prod')).not.toThrow();
  });

  it('leave other stages alone, without a warning', () => {
    const built = build('test');
    for (const stack of [built.site, built.mail!]) {
      expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
    }
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

describe('visitorLimit', () => {
  it('is 5 messages per 10 minutes by default, and takes an object or its -c JSON', () => {
    expect(DEFAULTS.visitorLimit).toEqual({ messages: 5, windowMinutes: 10 });
    expect(loadConfig(MINIMAL).visitorLimit).toEqual(DEFAULTS.visitorLimit);
    expect(loadConfig({ ...MINIMAL, visitorLimit: { messages: 3, windowMinutes: 60 } }).visitorLimit).toEqual({
      messages: 3,
      windowMinutes: 60,
    });
    expect(loadConfig({ ...MINIMAL, visitorLimit: '{"messages": 20, "windowMinutes": 1}' }).visitorLimit).toEqual({
      messages: 20,
      windowMinutes: 1,
    });
  });

  it('names what is wrong with it', () => {
    expect(problemsOf({ ...MINIMAL, visitorLimit: 5 })).toEqual([
      'visitorLimit: 5 is not an object like {"messages": 5, "windowMinutes": 10}.',
    ]);
    expect(problemsOf({ ...MINIMAL, visitorLimit: { messages: 0, windowMinutes: 1441, per: 'ip' } })).toEqual([
      'visitorLimit.messages: 0 is not a whole number from 1 to 1000.',
      'visitorLimit.windowMinutes: 1441 is not a whole number from 1 to 1440.',
      'visitorLimit.per: unknown key; only messages and windowMinutes.',
    ]);
    expect(problemsOf({ ...MINIMAL, visitorLimit: { messages: 5 } })).toEqual([
      'visitorLimit.windowMinutes: undefined is not a whole number from 1 to 1440.',
    ]);
  });

  it('is what visitorLimitFrom gives the local stack for the same context', () => {
    expect(visitorLimitFrom({})).toEqual(DEFAULTS.visitorLimit);
    expect(visitorLimitFrom(CDK_JSON_CONTEXT)).toEqual(loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES }).visitorLimit);
    expect(visitorLimitFrom({ visitorLimit: '{"messages": 2, "windowMinutes": 5}' })).toEqual({ messages: 2, windowMinutes: 5 });
    expect(() => visitorLimitFrom({ visitorLimit: { messages: -1, windowMinutes: 5 } })).toThrow(
      'visitorLimit.messages: -1 is not a whole number from 1 to 1000.',
    );
  });
});

describe('ipv6NetworkLimit', () => {
  it('is 4 visitors’ worth per /48 by default, following visitorLimit, and takes a number of its own', () => {
    expect(loadConfig(MINIMAL).ipv6NetworkLimit).toBe(IPV6_NETWORK_FACTOR * DEFAULTS.visitorLimit.messages);
    expect(IPV6_NETWORK_FACTOR).toBe(4);
    expect(loadConfig({ ...MINIMAL, visitorLimit: { messages: 12, windowMinutes: 10 } }).ipv6NetworkLimit).toBe(48);
    expect(loadConfig({ ...MINIMAL, ipv6NetworkLimit: '100' }).ipv6NetworkLimit).toBe(100);
    expect(loadConfig({ ...MINIMAL, ipv6NetworkLimit: 5 }).ipv6NetworkLimit).toBe(5);
  });

  it('holds at least one visitor, and no more than a counter can hold', () => {
    expect(problemsOf({ ...MINIMAL, ipv6NetworkLimit: 4 })).toEqual([
      "ipv6NetworkLimit: 4 is less than visitorLimit.messages (5); a /48 holds at least one visitor's /64.",
    ]);
    expect(problemsOf({ ...MINIMAL, ipv6NetworkLimit: 4001 })).toEqual(['ipv6NetworkLimit: 4001 is not a whole number from 1 to 4000.']);
    expect(problemsOf({ ...MINIMAL, ipv6NetworkLimit: 'veel' })).toEqual([
      'ipv6NetworkLimit: "veel" is not a whole number from 1 to 4000.',
    ]);
  });

  it('is what ipv6NetworkLimitFrom gives the local stack for the same context and visitor limit', () => {
    expect(ipv6NetworkLimitFrom({}, 5)).toBe(20);
    expect(ipv6NetworkLimitFrom({}, 1000)).toBe(4000);
    expect(ipv6NetworkLimitFrom({ ipv6NetworkLimit: 30 }, 5)).toBe(30);
    expect(ipv6NetworkLimitFrom(CDK_JSON_CONTEXT, 5)).toBe(loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES }).ipv6NetworkLimit);
  });
});

describe('origin secret versions', () => {
  const NEW = '4c1f3a52-9d0e-4b7a-8f21-6a3e5c7d9b10';
  const OLD = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

  it('are unset by default, and taken as version ids', () => {
    expect(loadConfig(MINIMAL)).toMatchObject({ originSecretVersion: undefined, originSecretPreviousVersion: undefined });
    expect(loadConfig({ ...MINIMAL, originSecretVersion: NEW, originSecretPreviousVersion: OLD })).toMatchObject({
      originSecretVersion: NEW,
      originSecretPreviousVersion: OLD,
    });
  });

  it('refuse what is not a version id, a previous version alone, or the same version twice', () => {
    expect(problemsOf({ ...MINIMAL, originSecretVersion: 'AWSCURRENT' })).toEqual([
      'originSecretVersion: "AWSCURRENT" is not a Secrets Manager version id (the VersionId that put-secret-value prints).',
    ]);
    expect(problemsOf({ ...MINIMAL, originSecretPreviousVersion: OLD })).toEqual([
      'originSecretPreviousVersion: only applies with originSecretVersion, the version CloudFront is to send from now on.',
    ]);
    expect(problemsOf({ ...MINIMAL, originSecretVersion: NEW, originSecretPreviousVersion: NEW })).toEqual([
      'originSecretPreviousVersion: is the same as originSecretVersion; it names the version being replaced.',
    ]);
  });
});

describe('wafRateLimit', () => {
  it('is on by default at 100; false creates none; a number is requests per 5 minutes per IP address', () => {
    expect(DEFAULTS.wafRateLimit).toBe(100);
    expect(loadConfig(MINIMAL).wafRateLimit).toBe(100);
    expect(loadConfig({ ...MINIMAL, wafRateLimit: 'false' }).wafRateLimit).toBe(false);
    expect(loadConfig({ ...MINIMAL, wafRateLimit: '500' }).wafRateLimit).toBe(500);
  });

  it.each([0, 9, 2.5, 'veel', true])('refuses %j and says what the values mean', (value) => {
    expect(problemsOf({ ...MINIMAL, wafRateLimit: value })).toEqual([
      `wafRateLimit: ${JSON.stringify(value)} is not a whole number from 10 to 2000000000.`,
      'wafRateLimit: false creates no WAF; a number is requests per 5 minutes per IP address to /api/*.',
    ]);
  });
});
