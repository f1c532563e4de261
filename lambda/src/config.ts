/**
 * The handler's settings, from the environment the stack (or the local stack) gives it.
 * Read on first use rather than at import, so a test can set the environment first, and a
 * missing setting fails the request that needs it with an error naming the variable.
 */
import { originSecretsFrom, type OriginSecrets } from './origin-verify';
import { visitorHashKey, visitorLimitFrom, type VisitorLimit } from './visitor-limit';

export interface LambdaConfig {
  tableName: string;
  mailFrom: string;
  mailTo: string[];
  retentionDays: number;
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
function retentionDays(env: NodeJS.ProcessEnv): number {
  const raw = required(env, 'RETENTION_DAYS');
  const days = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new Error(`Environment variable RETENTION_DAYS must be a positive whole number of days, not "${raw}".`);
  }
  return days;
}

/** Who the notification comes from and goes to: MAIL_FROM and MAIL_TO. */
export function readMailRoute(env: NodeJS.ProcessEnv): Pick<LambdaConfig, 'mailFrom' | 'mailTo'> {
  return { mailFrom: mailAddress(env, 'MAIL_FROM'), mailTo: mailAddresses(env, 'MAIL_TO') };
}

export function readConfig(env: NodeJS.ProcessEnv): LambdaConfig {
  return {
    tableName: required(env, 'TABLE_NAME'),
    ...readMailRoute(env),
    retentionDays: retentionDays(env),
  };
}

let loaded: LambdaConfig | undefined;

/** The configuration of this process, read once; a failed read is retried on the next call. */
export function config(): LambdaConfig {
  loaded ??= readConfig(process.env);
  return loaded;
}

/**
 * What only the contact function is given, and checks before anything else: the origin
 * secret, and the visitor limit with the key visitor addresses are hashed with.
 */
export interface GuardConfig {
  origin: OriginSecrets;
  visitorLimit: VisitorLimit;
  visitorHashKey: Buffer;
}

export function readGuardConfig(env: NodeJS.ProcessEnv): GuardConfig {
  const origin = originSecretsFrom(env);
  return { origin, visitorLimit: visitorLimitFrom(env), visitorHashKey: visitorHashKey(origin.current) };
}

let guardLoaded: GuardConfig | undefined;

/** Read once per process like config(); a failed read is retried on the next call. */
export function guardConfig(): GuardConfig {
  guardLoaded ??= readGuardConfig(process.env);
  return guardLoaded;
}
