/**
 * The API only through CloudFront: CloudFront adds the origin header (api-origin.ts) with a secret value
 * to every request it forwards to the API, and nothing else knows the value. A request
 * without it reached the API's public execute-api address some other way and is refused
 * before anything else about it is read. Pure: no I/O.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';

/** Generated values are longer; anything shorter is a mistake, not a secret. */
export const MIN_ORIGIN_SECRET_LENGTH = 32;

export interface OriginSecrets {
  current: string;
  previous?: string;
}

function secret(env: NodeJS.ProcessEnv, name: string, required: boolean): string | undefined {
  const value = env[name]?.trim();
  if (!value) {
    if (required) throw new Error(`Environment variable ${name} is not set.`);
    return undefined;
  }
  // The message names the variable and the rule, never the value.
  if (value.length < MIN_ORIGIN_SECRET_LENGTH) {
    throw new Error(`Environment variable ${name} must be at least ${MIN_ORIGIN_SECRET_LENGTH} characters long.`);
  }
  return value;
}

export function originSecretsFrom(env: NodeJS.ProcessEnv): OriginSecrets {
  const current = secret(env, ORIGIN_VERIFY_ENV.current, true)!;
  const previous = secret(env, ORIGIN_VERIFY_ENV.previous, false);
  return previous === undefined ? { current } : { current, previous };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether `sent` is one of the accepted values. Digests make the compared buffers equally
 * long whatever was sent, and both values are always compared, so the time taken tells a
 * caller nothing about how close a guess was or which value matched.
 */
export function isFromCloudFront(sent: string | undefined, secrets: OriginSecrets): boolean {
  if (sent === undefined) return false;
  const received = digest(sent);
  const matchesCurrent = timingSafeEqual(received, digest(secrets.current));
  const matchesPrevious = timingSafeEqual(received, digest(secrets.previous ?? secrets.current));
  return matchesCurrent || matchesPrevious;
}
