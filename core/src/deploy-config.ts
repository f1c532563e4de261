/**
 * Deployment configuration: the CDK context (cdk.json "context", or `-c key=value` on the
 * command line) read into one typed object and checked before anything is built, so a typo
 * fails the synth with one message that says what to fix instead of a half-deployed stack.
 */

export interface ApiRateLimit {
  /** Steady-state requests per second for the whole API stage. */
  rate: number;
  /** Requests API Gateway accepts at once above the steady rate. */
  burst: number;
}

/** What the contact function allows each visitor address: see lambda/src/visitor-limit.ts. */
export interface VisitorLimitConfig {
  /** Messages per visitor address per window. */
  messages: number;
  windowMinutes: number;
}

export interface Config {
  /** Part of the stack and resource names, so `test` and `prod` deploy side by side. */
  stage: string;
  region: string;
  /** Where contact messages are e-mailed (MAIL_TO). */
  contactRecipient: string;
  /** The From address (MAIL_FROM); the only address the functions may send as. */
  senderAddress: string;
  /** Custom site domain; needs the Route 53 zone it lives in. */
  domainName?: string;
  hostedZoneName?: string;
  /** Lets the synth import the zone without a lookup, which would need credentials. */
  hostedZoneId?: string;
  /** An existing us-east-1 certificate for domainName; without it the app creates one. */
  certificateArn?: string;
  /** Alarm notifications go here; without it alarms only show in the console. */
  alarmEmail?: string;
  /** Days a stored message is kept (TTL) and days logs are kept. */
  retentionDays: number;
  apiRateLimit: ApiRateLimit;
  /**
   * Concurrent executions reserved for (and capping) the contact function; `false` (the
   * default) reserves none, which is what a new account's quota allows.
   */
  reservedConcurrency: number | false;
  /** Guards the table against deletion; on by default for `prod`. */
  deletionProtection: boolean;
  /**
   * false: the sender's SES identity exists already, made outside this app (by hand, or by
   * another tool), so the app creates no mail stack for it.
   */
  createMailIdentity: boolean;
  /**
   * Verify the sender's whole domain with DKIM (aligned for DMARC) instead of the one
   * address: the records go into the hosted zone when it is the sender's domain, else they
   * are stack outputs for the firm's DNS provider.
   */
  verifySenderDomain: boolean;
  visitorLimit: VisitorLimitConfig;
  /**
   * The Secrets Manager version of the origin secret CloudFront sends; without it, the
   * secret's current value at deploy time. Naming a version is what makes a deploy pick up
   * a rotated value (README, rotating the origin secret).
   */
  originSecretVersion?: string;
  /** During a rotation only: the version the function still accepts while CloudFront's edges change over. */
  originSecretPreviousVersion?: string;
  /**
   * Requests per 5 minutes one IP address may make to /api/* before an AWS WAF rate-based
   * rule blocks it; false (the default) creates no WAF, which costs more than the whole site.
   */
  wafRateLimit: number | false;
}

import { placeholderReason } from './placeholders';

/** CloudWatch Logs accepts only these retention periods. */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

const EMAIL = /^[^\s@<>()",;]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const STAGE = /^[a-z][a-z0-9-]{0,15}$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
/** Secrets Manager version ids (ClientRequestToken): 32 to 64 letters, digits and dashes, a UUID when the CLI makes it. */
const SECRET_VERSION_ID = /^[A-Za-z0-9-]{32,64}$/;
/** CloudFront only takes certificates from us-east-1. */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

export const DEFAULTS = {
  region: 'eu-west-1',
  retentionDays: 365,
  apiRateLimit: { rate: 10, burst: 20 },
  reservedConcurrency: false,
  visitorLimit: { messages: 5, windowMinutes: 10 },
  wafRateLimit: false,
} as const;

/** The bounds of visitorLimit, which the local stack's VISITOR_LIMIT keeps to as well. */
export const VISITOR_LIMIT_BOUNDS = { messages: 1000, windowMinutes: 24 * 60 } as const;

/** AWS WAF's bounds for a rate-based rule's limit (requests per evaluation window). */
const WAF_RATE_LIMIT = { min: 10, max: 2_000_000_000 } as const;

/** Lambda keeps this many of an account's concurrent executions unreserved, always. */
export const UNRESERVED_CONCURRENCY_MINIMUM = 100;
/** A new account's quota is often 10; an established one's default is 1,000. */
const DEFAULT_CONCURRENCY_QUOTA = 1000;

const KEYS = [
  'stage',
  'region',
  'contactRecipient',
  'senderAddress',
  'domainName',
  'hostedZoneName',
  'hostedZoneId',
  'certificateArn',
  'alarmEmail',
  'retentionDays',
  'apiRateLimit',
  'reservedConcurrency',
  'deletionProtection',
  'createMailIdentity',
  'verifySenderDomain',
  'visitorLimit',
  'originSecretVersion',
  'originSecretPreviousVersion',
  'wafRateLimit',
] as const satisfies readonly (keyof Config)[];

/**
 * Context the CDK itself puts there: feature flags (`@aws-cdk/...`), its own settings
 * (`aws:cdk:...`), cached lookups (`provider:key=value`) and a few plain CLI keys.
 */
function isCdkOwnKey(key: string): boolean {
  return key.startsWith('@') || key.includes(':') || ['acknowledged-issue-numbers', 'cli-telemetry'].includes(key);
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid CDK context (cdk.json "context", or -c key=value):\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'Fix these and run the command again.',
    );
    this.name = 'ConfigError';
  }
}

/** `-c key=value` always arrives as a string; cdk.json gives real JSON types. */
function fromCli(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (/^[{[]/.test(trimmed) || /^(true|false|-?\d+(\.\d+)?)$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * The retention a synth with this context uses: `retentionDays`, or the default. The site
 * build reads it from cdk.json for the privacy statement, so the page and the table agree.
 */
export function retentionDaysFrom(context: Record<string, unknown>): number {
  const value = fromCli(context.retentionDays ?? DEFAULTS.retentionDays);
  if (typeof value !== 'number' || !LOG_RETENTION_DAYS.includes(value)) {
    throw new ConfigError([
      `retentionDays: ${JSON.stringify(value)} is not a period CloudWatch Logs offers; use one of ${LOG_RETENTION_DAYS.join(', ')}.`,
    ]);
  }
  return value;
}

/** `visitorLimit` checked, or undefined with the problems added. */
function readVisitorLimit(value: unknown, problems: string[]): VisitorLimitConfig | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`visitorLimit: ${JSON.stringify(value)} is not an object like {"messages": 5, "windowMinutes": 10}.`);
    return undefined;
  }
  const { messages, windowMinutes, ...extra } = value as Record<string, unknown>;
  const wholeNumber = (key: string, n: unknown, max: number) => {
    if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max) return n;
    problems.push(`visitorLimit.${key}: ${JSON.stringify(n)} is not a whole number from 1 to ${max}.`);
    return undefined;
  };
  const m = wholeNumber('messages', messages, VISITOR_LIMIT_BOUNDS.messages);
  const w = wholeNumber('windowMinutes', windowMinutes, VISITOR_LIMIT_BOUNDS.windowMinutes);
  for (const key of Object.keys(extra)) problems.push(`visitorLimit.${key}: unknown key; only messages and windowMinutes.`);
  return m !== undefined && w !== undefined && Object.keys(extra).length === 0 ? { messages: m, windowMinutes: w } : undefined;
}

/**
 * The visitor limit a synth with this context uses: `visitorLimit`, or the default. The
 * local stack reads it from cdk.json, so `npm start` limits visitors as a deploy would.
 */
export function visitorLimitFrom(context: Record<string, unknown>): VisitorLimitConfig {
  const problems: string[] = [];
  const limit = readVisitorLimit(fromCli(context.visitorLimit ?? DEFAULTS.visitorLimit), problems);
  if (!limit) throw new ConfigError(problems);
  return limit;
}

export function loadConfig(context: Record<string, unknown>): Config {
  const problems: string[] = [];
  const raw = Object.fromEntries(Object.entries(context).map(([k, v]) => [k, fromCli(v)]));

  for (const key of Object.keys(raw)) {
    if (!isCdkOwnKey(key) && !(KEYS as readonly string[]).includes(key)) {
      problems.push(`${key}: unknown key. Known keys: ${KEYS.join(', ')}.`);
    }
  }

  const text = (key: (typeof KEYS)[number], pattern: RegExp, what: string, required: boolean): string | undefined => {
    const value = raw[key];
    if (value === undefined || value === null || value === '') {
      if (required) problems.push(`${key}: required (${what}).`);
      return undefined;
    }
    if (typeof value !== 'string' || !pattern.test(value)) {
      problems.push(`${key}: ${JSON.stringify(value)} is not ${what}.`);
      return undefined;
    }
    return value;
  };
  const integer = (key: string, value: unknown, min: number, max: number): number | undefined => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      problems.push(`${key}: ${JSON.stringify(value)} is not a whole number from ${min} to ${max}.`);
      return undefined;
    }
    return value;
  };

  const stage = text(
    'stage',
    STAGE,
    'a stage name: lower-case letters, digits and dashes, starting with a letter, at most 16 characters',
    true,
  );
  const region = text('region', REGION, 'an AWS region such as eu-west-1', false) ?? DEFAULTS.region;
  const address = (key: 'contactRecipient' | 'senderAddress' | 'alarmEmail', what: string, required: boolean) => {
    const howToSet = `set it with -c ${key}=<address> or as "${key}" in the "context" of cdk.json`;
    if (required && (raw[key] === undefined || raw[key] === null || raw[key] === '')) {
      problems.push(`${key}: required (${what}); ${howToSet}.`);
      return undefined;
    }
    const value = text(key, EMAIL, 'an e-mail address', false);
    const placeholder = value && placeholderReason(value);
    if (placeholder) {
      problems.push(`${key}: ${value} is a placeholder (${placeholder}); ${howToSet} to the real address.`);
      return undefined;
    }
    return value;
  };
  const contactRecipient = address('contactRecipient', 'the address contact messages are e-mailed to', true);
  const senderAddress = address('senderAddress', 'the From address of those e-mails', true);
  const alarmEmail = address('alarmEmail', 'who is mailed when an alarm fires', false);
  const domainName = text('domainName', DOMAIN, 'a lower-case domain name such as www.example.nl', false);
  const hostedZoneName = text('hostedZoneName', DOMAIN, 'a lower-case domain name such as example.nl', false);
  const hostedZoneId = text('hostedZoneId', HOSTED_ZONE_ID, 'a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ', false);
  const certificateArn = text(
    'certificateArn',
    CERTIFICATE_ARN,
    'the ARN of an ACM certificate in us-east-1 (CloudFront uses no other region)',
    false,
  );

  if (domainName && (!hostedZoneName || !hostedZoneId)) {
    problems.push('domainName: needs hostedZoneName and hostedZoneId, the Route 53 zone that holds it (the synth does no lookups).');
  }
  if (domainName && hostedZoneName && domainName !== hostedZoneName && !domainName.endsWith(`.${hostedZoneName}`)) {
    problems.push(`domainName: ${domainName} is not inside hostedZoneName ${hostedZoneName}.`);
  }
  if (!domainName && (hostedZoneName || hostedZoneId || certificateArn)) {
    problems.push('hostedZoneName, hostedZoneId and certificateArn only apply with domainName: set domainName or remove them.');
  }

  const retentionValue = raw.retentionDays ?? DEFAULTS.retentionDays;
  let retentionDays = integer('retentionDays', retentionValue, 1, 3653);
  if (retentionDays !== undefined && !LOG_RETENTION_DAYS.includes(retentionDays)) {
    problems.push(`retentionDays: ${retentionDays} is not a period CloudWatch Logs offers; use one of ${LOG_RETENTION_DAYS.join(', ')}.`);
    retentionDays = undefined;
  }

  let apiRateLimit: ApiRateLimit | undefined;
  const rateValue = raw.apiRateLimit ?? DEFAULTS.apiRateLimit;
  if (typeof rateValue !== 'object' || rateValue === null || Array.isArray(rateValue)) {
    problems.push(`apiRateLimit: ${JSON.stringify(rateValue)} is not an object like {"rate": 10, "burst": 20}.`);
  } else {
    const { rate, burst, ...extra } = rateValue as Record<string, unknown>;
    const r = integer('apiRateLimit.rate', rate, 1, 10_000);
    const b = integer('apiRateLimit.burst', burst, 1, 5_000);
    for (const key of Object.keys(extra)) problems.push(`apiRateLimit.${key}: unknown key; only rate and burst.`);
    if (r !== undefined && b !== undefined) apiRateLimit = { rate: r, burst: b };
  }

  const concurrencyValue = raw.reservedConcurrency ?? DEFAULTS.reservedConcurrency;
  const concurrencyMaximum = DEFAULT_CONCURRENCY_QUOTA - UNRESERVED_CONCURRENCY_MINIMUM;
  let reservedConcurrency: number | false | undefined = false;
  if (concurrencyValue !== false) {
    const value = concurrencyValue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > concurrencyMaximum) {
      problems.push(
        `reservedConcurrency: ${JSON.stringify(value)} is not false or a whole number from 1 to ${concurrencyMaximum}. ` +
          `Lambda keeps ${UNRESERVED_CONCURRENCY_MINIMUM} concurrent executions unreserved, so the account's quota ` +
          `(Service Quotas, AWS Lambda, Concurrent executions; new accounts often have 10, the usual default is ${DEFAULT_CONCURRENCY_QUOTA}) ` +
          `must be at least the value + ${UNRESERVED_CONCURRENCY_MINIMUM}; false reserves none.`,
      );
      reservedConcurrency = undefined;
    } else {
      reservedConcurrency = value;
    }
  }

  const flag = (key: 'deletionProtection' | 'createMailIdentity' | 'verifySenderDomain', fallback: boolean): boolean => {
    const value = raw[key] ?? fallback;
    if (typeof value !== 'boolean') problems.push(`${key}: ${JSON.stringify(value)} is not true or false.`);
    return value === true;
  };
  const deletionProtection = flag('deletionProtection', stage === 'prod');
  const createMailIdentity = flag('createMailIdentity', true);
  // By default the domain is verified where the stack can write its DKIM records itself.
  const senderDomain = senderAddress?.split('@')[1]?.toLowerCase();
  const verifySenderDomain = flag(
    'verifySenderDomain',
    createMailIdentity && senderDomain !== undefined && senderDomain === hostedZoneName,
  );
  if (raw.verifySenderDomain === true && !createMailIdentity) {
    problems.push('verifySenderDomain: only applies when the app creates the identity; remove it, or set createMailIdentity to true.');
  }

  const visitorLimit = readVisitorLimit(raw.visitorLimit ?? DEFAULTS.visitorLimit, problems);

  const secretVersion = (key: 'originSecretVersion' | 'originSecretPreviousVersion') =>
    text(key, SECRET_VERSION_ID, 'a Secrets Manager version id (the VersionId that put-secret-value prints)', false);
  const originSecretVersion = secretVersion('originSecretVersion');
  const originSecretPreviousVersion = secretVersion('originSecretPreviousVersion');
  if (originSecretPreviousVersion && !raw.originSecretVersion) {
    problems.push('originSecretPreviousVersion: only applies with originSecretVersion, the version CloudFront is to send from now on.');
  }
  if (originSecretPreviousVersion && originSecretPreviousVersion === originSecretVersion) {
    problems.push('originSecretPreviousVersion: is the same as originSecretVersion; it names the version being replaced.');
  }

  const wafValue = raw.wafRateLimit ?? DEFAULTS.wafRateLimit;
  let wafRateLimit: number | false | undefined = false;
  if (wafValue !== false) {
    wafRateLimit = integer('wafRateLimit', wafValue, WAF_RATE_LIMIT.min, WAF_RATE_LIMIT.max);
    if (wafRateLimit === undefined)
      problems.push('wafRateLimit: false creates no WAF; a number is requests per 5 minutes per IP address to /api/*.');
  }

  if (
    problems.length > 0 ||
    !visitorLimit ||
    wafRateLimit === undefined ||
    !stage ||
    !contactRecipient ||
    !senderAddress ||
    !retentionDays ||
    !apiRateLimit ||
    reservedConcurrency === undefined
  ) {
    throw new ConfigError(problems);
  }
  return {
    stage,
    region,
    contactRecipient,
    senderAddress,
    domainName,
    hostedZoneName,
    hostedZoneId,
    certificateArn,
    alarmEmail,
    retentionDays,
    apiRateLimit,
    reservedConcurrency,
    deletionProtection,
    createMailIdentity,
    verifySenderDomain,
    visitorLimit,
    originSecretVersion,
    originSecretPreviousVersion,
    wafRateLimit,
  };
}
