/**
 * The functions' settings, read from the environment the stack (or the local stack) gives
 * them: one valibot schema per kind of value, and an error naming the variable (never its
 * value, which may be a secret) for the first one missing or invalid, in the order below. Pure:
 * each handler's entry (handlers/) reads its environment once, with these.
 */
import * as v from 'valibot';
import {
  DELIVERY_ALARM_ENV,
  FUNCTION_ENV,
  HELD_PAGE_ENV,
  MAIL_BUDGET_ENV,
  ORIGIN_VERIFY_ENV,
  VISITOR_LIMIT_ENV,
} from '@site/core/function-env';
import { OUTSIDE_CHECK_ENV } from '@site/core/outside-check';
import { checkMarkerKey, checkMarkerKeys } from './outside-check/check-marker';
import { idempotencyHashKeys, type HashKeys } from './contact/idempotency';
import type { MailBudgets } from './spam/mail-budget';
import { MIN_ORIGIN_SECRET_LENGTH, type OriginSecrets } from './contact/origin-verify';
import { heldLinkKey } from './held/held-link';
import { fingerprintKey } from './spam/spam-signals';
import { stampKeyring, type StampKeyring } from './spam/stamp';
import { visitorHashKey, type VisitorLimit } from './spam/visitor-limit';

/** Set, and not blank. */
const text = v.pipe(v.optional(v.string(), ''), v.trim(), v.nonEmpty('is not set'));

const address = v.pipe(
  text,
  v.check((value) => value.includes('@'), 'must be an e-mail address'),
);

/** The firm may want more than one inbox to receive the notification. */
const addresses = v.pipe(
  text,
  v.transform((value) => value.split(',').map((one) => one.trim())),
  v.check((list) => list.every((one) => one.includes('@')), 'must hold e-mail addresses separated by commas'),
);

/** The site's public address: http(s), no path, query or fragment, so paths join cleanly. */
const siteUrl = v.pipe(
  text,
  v.check((value) => {
    try {
      const url = new URL(value);
      return ['https:', 'http:'].includes(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !value.endsWith('/');
    } catch {
      return false;
    }
  }, 'must be the site’s address, such as https://www.example.nl, without a path or a trailing slash'),
);

/** Digits only, so `1.5`, `1e3` and `30 days` are refused rather than read as something else. */
const wholeNumber = (atLeast: number, rule: string) =>
  v.pipe(
    text,
    v.regex(/^\d+$/, (issue) => `${rule}, not "${String(issue.input)}"`),
    v.transform(Number),
    v.safeInteger((issue) => `${rule}, not "${String(issue.input)}"`),
    v.minValue(atLeast, (issue) => `${rule}, not "${String(issue.input)}"`),
  );
const count = (atLeast: number) => wholeNumber(atLeast, `must be a whole number of at least ${atLeast}`);
const positive = (unit: string) => wholeNumber(1, `must be a positive whole number of ${unit}`);

/** Generated values are longer; anything shorter is a mistake, not a secret. The message never repeats it. */
const secret = v.pipe(text, v.minLength(MIN_ORIGIN_SECRET_LENGTH, `must be at least ${MIN_ORIGIN_SECRET_LENGTH} characters long`));
/** Set only during a rotation; blank is not set. */
const optionalSecret = v.pipe(
  v.optional(v.string(), ''),
  v.trim(),
  v.transform((value) => value || undefined),
  v.optional(v.pipe(v.string(), v.minLength(MIN_ORIGIN_SECRET_LENGTH, `must be at least ${MIN_ORIGIN_SECRET_LENGTH} characters long`))),
);

type Variables = Record<string, readonly [name: string, kind: v.GenericSchema<string | undefined, unknown>]>;
type Values<V extends Variables> = { -readonly [K in keyof V]: v.InferOutput<V[K][1]> };

/** Each variable read by its kind, in order; the first that is missing or invalid is named in the error. */
function read<V extends Variables>(env: NodeJS.ProcessEnv, variables: V): Values<V> {
  const values: Record<string, unknown> = {};
  for (const [key, [name, kind]] of Object.entries(variables)) {
    const parsed = v.safeParse(kind, env[name], { abortPipeEarly: true });
    if (!parsed.success) throw new Error(`Environment variable ${name} ${parsed.issues[0].message}.`);
    values[key] = parsed.output;
  }
  return values as Values<V>;
}

/** What both functions are given: the table, the e-mail's route, and how long a message is kept. */
export interface LambdaConfig {
  tableName: string;
  mailFrom: string;
  mailTo: string[];
  /** The SES configuration set every e-mail goes through, which publishes its delivery events. */
  configurationSet: string;
  retentionDays: number;
  /** The stage its metrics are counted under. */
  stage: string;
}

/** Who the notification comes from and goes to: MAIL_FROM and MAIL_TO. */
export function readMailRoute(env: NodeJS.ProcessEnv): Pick<LambdaConfig, 'mailFrom' | 'mailTo'> {
  return read(env, { mailFrom: [FUNCTION_ENV.mailFrom, address], mailTo: [FUNCTION_ENV.mailTo, addresses] });
}

export function readConfig(env: NodeJS.ProcessEnv): LambdaConfig {
  return read(env, {
    tableName: [FUNCTION_ENV.tableName, text],
    mailFrom: [FUNCTION_ENV.mailFrom, address],
    mailTo: [FUNCTION_ENV.mailTo, addresses],
    configurationSet: [FUNCTION_ENV.configurationSet, text],
    retentionDays: [FUNCTION_ENV.retentionDays, positive('days')],
    stage: [FUNCTION_ENV.stage, text],
  });
}

/** The stage to count under when the rest of the configuration cannot be read, so that failure is counted too. */
export function metricsStage(env: NodeJS.ProcessEnv): string {
  return env[FUNCTION_ENV.stage]?.trim() || 'unconfigured';
}

/**
 * What the retry job is given besides: after how long an e-mail SES accepted counts as not
 * delivered, and what the digest's link to the page of held messages is made of: the site's
 * address and the link's key, derived from the origin secret (held/held-link.ts).
 */
export interface RetryConfig extends LambdaConfig {
  deliveryAlarmMinutes: number;
  heldLink: { siteUrl: string; key: Buffer };
}

export function readRetryConfig(env: NodeJS.ProcessEnv): RetryConfig {
  const values = read(env, {
    deliveryAlarmMinutes: [DELIVERY_ALARM_ENV.minutes, positive('minutes')],
    siteUrl: [HELD_PAGE_ENV.siteUrl, siteUrl],
    originSecret: [ORIGIN_VERIFY_ENV.current, secret],
  });
  return {
    ...readConfig(env),
    deliveryAlarmMinutes: values.deliveryAlarmMinutes,
    heldLink: { siteUrl: values.siteUrl, key: heldLinkKey(values.originSecret) },
  };
}

/** What the delivery-event consumer is given: the table it records outcomes in, and the stage it counts them under. */
export interface DeliveryEventConfig {
  tableName: string;
  stage: string;
}

export function readDeliveryEventConfig(env: NodeJS.ProcessEnv): DeliveryEventConfig {
  return read(env, { tableName: [FUNCTION_ENV.tableName, text], stage: [FUNCTION_ENV.stage, text] });
}

/** The accepted origin secrets: what CloudFront sends, and during a rotation the value it sent before. */
export function originSecretsFrom(env: NodeJS.ProcessEnv): OriginSecrets {
  const { current, previous } = read(env, {
    current: [ORIGIN_VERIFY_ENV.current, secret],
    previous: [ORIGIN_VERIFY_ENV.previous, optionalSecret],
  });
  return previous === undefined ? { current } : { current, previous };
}

/** The visitor limit (visitor-limit.ts): messages per visitor (0: no limit), per IPv6 /48, and the window. */
export function visitorLimitFrom(env: NodeJS.ProcessEnv): VisitorLimit {
  return read(env, {
    messages: [VISITOR_LIMIT_ENV.messages, count(0)],
    ipv6Network: [VISITOR_LIMIT_ENV.ipv6Network, count(0)],
    windowSeconds: [VISITOR_LIMIT_ENV.windowSeconds, count(1)],
  });
}

/** The mail budgets (mail-budget.ts): e-mails per hour and per day, of ordinary messages and of clean ones from the site's form. */
export function mailBudgetsFrom(env: NodeJS.ProcessEnv): MailBudgets {
  const budgets = read(env, {
    perHour: [MAIL_BUDGET_ENV.perHour, count(1)],
    perDay: [MAIL_BUDGET_ENV.perDay, count(1)],
    sitePerHour: [MAIL_BUDGET_ENV.sitePerHour, count(1)],
    sitePerDay: [MAIL_BUDGET_ENV.sitePerDay, count(1)],
  });
  return {
    ordinary: { perHour: budgets.perHour, perDay: budgets.perDay },
    site: { perHour: budgets.sitePerHour, perDay: budgets.sitePerDay },
  };
}

/**
 * What only the contact function is given, and checks before anything else: the origin
 * secret, and the keys derived from it: the one visitor addresses are hashed with, those
 * idempotency hashes are made with, those stamps are signed with and the one texts are
 * fingerprinted with; and what it spends e-mails by.
 */
export interface GuardConfig {
  origin: OriginSecrets;
  /** The keys an outside check's marker is accepted with (check-marker.ts). */
  checkMarkerKeys: Buffer[];
  visitorLimit: VisitorLimit;
  visitorHashKey: Buffer;
  idempotencyHashKeys: HashKeys;
  stampKeys: StampKeyring;
  fingerprintKey: Buffer;
  mailBudgets: MailBudgets;
  /** Days a message the firm marks spam on the page of held messages is still kept. */
  spamRetentionDays: number;
}

export function readGuardConfig(env: NodeJS.ProcessEnv): GuardConfig {
  const origin = originSecretsFrom(env);
  return {
    origin,
    checkMarkerKeys: checkMarkerKeys(origin),
    visitorLimit: visitorLimitFrom(env),
    visitorHashKey: visitorHashKey(origin.current),
    idempotencyHashKeys: idempotencyHashKeys(origin),
    stampKeys: stampKeyring(origin),
    fingerprintKey: fingerprintKey(origin.current),
    mailBudgets: mailBudgetsFrom(env),
    ...read(env, { spamRetentionDays: [HELD_PAGE_ENV.spamRetentionDays, positive('days')] }),
  };
}

/** Everything the contact function is given. */
export type ContactConfig = LambdaConfig & GuardConfig;

/** The guard first: without an origin secret, that is the variable to name. */
export function readContactConfig(env: NodeJS.ProcessEnv): ContactConfig {
  return { ...readGuardConfig(env), ...readConfig(env) };
}

/** What the outside check is given: the site it checks, the stage it counts under, and the key it marks its post with. */
export interface OutsideCheckConfig {
  siteUrl: string;
  stage: string;
  markerKey: Buffer;
}

/** The origin secret first, as for the contact function: without it the check cannot mark its post. */
export function readOutsideCheckConfig(env: NodeJS.ProcessEnv): OutsideCheckConfig {
  const { current } = read(env, { current: [ORIGIN_VERIFY_ENV.current, secret] });
  const { siteUrl: url, stage } = read(env, { siteUrl: [OUTSIDE_CHECK_ENV.siteUrl, siteUrl], stage: [FUNCTION_ENV.stage, text] });
  return { siteUrl: url, stage, markerKey: checkMarkerKey(current) };
}
