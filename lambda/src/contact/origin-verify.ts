/**
 * The API only through CloudFront: CloudFront adds the origin header (api-origin.ts) with a secret value
 * to every request it forwards to the API, and nothing else knows the value. A request
 * without it reached the API's public execute-api address some other way and is refused
 * before anything else about it is read. Pure: no I/O.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Generated values are longer; anything shorter is a mistake, not a secret (config.ts refuses it). */
export const MIN_ORIGIN_SECRET_LENGTH = 32;

export interface OriginSecrets {
  current: string;
  previous?: string;
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
