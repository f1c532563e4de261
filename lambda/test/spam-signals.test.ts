/**
 * The signals a message shows, at the edges where a score changes (core/src/spam.ts), and the
 * keyed hashes that stand for its text and its sender.
 */
import { describe, expect, it } from 'vitest';
import { FAST_FILL_SECONDS, REPEATED_IN } from '@site/core/spam';
import { fingerprintKey, fingerprintOf, nearCopyBands, senderTag, signalsOf, type Observations } from '../src/spam/spam-signals';

const seen = (more: Partial<Observations> = {}): Observations => ({
  stamp: { kind: 'valid', issuedAt: 1000 },
  receivedAt: 1000 + 60,
  name: 'Jan de Vries',
  message: 'Graag een gesprek.',
  repeatedIn: 1,
  honeypot: false,
  ...more,
});
const KEY = fingerprintKey('a-test-origin-secret-of-enough-length-0123456789');

describe('signalsOf', () => {
  it.each<[string, Partial<Observations>, string[]]>([
    ['nothing for a person with a stamp', {}, []],
    ['noStamp without a stamp', { stamp: { kind: 'missing' } }, ['noStamp']],
    ['badStamp for a stamp that is not ours', { stamp: { kind: 'invalid' } }, ['badStamp']],
    ['badStamp for a stamp used before', { stamp: { kind: 'used' } }, ['badStamp']],
    ['fastFill just under the fill time', { receivedAt: 1000 + FAST_FILL_SECONDS - 1 }, ['fastFill']],
    ['no fastFill at the fill time', { receivedAt: 1000 + FAST_FILL_SECONDS }, []],
    ['no repeatedText one sender short', { repeatedIn: REPEATED_IN - 1 }, []],
    ['repeatedText from REPEATED_IN senders', { repeatedIn: REPEATED_IN }, ['repeatedText']],
    ['honeypot when the hidden field was filled', { honeypot: true }, ['honeypot']],
    ['linkInName for an @ in the name', { name: 'jan@evil' }, ['linkInName']],
    ['linkInName for an @ in the company', { company: 'sales@evil' }, ['linkInName']],
    ['no linkInName for a plain company', { company: 'De Vries B.V.' }, []],
  ])('%s', (_, more, signals) => {
    expect(signalsOf(seen(more))).toEqual(signals);
  });

  it('gives every signal at once in the order of the score', () => {
    expect(
      signalsOf(seen({ stamp: { kind: 'missing' }, name: 'evil.nl', message: 'a.nl b.nl', repeatedIn: REPEATED_IN, honeypot: true })),
    ).toEqual(['noStamp', 'linkInName', 'manyLinks', 'repeatedText', 'honeypot']);
  });
});

describe('the keyed hashes', () => {
  it('give a text one 128-bit fingerprint however it is dressed, another text another, another key another', () => {
    const fingerprint = fingerprintOf(KEY, 'Graag een gesprek.');
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(fingerprintOf(KEY, '  GRAAG, een gesprek!! ')).toBe(fingerprint);
    expect(fingerprintOf(KEY, 'Graag twee gesprekken.')).not.toBe(fingerprint);
    expect(fingerprintOf(fingerprintKey('another-origin-secret-of-enough-length-012345'), 'Graag een gesprek.')).not.toBe(fingerprint);
  });

  it('tag a network and a message apart, each as 128 bits', () => {
    const network = senderTag(KEY, { network: '203.0.113.7' });
    expect(network).toMatch(/^[0-9a-f]{32}$/);
    expect(senderTag(KEY, { network: '203.0.113.7' })).toBe(network);
    expect(senderTag(KEY, { network: '203.0.113.8' })).not.toBe(network);
    expect(senderTag(KEY, { messageId: '203.0.113.7' })).not.toBe(network);
  });

  it('read the words of a short text in their order: two words swapped are another text, one word is itself', () => {
    expect(nearCopyBands(KEY, 'goede dag')).not.toEqual(nearCopyBands(KEY, 'dag goede'));
    expect(nearCopyBands(KEY, 'Hallo!')).toEqual(nearCopyBands(KEY, 'hallo'));
    expect(nearCopyBands(KEY, 'Hallo')).not.toEqual(nearCopyBands(KEY, 'Dag'));
    expect(new Set(nearCopyBands(KEY, 'Hallo')).size).toBe(4);
  });
});
