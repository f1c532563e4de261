/**
 * Text for the headers of the firm's e-mail, written so that it shows exactly as given. A
 * mail client decodes every RFC 2047 encoded word (`=?utf-8?b?…?=`) it finds in a subject or
 * a display name, so visitor text holding one would show as whatever the word encodes (a
 * right-to-left override, another name). Text that is not plain ASCII, or holds `=?`, goes in
 * as encoded words of our own, which decode to the text itself, `=?` and all. Pure.
 */

import { ENCODED_WORD_START } from '@site/core/contract';

/** Printable ASCII, as a header carries it without encoding. */
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** RFC 2047, section 2: an encoded word is at most 75 characters long. */
export const MAX_ENCODED_WORD_LENGTH = 75;

const PREFIX = '=?UTF-8?B?';
const SUFFIX = '?=';
/** The most UTF-8 bytes one word carries: base64 writes 3 bytes as 4 characters. */
const BYTES_PER_WORD = Math.floor((MAX_ENCODED_WORD_LENGTH - PREFIX.length - SUFFIX.length) / 4) * 3;

/** Whether a mail client shows the text as it is: printable ASCII, and no encoded word in it. */
export function isPlainHeaderText(text: string): boolean {
  return PRINTABLE_ASCII.test(text) && !text.includes(ENCODED_WORD_START);
}

/**
 * The text as UTF-8 encoded words ("B" encoding), each at most 75 characters and each of
 * whole characters (RFC 2047, section 5: a character is never split between words).
 */
export function encodedWords(text: string): string[] {
  const words: string[] = [];
  let bytes: Buffer[] = [];
  let length = 0;
  const flush = () => {
    if (bytes.length > 0) words.push(`${PREFIX}${Buffer.concat(bytes).toString('base64')}${SUFFIX}`);
    bytes = [];
    length = 0;
  };
  for (const character of text) {
    const encoded = Buffer.from(character, 'utf8');
    if (length + encoded.length > BYTES_PER_WORD) flush();
    bytes.push(encoded);
    length += encoded.length;
  }
  flush();
  return words;
}

/**
 * Unstructured header text (a subject): as it is when a mail client would show it so, else
 * encoded words separated by spaces. A space between two encoded words is not part of the
 * text (RFC 2047, section 6.2), and it is where the header is folded when it grows long: the
 * line breaks are the writer's of the message (SES's), as the API takes the header as one line.
 */
export function headerText(text: string): string {
  return isPlainHeaderText(text) ? text : encodedWords(text).join(' ');
}

/** RFC 5322's atext: what a display name may hold without quotes, besides the spaces between words. */
const ATOMS = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?: [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/;

/**
 * A mailbox with a display name, `Name <address>`, for the From header: the name as atoms
 * when it is only words, a quoted string when it holds other printable ASCII, encoded words
 * when it is not plain (non-ASCII, or an encoded word of its own). The address is one the
 * stack checked, and goes in as it is.
 */
export function mailbox(displayName: string, address: string): string {
  const name = displayName.trim();
  if (name === '') return address;
  if (!isPlainHeaderText(name)) return `${encodedWords(name).join(' ')} <${address}>`;
  if (ATOMS.test(name)) return `${name} <${address}>`;
  return `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
}
