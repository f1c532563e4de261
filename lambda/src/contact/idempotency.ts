/**
 * The pieces of the Idempotency-Key contract that need no I/O: what a key looks like, and
 * the hash that tells a genuine retry from a different message under the same key.
 *
 * The hash is keyed (HMAC-SHA-256 under a key derived from the origin secret, as the
 * visitor hash is): an unkeyed hash of a message's fields would let anyone holding a copy
 * of the table confirm a guess of an erased message. A form post's own key is made from
 * that hash too, so it gives nothing away either.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { OriginSecrets } from './origin-verify';

// RFC 9562: any version 1-8 with the standard variant; crypto.randomUUID() gives version 4.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The key in one spelling (lower case), or undefined when it is not a UUID. */
export function normaliseIdempotencyKey(raw: string): string | undefined {
  const key = raw.trim();
  return UUID.test(key) ? key.toLowerCase() : undefined;
}

/** A key the idempotency hashes are made with, and a short name for it that gives nothing of it away. */
export interface HashKey {
  key: Buffer;
  /** Stored beside each hash, so a record tells which key made it. */
  name: string;
}

function hashKey(originSecret: string): HashKey {
  const key = Buffer.from(hkdfSync('sha256', originSecret, '', 'idempotency-hash', 32));
  return { key, name: createHmac('sha256', key).update('key-name').digest('hex').slice(0, 12) };
}

/**
 * The keys a hash can have been made with: the current origin secret's, and during a
 * rotation the previous one's. A record made under a key no longer held cannot be checked.
 */
export interface HashKeys {
  current: HashKey;
  previous?: HashKey;
}

export function idempotencyHashKeys(origin: OriginSecrets): HashKeys {
  const current = hashKey(origin.current);
  return origin.previous === undefined ? { current } : { current, previous: hashKey(origin.previous) };
}

/**
 * A keyed hash over the fields the validated message holds, as name/value pairs sorted by
 * name: JSON spacing and key order do not matter, and a field added to the table leaves the
 * hash of every message without it as it was.
 */
export function bodyHash(key: HashKey, message: Readonly<Record<string, string | undefined>>): string {
  const fields = Object.keys(message)
    .sort()
    .flatMap((name) => (message[name] === undefined ? [] : [[name, message[name]]]));
  return createHmac('sha256', key.key).update(JSON.stringify(fields)).digest('hex');
}

/**
 * The Idempotency-Key of a form post that brings none (a browser cannot set the header).
 * The page is prerendered and the same for every visitor, so a key written into it would be
 * shared by all of them, and without scripts nothing can make a fresh one. So the key is
 * derived from the validated content instead: a double click, a reload of the POST or a
 * Back-and-send-again of the same text is one message and one e-mail, while any edit is a new
 * message. The same text sent again after IDEMPOTENCY_TTL_SECONDS is a new message too.
 * It is the keyed body hash, shaped as a UUID of version 8 (RFC 9562: custom), so it can
 * never equal a client's random v4 key and names nothing without the stage's secret.
 */
export function contentKey(key: HashKey, message: Readonly<Record<string, string | undefined>>): string {
  const hex = createHmac('sha256', key.key).update('form-post:').update(bodyHash(key, message)).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
