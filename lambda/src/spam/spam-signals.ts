/**
 * Which of the spam signals (core/src/spam.ts) a message shows. Pure: what the store counted
 * (near-copies of the text from other addresses, whether the stamp was used before) comes in
 * as observations. No signal reads more of the message than it needs, and the text is only
 * ever kept as keyed hashes (fingerprintOf, nearCopyBands).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { FAST_FILL_SECONDS, MANY_LINKS, REPEATED_IN, type SpamSignal } from '@site/core/spam';
import { INVISIBLE } from '../shared/characters';
import { asRead, linksIn, webAddressesIn } from '../shared/links';
import { LOOK_ALIKES } from './look-alikes';

/** What was observed about one message. */
export interface Observations {
  /** The stamp: none, not ours or expired, used before, or valid with the time it was issued (epoch seconds). */
  stamp: { kind: 'missing' } | { kind: 'invalid' } | { kind: 'used' } | { kind: 'valid'; issuedAt: number };
  /** When the message arrived (epoch seconds). */
  receivedAt: number;
  name: string;
  company?: string;
  message: string;
  /** Senders of this text or a near-copy today (addresses, or messages where no address is known), this one included. */
  repeatedIn: number;
  honeypot: boolean;
}

export function signalsOf(seen: Observations): SpamSignal[] {
  const signals: SpamSignal[] = [];
  if (seen.stamp.kind === 'missing') signals.push('noStamp');
  else if (seen.stamp.kind !== 'valid') signals.push('badStamp');
  else if (seen.receivedAt - seen.stamp.issuedAt < FAST_FILL_SECONDS) signals.push('fastFill');
  if (
    linksIn(seen.name) > 0 ||
    asRead(seen.name).includes('@') ||
    // A company may well be called after its domain (`Booking.com`): only an address written out counts there.
    (seen.company !== undefined && (webAddressesIn(seen.company).some((link) => link.explicit) || asRead(seen.company).includes('@')))
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

/** Each look-alike character (look-alikes.ts) and the Latin letters or digits it looks like. */
const SKELETON = new Map(
  [...Object.entries(LOOK_ALIKES)].flatMap(([skeleton, sources]) => [...sources].map((source) => [source, skeleton])),
);

/**
 * The words of a text as a reader takes them in, UTS #39's skeleton in spirit: NFKC, lower
 * case, no invisible characters, every look-alike as the Latin letter it looks like (a
 * Cyrillic `а` is an `a`), accents off, and only letters and digits, so neither a homoglyph
 * nor punctuation makes a text new.
 */
export function wordsOf(text: string): string[] {
  const lower = text.normalize('NFKC').toLowerCase().replace(INVISIBLE, '');
  const skeleton = Array.from(lower, (character) => SKELETON.get(character) ?? character).join('');
  return skeleton
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Near-copy bands: NEAR_BANDS keyed hashes of NEAR_ROWS MinHash values each (16 values: one HMAC-SHA-512 per shingle). */
export const NEAR_BANDS = 4;
export const NEAR_ROWS = 4;

/**
 * The near-copy fingerprint of a message: MinHash over its word pairs (the words of wordsOf;
 * a text of one word, that word), in NEAR_BANDS bands of NEAR_ROWS values, each band a
 * 128-bit keyed hash. Two texts share a band with the probability 1 − (1 − J⁴)⁴ for the
 * Jaccard similarity J of their word pairs: one word changed in a message of twenty
 * (J ≈ 0.8) shares one almost always (0.9), two unrelated contact messages (J < 0.2) next to
 * never (the bench measures it on a corpus of Dutch messages). Keyed, so nobody without the
 * key can tell which words give which band, nor aim a message at one.
 */
export function nearCopyBands(key: Buffer, message: string): string[] {
  const words = wordsOf(message);
  const shingles = new Set(words.length < 2 ? words : words.slice(1).map((word, i) => `${words[i]} ${word}`));
  const minima = new Array<number>(NEAR_BANDS * NEAR_ROWS).fill(0xffffffff);
  for (const shingle of shingles) {
    const hash = createHmac('sha512', key).update(shingle, 'utf8').digest();
    for (let i = 0; i < minima.length; i += 1) minima[i] = Math.min(minima[i]!, hash.readUInt32BE(i * 4));
  }
  return Array.from({ length: NEAR_BANDS }, (_, band) =>
    createHmac('sha256', key)
      .update(`band ${band}: ${minima.slice(band * NEAR_ROWS, (band + 1) * NEAR_ROWS).join(' ')}`, 'utf8')
      .digest('hex')
      .slice(0, 32),
  );
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
