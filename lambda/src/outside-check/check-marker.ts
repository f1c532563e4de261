/**
 * The outside check's marker (core/src/outside-check.ts): `<epoch seconds>.<HMAC-SHA-256 of
 * them>` in OUTSIDE_CHECK_HEADER, under a key derived from the origin secret like the other keys,
 * so only the stage itself can make one. The contact function accepts a marker made with the
 * current secret or, during a rotation, the previous one, within OUTSIDE_CHECK.markerSeconds of
 * its own clock. Pure.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { OUTSIDE_CHECK } from '@site/core/outside-check';
import type { OriginSecrets } from '../contact/origin-verify';

/** The key a marker is made with, from one origin secret. */
export function checkMarkerKey(originSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', originSecret, '', 'outside-check-marker', 32));
}

/** The keys a marker is accepted with: the current secret's, and during a rotation the previous one's. */
export function checkMarkerKeys(origin: OriginSecrets): Buffer[] {
  return [origin.current, ...(origin.previous === undefined ? [] : [origin.previous])].map(checkMarkerKey);
}

const signature = (key: Buffer, seconds: string) => createHmac('sha256', key).update(seconds, 'utf8').digest('hex');

/** The marker for a post made at `now`. */
export function checkMarker(key: Buffer, now: Date): string {
  const seconds = String(Math.floor(now.getTime() / 1000));
  return `${seconds}.${signature(key, seconds)}`;
}

const MARKER = /^(\d{1,12})\.([0-9a-f]{64})$/;

/** Whether `sent` is a marker one of `keys` made, within OUTSIDE_CHECK.markerSeconds of `now`. Every key is always tried. */
export function isCheckMarker(sent: string | undefined, keys: readonly Buffer[], now: Date): boolean {
  const parts = sent === undefined ? null : MARKER.exec(sent);
  if (!parts) return false;
  const [, seconds, hmac] = parts as unknown as [string, string, string];
  const matches = keys.map((key) => timingSafeEqual(Buffer.from(signature(key, seconds), 'hex'), Buffer.from(hmac, 'hex')));
  return matches.some(Boolean) && Math.abs(now.getTime() / 1000 - Number(seconds)) <= OUTSIDE_CHECK.markerSeconds;
}
