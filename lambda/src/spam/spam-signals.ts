/**
 * Which of the spam signals (core/src/spam.ts) a message shows. Pure: what the store counted
 * (the same text from other addresses, whether the stamp was used before) comes in as
 * observations. No signal reads more of the message than it needs, and the text is only ever
 * kept as a keyed hash (fingerprintOf).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { FAST_FILL_SECONDS, MANY_LINKS, REPEATED_IN, type SpamSignal } from '@site/core/spam';

/** What was observed about one message. */
export interface Observations {
  /** The stamp: none, not ours or expired, used before, or valid with the time it was issued (epoch seconds). */
  stamp: { kind: 'missing' } | { kind: 'invalid' } | { kind: 'used' } | { kind: 'valid'; issuedAt: number };
  /** When the message arrived (epoch seconds). */
  receivedAt: number;
  name: string;
  company?: string;
  message: string;
  /** Senders of this text today (addresses, or messages where no address is known), this one included. */
  repeatedIn: number;
  honeypot: boolean;
}

/** A web address: a scheme, `www.`, or a host with a common top-level domain, as spam writes them. */
const LINK = /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|info|biz|io|co|ru|cn|top|xyz|online|site|shop|club|store|link|click)\b/giu;
/** An explicit web address only: a company may well be called after its domain (`Booking.com`). */
const EXPLICIT_LINK = /\bhttps?:\/\/|\bwww\./iu;

/** How many web addresses a text holds. */
export function linksIn(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

export function signalsOf(seen: Observations): SpamSignal[] {
  const signals: SpamSignal[] = [];
  if (seen.stamp.kind === 'missing') signals.push('noStamp');
  else if (seen.stamp.kind !== 'valid') signals.push('badStamp');
  else if (seen.receivedAt - seen.stamp.issuedAt < FAST_FILL_SECONDS) signals.push('fastFill');
  if (
    linksIn(seen.name) > 0 ||
    seen.name.includes('@') ||
    (seen.company !== undefined && (EXPLICIT_LINK.test(seen.company) || seen.company.includes('@')))
  ) {
    signals.push('linkInName');
  }
  const links = linksIn(seen.message);
  if (links >= MANY_LINKS) signals.push('manyLinks');
  else if (links > 0) signals.push('linkInMessage');
  if (seen.repeatedIn >= REPEATED_IN) signals.push('repeatedText');
  if (seen.honeypot) signals.push('honeypot');
  return signals;
}

/** The key message fingerprints are made with, derived from the origin secret like the other keys. */
export function fingerprintKey(originSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', originSecret, '', 'message-fingerprint', 32));
}

/**
 * The same text however it was dressed: case, accents' composition, spacing and punctuation
 * left out, so a wave that varies those is one fingerprint. 128 bits of HMAC-SHA-256: nobody
 * without the key can tell from it what was written, nor confirm a guess.
 */
export function fingerprintOf(key: Buffer, message: string): string {
  const normalised = message
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  return createHmac('sha256', key).update(normalised, 'utf8').digest('hex').slice(0, 32);
}

/**
 * Who sent a text, as far as repeatedText counts: the visitor's counted network (an IPv4
 * address or an IPv6 /64, visitor-limit.ts), or the message itself when CloudFront named no
 * address. Keyed with the fingerprint key, so it matches no visitor counter's hash.
 */
export function senderTag(key: Buffer, sender: { network: string } | { messageId: string }): string {
  const value = 'network' in sender ? `network:${sender.network}` : `message:${sender.messageId}`;
  return createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, 32);
}
