/**
 * Header text written so that it shows exactly as given: checked with a real MIME decoder
 * (postal-mime's, as a mail client decodes), never with our own.
 */
import { addressParser, decodeWords } from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { encodedWords, headerText, isPlainHeaderText, mailbox, MAX_ENCODED_WORD_LENGTH } from '../src/mail/mail-header';

/** The name: an encoded word whose text starts with a right-to-left override. */
const RLO_WORD = '=?utf-8?b?4oCuZ25wLmV4ZSDigK1CZXRhYWwgZGUgZmFjdHV1cg==?=';

const TEXTS = [
  'Nieuw contactbericht van Jan de Vries',
  `Nieuw contactbericht van ${RLO_WORD}`,
  'Nieuw contactbericht van Zoë Ångström (Bakkerij Ødegård & Zn.)',
  `Nieuw contactbericht van ${'👩‍💼'.repeat(40)}`,
  'a =? b ?= c =?x?q?y?=',
  'العربية 中文 ＝？ full-width',
  '',
];

describe('headerText', () => {
  it.each(TEXTS)('decodes to the text itself: %s', (text) => {
    expect(decodeWords(headerText(text))).toBe(text);
  });

  it('leaves plain ASCII as it is, and encodes what a mail client would otherwise decode or could not show', () => {
    expect(headerText('Nieuw contactbericht van Jan de Vries')).toBe('Nieuw contactbericht van Jan de Vries');
    expect(isPlainHeaderText(`van ${RLO_WORD}`)).toBe(false);
    expect(isPlainHeaderText('van Zoë')).toBe(false);
    const encoded = headerText(`van ${RLO_WORD}`);
    expect(encoded).toMatch(/^(=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=)( =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=)*$/);
    // The visitor's word is inside our base64, not a word of its own.
    expect(encoded).not.toContain('4oCuZ25w');
    expect(decodeWords(encoded)).not.toContain('\u202E');
  });
});

describe('encodedWords', () => {
  it('are at most 75 characters each, and never split a character', () => {
    for (const text of TEXTS) {
      const words = encodedWords(text);
      for (const word of words) {
        expect(word.length).toBeLessThanOrEqual(MAX_ENCODED_WORD_LENGTH);
        // Each word on its own is whole UTF-8: no replacement character when decoded alone.
        expect(decodeWords(word)).not.toContain('\uFFFD');
      }
      expect(words.map((word) => decodeWords(word)).join('')).toBe(text);
    }
  });
});

describe('mailbox', () => {
  it.each([
    ['Website van de firma', 'Website van de firma <website@firma.example>'],
    ['Firma B.V. "Streep"', '"Firma B.V. \\"Streep\\"" <website@firma.example>'],
    ['Bakkerij Ødegård', undefined],
    [`Naam ${RLO_WORD}`, undefined],
  ])('names the sender %s, as a mail client reads it back', (name, written) => {
    const from = mailbox(name, 'website@firma.example');
    if (written !== undefined) expect(from).toBe(written);
    expect(addressParser(from)).toEqual([{ name, address: 'website@firma.example' }]);
  });

  it('is the bare address without a name', () => {
    expect(mailbox('  ', 'website@firma.example')).toBe('website@firma.example');
  });
});
