/**
 * Deployment configuration: the CDK context (cdk.json "context", or `-c key=value` on the
 * command line) read into one typed object and checked before anything is built, so a typo
 * fails the synth with one message that says what to fix instead of a half-deployed stack.
 *
 * The check is one valibot schema: SETTINGS holds each key's rule and default, CONFIG_SCHEMA
 * adds the rules between keys. Every problem is reported at once, one line each, named by
 * its key and in the order of the keys.
 */
import * as v from 'valibot';
import { placeholderAddressReason } from '../src/placeholders';

export interface ApiRateLimit {
  /** Steady-state requests per second for the whole API stage. */
  rate: number;
  /** Requests API Gateway accepts at once above the steady rate. */
  burst: number;
}

/** E-mails a kind of message may cost per hour and per day before the rest is held for the digest. */
export interface MailBudget {
  perHour: number;
  perDay: number;
}

/** What the contact function allows each visitor address: see lambda/src/spam/visitor-limit.ts. */
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
  /**
   * Alarm notifications go here; without it alarms only show in the console. Required for
   * `prod`, and never contactRecipient: the mailbox an alarm is about may be the one that fails.
   */
  alarmEmail?: string;
  /**
   * Who is paged for the alarms that cannot wait (severity "now", and the contact path's
   * composite alarm): an `https://` endpoint of an incident tool, or a phone number in E.164
   * for an SMS. Without it, those alarms only e-mail alarmEmail like the rest.
   */
  pageTo?: string;
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
   * Messages per window from one IPv6 /48, the most one subscriber is given: an IPv6 visitor
   * counts against its /64 and its /48 both. By default IPV6_NETWORK_FACTOR times
   * visitorLimit.messages, so one subscriber is one visitor while a shared network still works.
   */
  ipv6NetworkLimit: number;
  /**
   * The Secrets Manager version of the origin secret CloudFront sends; without it, the
   * secret's current value at deploy time. Naming a version is what makes a deploy pick up
   * a rotated value (docs/on-call.md, rotating the origin secret).
   */
  originSecretVersion?: string;
  /** During a rotation only: the version the function still accepts while CloudFront's edges change over. */
  originSecretPreviousVersion?: string;
  /**
   * Requests per 5 minutes one IP address may make to /api/* before an AWS WAF rate-based
   * rule blocks it (100 by default, so one client cannot hold the stage throttle for long:
   * decision 0043); false creates no WAF, which saves its monthly fee (docs/on-call.md).
   */
  wafRateLimit: number | false;
  /** HSTS for every subdomain of the site's host too; off by default (see security-headers.ts). */
  hstsIncludeSubdomains: boolean;
  /**
   * Hours after a message arrived by which SES must have confirmed its e-mail delivered;
   * past it, MessagesNotDelivered fires.
   */
  deliveryAlarmHours: number;
  /**
   * E-mails that messages other than clean ones from the site's own form may cost: sent one
   * by one while within it, held for the digest past it (core/src/spam.ts).
   */
  mailBudget: MailBudget;
  /**
   * The separate, higher budget of clean messages from the site's own form (a valid
   * proof-of-work stamp and no signal at all), so a person still gets through at once while a
   * wave spends the other budget.
   */
  siteMailBudget: MailBudget;
  /**
   * E-mails SES lets the account send in 24 hours: 200 in the sandbox, 50,000 or what AWS
   * granted with production access. The budgets and the digests must fit under it.
   */
  sesDailyQuota: number;
  /** Days a message an operator marked as spam is kept (`npm run messages -- purge`), much less than retentionDays. */
  spamRetentionDays: number;
  /**
   * The GitHub repository (owner/name) whose workflows may deploy: the account's GitHub deploy
   * stack (infra/bin/github-deploy.ts) exists only with it. The stage's own stacks ignore it.
   */
  githubRepository?: string;
  /** The GitHub environments, each named after the stage it deploys, whose jobs the deploy role trusts. */
  githubEnvironments: string[];
  /** The account's GitHub OIDC provider when one exists already (an account holds one per URL). */
  githubOidcProviderArn?: string;
}

/**
 * The defaults that do not depend on other keys. Two do: deletionProtection is on for
 * `prod`, and verifySenderDomain is on when the stack can write the sender domain's DKIM
 * records itself (see withDerivedDefaults).
 */
export const DEFAULTS = {
  region: 'eu-west-1',
  retentionDays: 365,
  apiRateLimit: { rate: 25, burst: 50 },
  reservedConcurrency: false,
  createMailIdentity: true,
  visitorLimit: { messages: 5, windowMinutes: 10 },
  wafRateLimit: 100,
  hstsIncludeSubdomains: false,
  // Far beyond a normal delivery (seconds) or a greylisting delay (minutes to an hour), well
  // within the 14 hours SES keeps retrying before it gives up with a bounce.
  deliveryAlarmHours: 3,
  // A small firm's ordinary day is a handful of messages; a wave spends these within minutes.
  mailBudget: { perHour: 10, perDay: 40 },
  siteMailBudget: { perHour: 30, perDay: 120 },
  // The SES sandbox: the budgets and 24 hourly digests fit under it on a new account.
  sesDailyQuota: 200,
  spamRetentionDays: 14,
  // The stages .github/workflows/deploy.yml deploys, each from the environment of its name.
  githubEnvironments: ['test', 'prod'],
} as const;

/**
 * Messages an hour Exchange Online accepts from one sender before it bounces the rest
 * (5.2.121): the budgets of an hour, and its digest, stay well below it.
 */
export const MAILBOX_SENDER_LIMIT_PER_HOUR = 1200;

/** At most one digest an hour (lambda/src/spam/digest.ts): what the budgets must leave room for. */
export const DIGESTS_PER_DAY = 24;

/** The bounds of visitorLimit, which the local stack's VISITOR_LIMIT keeps to as well. */
export const VISITOR_LIMIT_BOUNDS = { messages: 1000, windowMinutes: 24 * 60 } as const;

/** ipv6NetworkLimit's default: this many visitors' worth per /48. */
export const IPV6_NETWORK_FACTOR = 4;
/** Each message a /48 holds in its window is one entry of its counter item, which DynamoDB caps at 400 KB. */
const MAX_IPV6_NETWORK_LIMIT = IPV6_NETWORK_FACTOR * VISITOR_LIMIT_BOUNDS.messages;

/** Lambda keeps this many of an account's concurrent executions unreserved, always. */
export const UNRESERVED_CONCURRENCY_MINIMUM = 100;
/** A new account's quota is often 10; an established one's default is 1,000. */
const DEFAULT_CONCURRENCY_QUOTA = 1000;
const MAX_RESERVED_CONCURRENCY = DEFAULT_CONCURRENCY_QUOTA - UNRESERVED_CONCURRENCY_MINIMUM;

/** AWS WAF's bounds for a rate-based rule's limit (requests per evaluation window). */
const WAF_RATE_LIMIT = { min: 10, max: 2_000_000_000 } as const;

/** CloudWatch Logs accepts only these retention periods. */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

const EMAIL = /^[^\s@<>()",;]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const STAGE = /^[a-z][a-z0-9-]{0,15}$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
/** Secrets Manager version ids (ClientRequestToken): 32 to 64 letters, digits and dashes, a UUID when the CLI makes it. */
const SECRET_VERSION_ID = /^[A-Za-z0-9-]{32,64}$/;
/** GitHub's rules for an owner (a user or an organisation) and a repository name; the case counts in a token's sub. */
const GITHUB_REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;
/** IAM names a provider by its URL; GitHub's is token.actions.githubusercontent.com. */
const GITHUB_OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;
/** An SMS destination as SNS takes it: E.164, a plus and up to fifteen digits, no leading zero. */
const E164 = /^\+[1-9]\d{7,14}$/;

/** CloudFront only takes certificates from us-east-1. */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

// ---------------------------------------------------------------------------------------
// The pieces each key is built from. A message says what the value is not; the key is put
// in front of it when the problem is listed (problemsOf).
// ---------------------------------------------------------------------------------------

type Message = (issue: v.BaseIssue<unknown>) => string;

/** A refused value as the problem shows it: as JSON, so the string "30" and the number 30 read apart. */
const shown = (value: unknown) => String(JSON.stringify(value));

const isNot =
  (what: string): Message =>
  (issue) =>
    `${shown(issue.input)} is not ${what}.`;

/** A string matching `pattern`. */
function text(pattern: RegExp, what: string) {
  const message = isNot(what);
  return v.pipe(v.string(message), v.regex(pattern, message));
}

/** A whole number from `min` to `max`, in one message whatever is wrong with it. */
function wholeNumber(min: number, max: number, message = isNot(`a whole number from ${min} to ${max}`)) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** false, or a whole number from `min` to `max`. */
function falseOrWholeNumber(min: number, max: number, message: Message) {
  return v.union([v.literal(false), wholeNumber(min, max, message)], message);
}

const trueOrFalse = v.boolean(isNot('true or false'));

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const inWords = (keys: readonly string[]) => (keys.length > 1 ? `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}` : keys.join(''));

/**
 * An object of exactly these keys. A key left out reaches its own rule as undefined, so it
 * is refused (or defaulted) in that rule's words; a key it does not know is named.
 */
function shape<const E extends v.ObjectEntries>(entries: E, options: { example: string; unknownKey: string }) {
  const keys = Object.keys(entries);
  return v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, isNot(`an object like ${options.example}`)),
    v.transform((value) => ({ ...Object.fromEntries(keys.map((key) => [key, undefined])), ...value })),
    // Each key reports its first problem only: "2.5 is not a whole number" once, not once per rule it breaks.
    v.config(v.objectWithRest(entries, v.never(options.unknownKey)), { abortPipeEarly: true }),
  );
}

/** A nested setting such as {"rate": 10, "burst": 20}. */
function settingObject<const E extends v.ObjectEntries>(entries: E, example: string) {
  return shape(entries, { example, unknownKey: `unknown key; only ${inWords(Object.keys(entries))}.` });
}

/** How to set an address key, said whenever one is missing or refused. */
const howToSetAddress = (key: string) => `set it with -c ${key}=<address> or as "${key}" in the "context" of cdk.json`;

/** An e-mail address that is not a sample or fill-in one (see placeholders.ts). */
function address(key: string) {
  return v.pipe(
    text(EMAIL, 'an e-mail address'),
    v.check(
      (value) => placeholderAddressReason(value) === undefined,
      (issue) =>
        `${String(issue.input)} is a placeholder (${placeholderAddressReason(String(issue.input))}); ${howToSetAddress(key)} to the real address.`,
    ),
  );
}

const requiredAddress = (key: string, what: string) => v.nonOptional(address(key), `required (${what}); ${howToSetAddress(key)}.`);

/**
 * pageTo: where SNS delivers a page. An incident tool's HTTPS endpoint (SNS confirms the
 * subscription with a request the tool answers), or a phone for SMS. Plain HTTP is refused: the
 * alarm's description travels in it.
 */
const PAGE_TO = v.pipe(
  v.string(isNot('an https:// address or a phone number')),
  v.check(
    (value) => E164.test(value) || isHttpsUrl(value),
    (issue) =>
      `${shown(issue.input)} is neither an https:// address of an incident tool (https://events.example.com/integration/…) ` +
      'nor a phone number for SMS in E.164, a plus, the country code and the number without spaces (+31612345678).',
  ),
);

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.includes('.') && !/\s/.test(value);
  } catch {
    return false;
  }
}

const STAGE_NAME = 'a stage name: lower-case letters, digits and dashes, starting with a letter, at most 16 characters';
const SECRET_VERSION = text(SECRET_VERSION_ID, 'a Secrets Manager version id (the VersionId that put-secret-value prints)');

const RETENTION_DAYS = v.pipe(
  wholeNumber(1, 3653),
  v.picklist(LOG_RETENTION_DAYS, isNot(`a period CloudWatch Logs offers; use one of ${LOG_RETENTION_DAYS.join(', ')}`)),
);

const API_RATE_LIMIT = settingObject({ rate: wholeNumber(1, 10_000), burst: wholeNumber(1, 5_000) }, '{"rate": 10, "burst": 20}');

const VISITOR_LIMIT = settingObject(
  { messages: wholeNumber(1, VISITOR_LIMIT_BOUNDS.messages), windowMinutes: wholeNumber(1, VISITOR_LIMIT_BOUNDS.windowMinutes) },
  '{"messages": 5, "windowMinutes": 10}',
);

const MAIL_BUDGET = settingObject(
  { perHour: wholeNumber(1, MAILBOX_SENDER_LIMIT_PER_HOUR), perDay: wholeNumber(1, 50_000) },
  '{"perHour": 10, "perDay": 40}',
);

const RESERVED_CONCURRENCY = falseOrWholeNumber(
  1,
  MAX_RESERVED_CONCURRENCY,
  (issue) =>
    `${shown(issue.input)} is not false or a whole number from 1 to ${MAX_RESERVED_CONCURRENCY}. ` +
    `Lambda keeps ${UNRESERVED_CONCURRENCY_MINIMUM} concurrent executions unreserved, so the account's quota ` +
    `(Service Quotas, AWS Lambda, Concurrent executions; new accounts often have 10, the usual default is ${DEFAULT_CONCURRENCY_QUOTA}) ` +
    `must be at least the value + ${UNRESERVED_CONCURRENCY_MINIMUM}; false reserves none.`,
);

/** Each environment is the stage it deploys, so it is named as a stage is. */
const GITHUB_ENVIRONMENTS = v.pipe(
  v.array(
    text(STAGE, `an environment name: the stage it deploys, so ${STAGE_NAME.slice('a stage name: '.length)}`),
    isNot('a list of GitHub environment names such as ["test", "prod"]'),
  ),
  v.minLength(1, 'is empty: the deploy role would trust no workflow; name at least one environment, such as ["prod"].'),
  v.check(
    (names) => new Set(names).size === names.length,
    (issue) => `${shown(issue.input)} names an environment twice.`,
  ),
);

const WAF_RATE = falseOrWholeNumber(
  WAF_RATE_LIMIT.min,
  WAF_RATE_LIMIT.max,
  isNot(`a whole number from ${WAF_RATE_LIMIT.min} to ${WAF_RATE_LIMIT.max}`),
);

// ---------------------------------------------------------------------------------------
// The keys, in the order problems and the known keys are listed.
// ---------------------------------------------------------------------------------------

/** Every key the app accepts, with its rule and, where it has one, its default. */
export const SETTINGS = {
  stage: v.nonOptional(text(STAGE, STAGE_NAME), `required (${STAGE_NAME}).`),
  region: v.optional(text(REGION, 'an AWS region such as eu-west-1'), DEFAULTS.region),
  contactRecipient: requiredAddress('contactRecipient', 'the address contact messages are e-mailed to'),
  senderAddress: requiredAddress('senderAddress', 'the From address of those e-mails'),
  domainName: v.optional(text(DOMAIN, 'a lower-case domain name such as www.example.nl')),
  hostedZoneName: v.optional(text(DOMAIN, 'a lower-case domain name such as example.nl')),
  hostedZoneId: v.optional(text(HOSTED_ZONE_ID, 'a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ')),
  certificateArn: v.optional(text(CERTIFICATE_ARN, 'the ARN of an ACM certificate in us-east-1 (CloudFront uses no other region)')),
  alarmEmail: v.optional(address('alarmEmail')),
  pageTo: v.optional(PAGE_TO),
  retentionDays: v.optional(RETENTION_DAYS, DEFAULTS.retentionDays),
  apiRateLimit: v.optional(API_RATE_LIMIT, DEFAULTS.apiRateLimit),
  reservedConcurrency: v.optional(RESERVED_CONCURRENCY, DEFAULTS.reservedConcurrency),
  deletionProtection: v.optional(trueOrFalse),
  createMailIdentity: v.optional(trueOrFalse, DEFAULTS.createMailIdentity),
  verifySenderDomain: v.optional(trueOrFalse),
  visitorLimit: v.optional(VISITOR_LIMIT, DEFAULTS.visitorLimit),
  ipv6NetworkLimit: v.optional(wholeNumber(1, MAX_IPV6_NETWORK_LIMIT)),
  originSecretVersion: v.optional(SECRET_VERSION),
  originSecretPreviousVersion: v.optional(SECRET_VERSION),
  wafRateLimit: v.optional(WAF_RATE, DEFAULTS.wafRateLimit),
  hstsIncludeSubdomains: v.optional(trueOrFalse, DEFAULTS.hstsIncludeSubdomains),
  deliveryAlarmHours: v.optional(wholeNumber(1, 24), DEFAULTS.deliveryAlarmHours),
  mailBudget: v.optional(MAIL_BUDGET, DEFAULTS.mailBudget),
  siteMailBudget: v.optional(MAIL_BUDGET, DEFAULTS.siteMailBudget),
  sesDailyQuota: v.optional(wholeNumber(1, 10_000_000), DEFAULTS.sesDailyQuota),
  spamRetentionDays: v.optional(wholeNumber(1, 365), DEFAULTS.spamRetentionDays),
  githubRepository: v.optional(
    text(GITHUB_REPOSITORY, 'a GitHub repository as owner/name, such as firm-name/website, spelled as GitHub spells it'),
  ),
  githubEnvironments: v.optional(GITHUB_ENVIRONMENTS, [...DEFAULTS.githubEnvironments]),
  githubOidcProviderArn: v.optional(
    text(
      GITHUB_OIDC_PROVIDER_ARN,
      "the ARN of the account's GitHub OIDC provider, arn:aws:iam::<account>:oidc-provider/token.actions.githubusercontent.com",
    ),
  ),
};

export type SettingKey = keyof typeof SETTINGS;
const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/**
 * Context the CDK itself puts there: feature flags (`@aws-cdk/...`), its own settings
 * (`aws:cdk:...`), cached lookups (`provider:key=value`) and a few plain CLI keys.
 */
function isCdkOwnKey(key: string): boolean {
  return key.startsWith('@') || key.includes(':') || ['acknowledged-issue-numbers', 'cli-telemetry'].includes(key);
}

/**
 * A context value as the rules read it. `-c key=value` always arrives as a string, cdk.json
 * gives real JSON types, so a string that spells JSON is read as that JSON; null or an empty
 * string is a key left unset.
 */
function contextValue(value: unknown): unknown {
  if (value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (/^[{[]/.test(trimmed) || /^(true|false|-?\d+(\.\d+)?)$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** The context without the CDK's own keys, each value as the rules read it. */
function settingsOf(context: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(context).flatMap(([key, value]) => (isCdkOwnKey(key) ? [] : [[key, contextValue(value)] as const])),
  );
}

const SETTINGS_SHAPE = shape(SETTINGS, {
  example: '{"stage": "test"}',
  unknownKey: `unknown key. Known keys: ${SETTING_KEYS.join(', ')}.`,
});
type Settings = v.InferOutput<typeof SETTINGS_SHAPE>;

/** Where a problem of a rule between keys is listed: under `key`, as that key's own are. */
const under = (key: SettingKey, settings: Record<string, unknown>): [v.ObjectPathItem] => [
  { type: 'object', origin: 'value', input: settings, key, value: settings[key] },
];

const hasProblem = (issues: readonly v.BaseIssue<unknown>[] | undefined, keys: readonly SettingKey[]) =>
  issues?.some((issue) => keys.includes(issue.path?.[0]?.key as SettingKey)) ?? false;

/**
 * A rule between keys, checked once each of `keys` has passed its own rule (a problem there
 * is already listed, and would only make this one noise). Its problem is listed under
 * `listedUnder`, or on a line of its own.
 */
function rule(
  keys: readonly SettingKey[],
  holds: (settings: Settings) => boolean,
  problem: string | ((settings: Settings) => string),
  listedUnder?: SettingKey,
) {
  return v.rawCheck<Settings>(({ dataset, addIssue }) => {
    if (hasProblem(dataset.issues, keys)) return;
    const settings = dataset.value as Settings;
    if (holds(settings)) return;
    addIssue({
      message: typeof problem === 'string' ? problem : problem(settings),
      path: listedUnder && under(listedUnder, settings),
    });
  });
}

/** After a refused value of `key`, one more problem: what its values mean. */
function explainRefused(key: SettingKey, meaning: string) {
  return v.rawCheck<Settings>(({ dataset, addIssue }) => {
    if (hasProblem(dataset.issues, [key])) addIssue({ message: meaning, path: under(key, dataset.value as Settings) });
  });
}

/** The defaults that depend on other keys. */
function withDerivedDefaults(settings: Settings): Config {
  // The domain is verified by default where the stack can write its DKIM records itself.
  const senderDomain = settings.senderAddress.split('@')[1]?.toLowerCase();
  return {
    ...settings,
    deletionProtection: settings.deletionProtection ?? settings.stage === 'prod',
    verifySenderDomain: settings.verifySenderDomain ?? (settings.createMailIdentity && senderDomain === settings.hostedZoneName),
    ipv6NetworkLimit: settings.ipv6NetworkLimit ?? defaultIpv6NetworkLimit(settings.visitorLimit.messages),
  };
}

/** ipv6NetworkLimit when it is not set: IPV6_NETWORK_FACTOR visitors' worth. */
export function defaultIpv6NetworkLimit(messages: number): number {
  return Math.min(IPV6_NETWORK_FACTOR * messages, MAX_IPV6_NETWORK_LIMIT);
}

const isWithin = (domain: string, zone: string) => domain === zone || domain.endsWith(`.${zone}`);

const GITHUB_ONLY = 'only applies with githubRepository, the repository whose workflows may deploy.';

/** An hour's budget is never more than its day's. */
const budgetWithinItsDay = (key: 'mailBudget' | 'siteMailBudget') =>
  rule(
    [key],
    (s) => s[key].perHour <= s[key].perDay,
    (s) => `perHour (${s[key].perHour}) is more than perDay (${s[key].perDay}).`,
    key,
  );

/** The whole context: every key's rule, then the rules between keys, then the derived defaults. */
export const CONFIG_SCHEMA = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(settingsOf),
  SETTINGS_SHAPE,
  explainRefused('wafRateLimit', 'false creates no WAF; a number is requests per 5 minutes per IP address to /api/*.'),
  rule(
    ['domainName', 'hostedZoneName', 'hostedZoneId'],
    (s) => !s.domainName || (s.hostedZoneName !== undefined && s.hostedZoneId !== undefined),
    'needs hostedZoneName and hostedZoneId, the Route 53 zone that holds it (the synth does no lookups).',
    'domainName',
  ),
  rule(
    ['domainName', 'hostedZoneName'],
    (s) => !s.domainName || !s.hostedZoneName || isWithin(s.domainName, s.hostedZoneName),
    (s) => `${s.domainName} is not inside hostedZoneName ${s.hostedZoneName}.`,
    'domainName',
  ),
  rule(
    ['domainName'],
    (s) => s.domainName !== undefined || (s.hostedZoneName === undefined && s.hostedZoneId === undefined && s.certificateArn === undefined),
    'hostedZoneName, hostedZoneId and certificateArn only apply with domainName: set domainName or remove them.',
  ),
  rule(
    ['verifySenderDomain', 'createMailIdentity'],
    (s) => !(s.verifySenderDomain === true && !s.createMailIdentity),
    'only applies when the app creates the identity; remove it, or set createMailIdentity to true.',
    'verifySenderDomain',
  ),
  rule(
    ['ipv6NetworkLimit', 'visitorLimit'],
    (s) => s.ipv6NetworkLimit === undefined || s.ipv6NetworkLimit >= s.visitorLimit.messages,
    (s) => `${s.ipv6NetworkLimit} is less than visitorLimit.messages (${s.visitorLimit.messages}); a /48 holds at least one visitor's /64.`,
    'ipv6NetworkLimit',
  ),
  rule(
    ['stage', 'alarmEmail'],
    (s) => s.stage !== 'prod' || s.alarmEmail !== undefined,
    `required for stage prod: alarms that notify nobody are no alarms; ${howToSetAddress('alarmEmail')}.`,
    'alarmEmail',
  ),
  rule(
    ['alarmEmail', 'contactRecipient'],
    (s) => s.alarmEmail === undefined || s.alarmEmail.toLowerCase() !== s.contactRecipient.toLowerCase(),
    'is contactRecipient, the firm’s own mailbox: an alarm about that mailbox (full, bouncing, its mail filter) would go to the mailbox that fails, ' +
      'and visitors’ messages would drown the alarms. Give the address of whoever is on call.',
    'alarmEmail',
  ),
  rule(
    ['originSecretPreviousVersion'],
    (s) => s.originSecretPreviousVersion === undefined || s.originSecretVersion !== undefined,
    'only applies with originSecretVersion, the version CloudFront is to send from now on.',
    'originSecretPreviousVersion',
  ),
  rule(
    ['originSecretPreviousVersion', 'originSecretVersion'],
    (s) => s.originSecretPreviousVersion === undefined || s.originSecretPreviousVersion !== s.originSecretVersion,
    'is the same as originSecretVersion; it names the version being replaced.',
    'originSecretPreviousVersion',
  ),
  budgetWithinItsDay('mailBudget'),
  budgetWithinItsDay('siteMailBudget'),
  rule(
    ['mailBudget', 'siteMailBudget'],
    (s) => s.mailBudget.perHour + s.siteMailBudget.perHour + 1 <= MAILBOX_SENDER_LIMIT_PER_HOUR,
    `with siteMailBudget.perHour and the hour's digest, more than the ${MAILBOX_SENDER_LIMIT_PER_HOUR} e-mails an hour a mailbox such as Exchange Online accepts from one sender; the rest would bounce.`,
    'mailBudget',
  ),
  rule(
    ['mailBudget', 'siteMailBudget', 'sesDailyQuota'],
    (s) => s.mailBudget.perDay + s.siteMailBudget.perDay + DIGESTS_PER_DAY <= s.sesDailyQuota,
    (s) =>
      `mailBudget.perDay (${s.mailBudget.perDay}), siteMailBudget.perDay (${s.siteMailBudget.perDay}) and ${DIGESTS_PER_DAY} digests are more than sesDailyQuota (${s.sesDailyQuota}) e-mails a day: ` +
      'raise sesDailyQuota once AWS grants a higher SES quota (docs/first-deploy.md), or lower the budgets.',
    'sesDailyQuota',
  ),
  rule(
    ['spamRetentionDays', 'retentionDays'],
    (s) => s.spamRetentionDays <= s.retentionDays,
    (s) => `${s.spamRetentionDays} is more than retentionDays (${s.retentionDays}); spam is kept shorter than a message, never longer.`,
    'spamRetentionDays',
  ),
  rule(
    ['githubOidcProviderArn', 'githubRepository'],
    (s) => s.githubOidcProviderArn === undefined || s.githubRepository !== undefined,
    GITHUB_ONLY,
    'githubOidcProviderArn',
  ),
  v.transform(withDerivedDefaults),
);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid CDK context (cdk.json "context", or -c key=value):\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'Fix these and run the command again.',
    );
    this.name = 'ConfigError';
  }
}

/**
 * One line per problem, "key: what is wrong", in the order of the keys: unknown keys first,
 * then each key's own problems and those between it and others, then the rest.
 */
function problemsOf(issues: readonly v.BaseIssue<unknown>[], under?: SettingKey): string[] {
  const lines = issues.map((issue) => {
    const path = [...(under ? [under] : []), ...(issue.path ?? []).map((item) => String(item.key))];
    const order = path.length === 0 ? SETTING_KEYS.length : SETTING_KEYS.indexOf(path[0] as SettingKey);
    return { order, line: path.length ? `${path.join('.')}: ${issue.message}` : issue.message };
  });
  return lines.sort((a, b) => a.order - b.order).map(({ line }) => line);
}

export function loadConfig(context: Record<string, unknown>): Config {
  const result = v.safeParse(CONFIG_SCHEMA, context);
  if (!result.success) throw new ConfigError(problemsOf(result.issues));
  return result.output;
}

/** One key of the context by its own rule and default, for a tool that needs only that one. */
function settingFrom<K extends SettingKey>(context: Record<string, unknown>, key: K): v.InferOutput<(typeof SETTINGS)[K]> {
  const result = v.safeParse(SETTINGS[key], contextValue(context[key]), { abortPipeEarly: true });
  if (!result.success) throw new ConfigError(problemsOf(result.issues, key));
  return result.output;
}

/** What the account's GitHub deploy stack is made of (infra/bin/github-deploy.ts). */
export interface GithubDeployConfig {
  /** Where the stack lives, and with us-east-1 the regions whose CDK bootstrap roles the deploy role may assume. */
  region: string;
  githubRepository: string;
  githubEnvironments: string[];
  githubOidcProviderArn?: string;
}

const GITHUB_DEPLOY_KEYS = ['region', 'githubRepository', 'githubEnvironments', 'githubOidcProviderArn'] as const;

/**
 * The GitHub deploy stack's settings from the same context as the stages', by the same rules.
 * Only its own keys must be right (the stage's addresses are not needed to make a role), but
 * an unknown key is refused here too: a misspelt githubEnvironments would otherwise leave the
 * role trusting the default environments.
 */
export function githubDeployConfigFrom(context: Record<string, unknown>): GithubDeployConfig {
  const problems = Object.keys(settingsOf(context))
    .filter((key) => !(SETTING_KEYS as string[]).includes(key))
    .map((key) => `${key}: unknown key. Known keys: ${SETTING_KEYS.join(', ')}.`);
  const values: Partial<Record<(typeof GITHUB_DEPLOY_KEYS)[number], unknown>> = {};
  for (const key of GITHUB_DEPLOY_KEYS) {
    const result = v.safeParse(SETTINGS[key], contextValue(context[key]), { abortPipeEarly: true });
    if (result.success) values[key] = result.output;
    else problems.push(...problemsOf(result.issues, key));
  }
  if (values.githubRepository === undefined && !problems.some((problem) => problem.startsWith('githubRepository:'))) {
    problems.push(
      'githubRepository: required for the GitHub deploy stack (the repository whose workflows may deploy, as owner/name); ' +
        'set it with -c githubRepository=<owner>/<name> or as "githubRepository" in the "context" of cdk.json.',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as unknown as GithubDeployConfig;
}

/**
 * The retention a synth with this context uses: `retentionDays`, or the default. The site
 * build reads it from cdk.json for the privacy statement, so the page and the table agree.
 */
export function retentionDaysFrom(context: Record<string, unknown>): number {
  return settingFrom(context, 'retentionDays');
}

/** The delivery alarm's hours a synth with this context uses; the local stack's retry job counts with it too. */
export function deliveryAlarmHoursFrom(context: Record<string, unknown>): number {
  return settingFrom(context, 'deliveryAlarmHours');
}

/**
 * The visitor limit a synth with this context uses: `visitorLimit`, or the default. The
 * local stack reads it from cdk.json, so `npm start` limits visitors as a deploy would.
 */
export function visitorLimitFrom(context: Record<string, unknown>): VisitorLimitConfig {
  return settingFrom(context, 'visitorLimit');
}

/**
 * The /48 cap a synth with this context uses for `messages` per visitor: `ipv6NetworkLimit`,
 * or its default. The local stack passes its own `messages` (VISITOR_LIMIT may override it).
 */
export function ipv6NetworkLimitFrom(context: Record<string, unknown>, messages: number): number {
  return settingFrom(context, 'ipv6NetworkLimit') ?? defaultIpv6NetworkLimit(messages);
}

/** The mail budgets a synth with this context uses; the local stack gives its function the same. */
export function mailBudgetsFrom(context: Record<string, unknown>): { mailBudget: MailBudget; siteMailBudget: MailBudget } {
  return { mailBudget: settingFrom(context, 'mailBudget'), siteMailBudget: settingFrom(context, 'siteMailBudget') };
}

/** How long a message marked as spam is kept: `npm run messages -- purge` reads it from cdk.json, as a deploy would. */
export function spamRetentionDaysFrom(context: Record<string, unknown>): number {
  return settingFrom(context, 'spamRetentionDays');
}

/**
 * The settings the site's pages state (the privacy statement), as a synth with this context
 * uses them: the site's build quotes them, the synth checks the built pages against the
 * deploy's (infra/lib/stated-facts.ts), and the answer to an access request quotes them too.
 */
export function statedSettingsFrom(context: Record<string, unknown>): {
  retentionDays: number;
  region: string;
  visitorWindowMinutes: number;
  spamRetentionDays: number;
} {
  return {
    retentionDays: retentionDaysFrom(context),
    spamRetentionDays: spamRetentionDaysFrom(context),
    region: settingFrom(context, 'region'),
    visitorWindowMinutes: visitorLimitFrom(context).windowMinutes,
  };
}
