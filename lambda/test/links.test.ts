/**
 * Web addresses counted as a person reads them, and shown to the firm so that no mail client
 * makes them clickable: every way issue 51 found to hide a link, a visitor's own site, an
 * e-mail address, and the ordinary Dutch text that must count as none.
 */
import { describe, expect, it } from 'vitest';
import { find } from 'linkifyjs';
import { signalsOf, type Observations } from '../src/spam/spam-signals';
import { asRead, defanged, linksIn, webAddressesIn } from '../src/shared/links';

const message = (text: string, fields: Partial<Observations> = {}): Observations => ({
  stamp: { kind: 'valid', issuedAt: 0 },
  receivedAt: 60,
  name: 'Jan de Vries',
  message: text,
  repeatedIn: 1,
  honeypot: false,
  ...fields,
});

describe('counting web addresses', () => {
  it.each([
    ['evil.nl', 1],
    ['kijk op evil.de', 1],
    ['evil.eu', 1],
    ['evil.app', 1],
    ['evil.ai', 1],
    ['evil.me', 1],
    ['bit.ly/3xYz', 1],
    ['hxxps://evil[.]com', 1],
    ['hxxp://evil(.)com/pad', 1],
    ['evil (dot) nl en evil [punt] be', 2],
    ['evil{.}com', 1],
    ['hxxps[:]//evil.com', 1],
    ['ｗｗｗ．evil．com', 1],
    ['evil。com', 1],
    ['https\u00AD://evil.com', 1],
    ['ev\u200Bil.com', 1],
    ['https://www.mijnbedrijf.com', 1],
    ['twee: a.com en b.com', 2],
    ['Zie https://www.a.nl/, A.nl en http://a.nl', 1],
    ['a.nl/prijzen en a.nl/contact', 2],
  ])('%j holds %i', (text, count) => {
    expect(linksIn(text)).toBe(count);
  });

  it.each([
    'mail me: jan@bedrijf.nl',
    'Jan.Jansen@bedrijf.co.uk',
    'Ik ben Jan. Groet, Piet',
    'Versie 2.0 is klaar. Zie bijlage',
    'e.g. dit',
    'bedrag 1.500,00 euro',
    'U.S.A. en t.a.v. meneer',
    'De B.V. is opgericht per 1.1.2026',
    'bijlage: jaarrekening.pdf en begroting.xlsx',
    'Ik bel u om 10.30 uur.',
  ])('%j holds none', (text) => {
    expect(linksIn(text)).toBe(0);
  });

  it('tells addresses apart by host, port, path and query, and keeps one no URL can be as typed', () => {
    expect(webAddressesIn('a.nl a.nl:8080 a.nl/x a.nl/x/ a.nl/?q=1 b.nl WWW.A.NL/X').map(({ address }) => address)).toEqual([
      'a.nl',
      'a.nl:8080',
      'a.nl/x',
      'a.nl?q=1',
      'b.nl',
      // A path's case is its own: another page.
      'a.nl/X',
    ]);
    expect(webAddressesIn('http://A.nl:99999/x en http://a.nl:99999/x')).toEqual([{ address: 'http://a.nl:99999/x', explicit: true }]);
    expect(asRead('evil｡com')).toBe('evil.com');
  });

  it('knows which addresses were written out, not just a name with a dot', () => {
    expect(webAddressesIn('Booking.com en https://www.a.nl')).toEqual([
      { address: 'booking.com', explicit: false },
      { address: 'a.nl', explicit: true },
    ]);
    expect(webAddressesIn('www.a.nl, later a.nl')).toEqual([{ address: 'a.nl', explicit: true }]);
    expect(webAddressesIn('a.nl, later https://a.nl')).toEqual([{ address: 'a.nl', explicit: true }]);
    expect(webAddressesIn('ftp://a.nl/x')).toEqual([{ address: 'a.nl/x', explicit: true }]);
  });

  it('reads the text as it shows: NFKC, no invisible characters, the obfuscations undone', () => {
    expect(asRead('ｈｘｘｐｓ[:]//ev\u00ADil (dot) nl')).toBe('https://evil.nl');
    expect(asRead('Dat klopt (.) niet helemaal')).toBe('Dat klopt.niet helemaal');
    expect(asRead('hxxp zonder dubbele punt')).toBe('hxxp zonder dubbele punt');
  });
});

describe('the link signals', () => {
  it('scores a visitor’s own site as one link, and two or more as many', () => {
    expect(signalsOf(message('Zie https://www.mijnbedrijf.com voor wie we zijn.'))).toEqual(['linkInMessage']);
    expect(signalsOf(message('Kijk op evil.nl en bit.ly/abc'))).toEqual(['manyLinks']);
    expect(signalsOf(message('hxxps://evil[.]com, ｗｗｗ．evil．nl'))).toEqual(['manyLinks']);
  });

  it('does not take an e-mail address for a link', () => {
    expect(signalsOf(message('U kunt mij mailen op jan@mijnbedrijf.nl.'))).toEqual([]);
  });

  it('flags a link or an @ in the name, a written-out link or an @ in the company, but not a company named after its domain', () => {
    expect(signalsOf(message('Hallo', { name: 'evil.nl' }))).toEqual(['linkInName']);
    expect(signalsOf(message('Hallo', { name: 'Jan＠evil' }))).toEqual(['linkInName']);
    expect(signalsOf(message('Hallo', { company: 'https://evil.nl' }))).toEqual(['linkInName']);
    expect(signalsOf(message('Hallo', { company: 'ｗｗｗ．evil．nl' }))).toEqual(['linkInName']);
    expect(signalsOf(message('Hallo', { company: 'sales＠evil.nl' }))).toEqual(['linkInName']);
    expect(signalsOf(message('Hallo', { company: 'Booking.com' }))).toEqual([]);
  });
});

describe('links shown to the firm', () => {
  it('defangs every web address so that no linkifier finds it, and leaves the rest as typed', () => {
    const typed = 'Zie https://www.evil.nl/aanbod?x=1 en bit.ly/abc, of mail jan@bedrijf.nl. Groet, Jan.';
    const shown = defanged(typed);
    expect(shown).toBe('Zie hxxps://www[.]evil[.]nl/aanbod?x=1 en bit[.]ly/abc, of mail jan@bedrijf.nl. Groet, Jan.');
    expect(find(shown, 'url')).toEqual([]);
  });

  it('defangs a scheme in capitals too', () => {
    expect(defanged('HTTP://A.NL')).toBe('hxxp://A[.]NL');
  });
});
