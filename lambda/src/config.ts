/**
 * The functions' settings, read from the environment the stack (or the local stack) gives
 * them, with an error naming the variable (never its value) for a missing or invalid one.
 * Pure: each handler's entry (handlers/) reads its environment once, with these.
 */
import { DELIVERY_ALARM_ENV, FUNCTION_ENV } from '@site/core/function-env';
import { idempotencyHashKeys, type HashKeys } from './idempotency';
import { originSecretsFrom, type OriginSecrets } from './origin-verify';
import { visitorHashKey, visitorLimitFrom, type VisitorLimit } from './visitor-limit';

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

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Environment variable ${name} is not set.`);
  return value;
}

function mailAddress(env: NodeJS.ProcessEnv, name: string): string {
  const address = required(env, name);
  if (!address.includes('@')) throw new Error(`Environment variable ${name} must be an e-mail address.`);
  return address;
}

/** The firm may want more than one inbox to receive the notification. */
function mailAddresses(env: NodeJS.ProcessEnv, name: string): string[] {
  const addresses = required(env, name)
    .split(',')
    .map((address) => address.trim());
  if (addresses.some((address) => !address.includes('@'))) {
    throw new Error(`Environment variable ${name} must hold e-mail addresses separated by commas.`);
  }
  return addresses;
}

/** Required like the rest: the stack (or the local stack) passes its one configured value. */
function positiveWholeNumber(env: NodeJS.ProcessEnv, name: string, unit: string): number {
  const raw = required(env, name);
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`Environment variable ${name} must be a positive whole number of ${unit}, not "${raw}".`);
  }
  return value;
}

/** Who the notification comes from and goes to: MAIL_FROM and MAIL_TO. */
export function readMailRoute(env: NodeJS.ProcessEnv): Pick<LambdaConfig, 'mailFrom' | 'mailTo'> {
  return { mailFrom: mailAddress(env, FUNCTION_ENV.mailFrom), mailTo: mailAddresses(env, FUNCTION_ENV.mailTo) };
}

export function readConfig(env: NodeJS.ProcessEnv): LambdaConfig {
  return {
    tableName: required(env, FUNCTION_ENV.tableName),
    ...readMailRoute(env),
    configurationSet: required(env, FUNCTION_ENV.configurationSet),
    retentionDays: positiveWholeNumber(env, FUNCTION_ENV.retentionDays, 'days'),
    stage: required(env, FUNCTION_ENV.stage),
  };
}

/** The stage to count under when the rest of the configuration cannot be read, so that failure is counted too. */
export function metricsStage(env: NodeJS.ProcessEnv): string {
  return env[FUNCTION_ENV.stage]?.trim() || 'unconfigured';
}

/** What the retry job is given besides: after how long an e-mail SES accepted counts as not delivered. */
export interface RetryConfig extends LambdaConfig {
  deliveryAlarmMinutes: number;
}

export function readRetryConfig(env: NodeJS.ProcessEnv): RetryConfig {
  return { ...readConfig(env), deliveryAlarmMinutes: positiveWholeNumber(env, DELIVERY_ALARM_ENV.minutes, 'minutes') };
}

/** What the delivery-event consumer is given: the table it records outcomes in, and the stage it counts them under. */
export interface DeliveryEventConfig {
  tableName: string;
  stage: string;
}

export function readDeliveryEventConfig(env: NodeJS.ProcessEnv): DeliveryEventConfig {
  return { tableName: required(env, FUNCTION_ENV.tableName), stage: required(env, FUNCTION_ENV.stage) };
}

/**
 * What only the contact function is given, and checks before anything else: the origin
 * secret, and the keys derived from it: the one visitor addresses are hashed with, and those
 * idempotency hashes are made with.
 */
export interface GuardConfig {
  origin: OriginSecrets;
  visitorLimit: VisitorLimit;
  visitorHashKey: Buffer;
  idempotencyHashKeys: HashKeys;
}

export function readGuardConfig(env: NodeJS.ProcessEnv): GuardConfig {
  const origin = originSecretsFrom(env);
  return {
    origin,
    visitorLimit: visitorLimitFrom(env),
    visitorHashKey: visitorHashKey(origin.current),
    idempotencyHashKeys: idempotencyHashKeys(origin),
  };
}

/** Everything the contact function is given. */
export type ContactConfig = LambdaConfig & GuardConfig;

/** The guard first: without an origin secret, that is the variable to name. */
export function readContactConfig(env: NodeJS.ProcessEnv): ContactConfig {
  return { ...readGuardConfig(env), ...readConfig(env) };
}
