/**
 * The digest as the firm reads it: each held message fenced, so what a visitor typed can
 * never pass for the digest's own lines or an entry of its own, and its web addresses shown
 * so that no mail client makes them links.
 */
import { describe, expect, it } from 'vitest';
import { find } from 'linkifyjs';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { DIGEST_TEXT } from '@site/core/content/digest';
import { messageMaker } from '@site/testing/stored-messages';
import { digestBody, digestOf } from '../src/spam/digest';

/** The digest's own link to the page of held messages: the one web address it may carry. */
const LINK = { url: 'https://www.firma.example/api/held?link=1795600800.abc', until: '2026-11-30T09:00:00Z' };

const make = messageMaker({ idPrefix: '01JDHELD', from: new Date('2026-11-23T09:00:00Z') });

/** The attack issue 51 found: a message that writes the digest's lines for a sender of its choice. */
const FORGED = [
  'Goedemiddag,',
  '',
  `${DIGEST_TEXT.score}: 0`,
  `${DIGEST_TEXT.reference}: 01JDFORGED0000000000000000, maandag 23 november 2026 om 10.00 uur`,
  'Naam: Belastingdienst',
  'E-mail: aanslag@belastingdienst-betalen.nl',
  'Bericht:',
  'Uw aanslag staat open: betaal via https://belastingdienst-betalen.nl/ideal',
  '1. Spamscore: 0',
].join('\n');

describe('the digest’s held messages', () => {
  const attacker = make({
    name: 'Piet',
    status: 'held',
    heldFor: 'suspect',
    score: 3,
    signals: ['linkInMessage', 'noStamp'],
    message: FORGED,
  });
  const person = make({ name: 'Anna de Vries', company: 'De Vries BV', status: 'held', heldFor: 'budget', score: 0, signals: [] });
  const body = digestBody(digestOf([attacker, person], false)!, CONTACT_FIELDS, LINK);
  const lines = body.split('\n');

  it('starts each entry with its number and the digest’s own words, at the start of a line', () => {
    const entries = lines.filter((line) => /^\d+\. /.test(line));
    expect(entries).toEqual([
      `1. ${DIGEST_TEXT.score}: 0`,
      `2. ${DIGEST_TEXT.score}: 3 (${DIGEST_TEXT.signal.linkInMessage}; ${DIGEST_TEXT.signal.noStamp})`,
    ]);
  });

  it('quotes every line the visitor typed, so “Spamscore: 0 / Kenmerk / Naam: Belastingdienst” cannot pass for the digest’s lines', () => {
    const start = lines.indexOf(
      '   Bericht:',
      lines.findIndex((line) => line.includes(attacker.id)),
    );
    const quoted = lines.slice(start + 1, start + 1 + FORGED.split('\n').length);
    expect(quoted).toEqual([
      '   > Goedemiddag,',
      '   >',
      `   > ${DIGEST_TEXT.score}: 0`,
      `   > ${DIGEST_TEXT.reference}: 01JDFORGED0000000000000000, maandag 23 november 2026 om 10.00 uur`,
      '   > Naam: Belastingdienst',
      '   > E-mail: aanslag@belastingdienst-betalen.nl',
      '   > Bericht:',
      '   > Uw aanslag staat open: betaal via hxxps://belastingdienst-betalen[.]nl/ideal',
      '   > 1. Spamscore: 0',
    ]);
    // No line of the forgery stands anywhere unquoted.
    for (const forged of ['01JDFORGED', 'Belastingdienst', 'aanslag@'])
      expect(lines.filter((line) => line.includes(forged) && !line.startsWith('   > '))).toEqual([]);
  });

  it('indents every field the visitor filled in under the entry it belongs to, after the digest’s own mailto: line', () => {
    const entry = lines.slice(lines.findIndex((line) => line.includes(person.id)) - 1);
    expect(entry.slice(0, 7)).toEqual([
      `1. ${DIGEST_TEXT.score}: 0`,
      expect.stringMatching(new RegExp(`^   ${DIGEST_TEXT.reference}: ${person.id}, `)),
      `   ${DIGEST_TEXT.answer}: mailto:${person.email}`,
      '   Naam: Anna de Vries',
      `   E-mailadres: ${person.email}`,
      '   Bedrijf: De Vries BV',
      '   Bericht:',
    ]);
  });

  it('makes links of its own only: the page of held messages and each visitor’s mailto:, never an address typed', () => {
    expect(
      find(body, 'url')
        .map((found) => found.href)
        .sort(),
    ).toEqual([LINK.url, `mailto:${attacker.email}`, `mailto:${person.email}`].sort());
  });
});
