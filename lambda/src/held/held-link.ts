/**
 * The digest's link to the page of held messages (decision 0048): a token that says until
 * when it works, signed with a key derived from the origin secret for this purpose alone (as
 * the stamp's keys are), so the retry job that writes it and the contact function that reads
 * it need no secret of their own. It names no message and no person: whoever holds a link
 * that has not expired sees the held messages, as whoever reads the digest does. Pure.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { HELD_LINK_PARAMETER, HELD_PATH } from '@site/core/contract';
import type { OriginSecrets } from '../contact/origin-verify';

/** How long a digest's link works: a week, so an office back from a long weekend still gets in. */
export const HELD_LINK_DAYS = 7;
const LINK_MS = HELD_LINK_DAYS * 24 * 60 * 60 * 1000;

/** A key of the link's own, derived from an origin secret. */
export function heldLinkKey(originSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', originSecret, '', 'held-page-link', 32));
}

/** The keys a link is accepted under: the current secret's, and during a rotation the previous one's. */
export function heldLinkKeys(origin: OriginSecrets): Buffer[] {
  return [origin.current, ...(origin.previous === undefined ? [] : [origin.previous])].map(heldLinkKey);
}

const signature = (key: Buffer, expiresAt: number) => createHmac('sha256', key).update(`held:${expiresAt}`).digest();

/** When a link made at `now` stops working: to the second. */
export function heldLinkExpiry(now: Date): Date {
  return new Date(Math.floor((now.getTime() + LINK_MS) / 1000) * 1000);
}

/** A token that works until a week after `now`: `<expiry in epoch seconds>.<signature>`. */
export function heldLinkToken(key: Buffer, now: Date): string {
  const expiresAt = heldLinkExpiry(now).getTime() / 1000;
  return `${expiresAt}.${signature(key, expiresAt).toString('base64url')}`;
}

/** The digest's link: the page's address on the site, with a fresh token. */
export function heldLinkUrl(siteUrl: string, key: Buffer, now: Date): string {
  const url = new URL(HELD_PATH, siteUrl);
  url.searchParams.set(HELD_LINK_PARAMETER, heldLinkToken(key, now));
  return url.href;
}

/** When a token expires (epoch seconds), if it is one of ours and has not; undefined for anything else. Never throws. */
export function checkHeldLink(token: unknown, keys: readonly Buffer[], now: Date): number | undefined {
  if (typeof token !== 'string' || token.length > 100) return undefined;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const expiresAt = Number(match[1]);
  if (expiresAt * 1000 <= now.getTime()) return undefined;
  const sent = Buffer.from(match[2]!, 'base64url');
  // Each key compared, whichever matches, so the time taken says nothing about which did.
  const matched = keys.map((key) => timingSafeEqual(sent, signature(key, expiresAt)));
  return matched.includes(true) ? expiresAt : undefined;
}
