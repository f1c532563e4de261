/**
 * The pieces of the Idempotency-Key contract that need no I/O: what a key looks like, and
 * the hash that tells a genuine retry from a different message under the same key.
 */
import { createHash } from 'node:crypto';

// RFC 9562: any version 1-8 with the standard variant; crypto.randomUUID() gives version 4.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The key in one spelling (lower case), or undefined when it is not a UUID. */
export function normaliseIdempotencyKey(raw: string): string | undefined {
  const key = raw.trim();
  return UUID.test(key) ? key.toLowerCase() : undefined;
}

/**
 * A hash over the fields the validated message holds, as name/value pairs sorted by name:
 * JSON spacing and key order do not matter, and a field added to the table leaves the hash
 * of every message without it as it was.
 */
export function bodyHash(message: Readonly<Record<string, string | undefined>>): string {
  const fields = Object.keys(message)
    .sort()
    .flatMap((name) => (message[name] === undefined ? [] : [[name, message[name]]]));
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * The Idempotency-Key of a form post that brings none (a browser cannot set the header).
 * The page is prerendered and the same for every visitor, so a key written into it would be
 * shared by all of them, and without scripts nothing can make a fresh one. So the key is
 * derived from the validated content instead: a double click, a reload of the POST or a
 * Back-and-send-again of the same text is one message and one e-mail, while any edit is a new
 * message. The same text sent again after IDEMPOTENCY_TTL_SECONDS is a new message too.
 * Shaped as a UUID of version 8 (RFC 9562: custom), so it can never equal a client's random v4 key.
 */
export function contentKey(message: Readonly<Record<string, string | undefined>>): string {
  const hex = createHash('sha256').update('form-post:').update(bodyHash(message)).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
