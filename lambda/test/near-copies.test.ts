/**
 * Near-copies recognised as the same text: a word added or changed, a synonym, a look-alike
 * letter; and ordinary Dutch contact messages from different people next to never taken for
 * one another.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dutchContactMessages } from '@site/testing/fixtures/dutch-contact-messages';
import { fingerprintKey, nearCopyBands, NEAR_BANDS, wordsOf } from '../src/spam/spam-signals';
import { LOOK_ALIKES_FILE, lookAlikesModule } from '../scripts/look-alikes';

const KEY = fingerprintKey('a-test-origin-secret-of-enough-length-0123456789');
const shareABand = (a: string, b: string) => {
  const [x, y] = [nearCopyBands(KEY, a), nearCopyBands(KEY, b)];
  return x.some((band, i) => band === y[i]);
};

const SPAM = [
  'Cheap SEO services for your company: first page of Google guaranteed within one month. Contact us today for a free quote and analysis of your website.',
  'Beste ondernemer, wij bieden zakelijke leningen tot 250.000 euro zonder BKR toetsing. Binnen 24 uur geld op uw rekening. Reageer vandaag nog voor een vrijblijvend voorstel.',
  'Hello, I noticed your website could use a redesign. Our team builds modern, fast websites at a fraction of the usual price. Shall I send you some examples of our work?',
];

describe('the words a reader takes in', () => {
  it('reads look-alikes as the letters they look like, and leaves out case, accents and punctuation', () => {
    expect(wordsOf('Gооgle, ＳＥＯ!')).toEqual(['google', 'seo']);
    expect(wordsOf('Cheаp SEO')).toEqual(wordsOf('cheap seo'));
    expect(wordsOf('Café   Über-vraag')).toEqual(['cafe', 'uber', 'vraag']);
    expect(wordsOf('pay\u200Bpal')).toEqual(['paypal']);
  });

  it('is generated from Unicode’s confusables as the installed package has them', () => {
    expect(readFileSync(LOOK_ALIKES_FILE, 'utf8')).toBe(lookAlikesModule());
  });
});

describe('near-copy bands', () => {
  it(`are ${NEAR_BANDS} keyed hashes, the same for the same text however it is dressed, and another key gives others`, () => {
    const bands = nearCopyBands(KEY, SPAM[0]!);
    expect(bands).toHaveLength(NEAR_BANDS);
    for (const band of bands) expect(band).toMatch(/^[0-9a-f]{32}$/);
    expect(nearCopyBands(KEY, SPAM[0]!.toUpperCase().replaceAll(':', ' -').replace('a', 'а'))).toEqual(bands);
    expect(nearCopyBands(fingerprintKey('another-origin-secret-of-enough-length-012345'), SPAM[0]!)).not.toEqual(
      expect.arrayContaining([bands[0]]),
    );
  });

  it.each(SPAM)('take a word added, a word changed, a synonym or a Cyrillic а for the same text: %s', (text) => {
    const words = text.split(' ');
    const variants = [
      `${text} Thanks!`,
      [...words.slice(0, 5), 'really', ...words.slice(5)].join(' '),
      [...words.slice(0, 8), 'XYZ', ...words.slice(9)].join(' '),
      text.replace(
        /\b(free|vrijblijvend|modern)\b/,
        (word) => ({ free: 'gratis', vrijblijvend: 'kosteloos', modern: 'hedendaags' })[word]!,
      ),
      text.replace('a', '\u0430'),
    ];
    for (const variant of variants) expect([variant, shareABand(text, variant)]).toEqual([variant, true]);
  });

  it('keep different texts apart', () => {
    expect(shareABand(SPAM[0]!, SPAM[1]!)).toBe(false);
    expect(shareABand(SPAM[1]!, SPAM[2]!)).toBe(false);
  });

  it('take at most 1 % of pairs of ordinary Dutch contact messages for near-copies', () => {
    const corpus = dutchContactMessages(300);
    expect(new Set(corpus).size).toBe(300);
    const bands = corpus.map((message) => nearCopyBands(KEY, message));
    let pairs = 0;
    let collisions = 0;
    for (let i = 0; i < bands.length; i += 1)
      for (let j = i + 1; j < bands.length; j += 1) {
        pairs += 1;
        if (bands[i]!.some((band, k) => band === bands[j]![k])) collisions += 1;
      }
    expect(collisions / pairs).toBeLessThanOrEqual(0.01);
  });
});
