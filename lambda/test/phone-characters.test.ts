/**
 * A phone number keeps no invisible character at all (characters.ts, the table: "stored:
 * e-mail address, phone number: all removed"), not even the ones genuine text keeps: a soft
 * hyphen, a joiner, a direction mark or a variation selector in a number is debris from
 * where it was copied (a hyphenated web page, a right-to-left page, a chat app), and left
 * in, it would be stored, and the firm's e-mail would offer no number to dial.
 */
import { describe, expect, it } from 'vitest';
import { validateContactMessage } from '../src/contact/schema';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

/** The invisible characters genuine text keeps (written out here, not taken from characters.ts). */
const KEPT_IN_TEXT = {
  'soft hyphen': '\u00AD',
  'combining grapheme joiner': '\u034F',
  'Arabic letter mark': '\u061C',
  'Mongolian free variation selector one': '\u180B',
  'Mongolian free variation selector four': '\u180F',
  'zero-width non-joiner': '\u200C',
  'zero-width joiner': '\u200D',
  'left-to-right mark': '\u200E',
  'right-to-left mark': '\u200F',
  'variation selector-1': '\uFE00',
  'variation selector-16 (emoji presentation)': '\uFE0F',
  'variation selector-17': '\u{E0100}',
  'variation selector-256': '\u{E01EF}',
};

const NUMBER = '+31 55 123 4567';

describe('validation', () => {
  it.each(Object.entries(KEPT_IN_TEXT))('removes every %s from a phone number, wherever it stands', (_, character) => {
    for (const phone of [`${character}${NUMBER}`, `+31 55${character} 123 4567`, `+31 55 1${character}23 4567${character}`]) {
      const result = validateContactMessage({ ...VALID_BODY, phone });
      expect(result).toMatchObject({ ok: true, value: { phone: NUMBER } });
    }
  });
});

describe('through the handler', () => {
  const stack = useContactStack();

  it('stores the number as it can be seen, and e-mails the firm a number to dial', async () => {
    // Copied from a right-to-left page, hyphenated, with a chat app's joiners and emoji selector.
    const phone = '\u200E+31\u00AD 55\u200D 123\u200C 45\u034F67\uFE0F\u200F';
    const response = answer(await stack.handler(contactEvent({ body: { ...VALID_BODY, phone } })));
    expect(response.statusCode).toBe(200);
    expect(await stack.aws.message(response.json.id!)).toMatchObject({ phone: NUMBER });
    const [email] = await stack.aws.sentEmails();
    expect(email!.body.text).toContain(NUMBER);
    expect(email!.body.html).toContain('href="tel:+31551234567"');
  });
});
