/**
 * The check of the firm's facts: every usual notation of a right fact passes, and a wrong
 * one is named by file and key with what to write instead. Every value here is invented;
 * none is the sample content, which the firm replaces.
 */
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import {
  checkFacts,
  factProblems,
  FactsError,
  FIRM_FACTS,
  phoneProblem,
  postalCodeProblem,
  PRIVACY_FACTS,
  siteOriginProblem,
} from '@site/core/node/content-check';
import { e164, postalCodeShown, telHref } from '@site/core/notation';

const FIRM_FILE = 'core/src/content/firm.ts';

/** An invented firm whose every fact is right. */
const RIGHT = {
  SITE_ORIGIN: 'https://www.jansen-advies.nl',
  firm: {
    name: 'Jansen & "Zonen" Advies – Café',
    legalName: 'Jansen & Zonen Advies B.V.',
    kvk: '87654321',
    vatId: 'NL987654321B02',
    address: { street: 'Stationsplein 12', postalCode: '8011 CW', city: 'Zwolle', countryCode: 'NL' },
    email: 'kantoor@jansen-advies.nl',
    phone: '038 421 77 90',
  },
};

const firmWith = (changes: Partial<typeof RIGHT.firm>, address: Partial<typeof RIGHT.firm.address> = {}) => ({
  ...RIGHT,
  firm: { ...RIGHT.firm, ...changes, address: { ...RIGHT.firm.address, ...address } },
});

const problemsOf = (facts: unknown) => factProblems([{ file: FIRM_FILE, schema: FIRM_FACTS, facts }]);

/** A mail provider as the privacy statement names one. */
const MAIL_PROVIDER = { name: 'Voorbeeld Mail B.V.', location: 'Nederland' };

describe('a Dutch phone number', () => {
  it.each([
    // National notation, as Dutch firms write it.
    ['038 421 77 90', '+31384217790'],
    ['038-4217790', '+31384217790'],
    ['(038) 421 77 90', '+31384217790'],
    ['038/4217790', '+31384217790'],
    ['020 794 12 34', '+31207941234'],
    ['06 41234567', '+31641234567'],
    ['06-41 23 45 67', '+31641234567'],
    ['085 303 12 34', '+31853031234'],
    ['088 771 00 00', '+31887710000'],
    // International notation.
    ['+31 38 421 77 90', '+31384217790'],
    ['+31384217790', '+31384217790'],
    ['0031 38 421 77 90', '+31384217790'],
    ['+31 (0)38 421 77 90', '+31384217790'],
    ['+31 (0) 6 41234567', '+31641234567'],
    ['0031 (0)6-41234567', '+31641234567'],
    // Free and information numbers: 4 or 7 digits after the code.
    ['0800 0432', '+318000432'],
    ['0800-123 45 67', '+318001234567'],
    ['0900 8844', '+319008844'],
    ['0900 123 4567', '+319001234567'],
  ])('%s is right, and links as %s', (written, dialled) => {
    expect(phoneProblem(written)).toBeUndefined();
    expect(e164(written)).toBe(dialled);
    expect(telHref(written)).toBe(`tel:${dialled}`);
    // What the link dials is what the numbering plan's own library makes of the number.
    expect(parsePhoneNumberWithError(written, 'NL').number).toBe(dialled);
  });

  it.each([
    ['038 421 77 9', "'038 421 77 9' has 9 digits; a Dutch phone number has 10"],
    ['038 421 77 900', "'038 421 77 900' has 11 digits; a Dutch phone number has 10"],
    ['06 4123456', "'06 4123456' has 9 digits"],
    ['+31 38 421 77 9', 'has 9 digits'],
    ['0800 12345', "'0800 12345' has 5 digits after 0800; a 0800 or 0900 number has 4 or 7 there"],
    ['0900 123456', 'has 6 digits after 0900'],
    ['+32 2 555 12 12', "'+32 2 555 12 12' is not a Dutch number (it does not start with +31 or 0031)"],
    ['0049 30 1234567', 'is not a Dutch number'],
    ['38 421 77 90', "'38 421 77 90' does not start with 0 or +31"],
    ['+31 038 421 77 90', "'+31 038 421 77 90' has a 0 after +31: leave it out"],
    ['+310641234567', 'has a 0 after +31'],
    ['038 421 77 90 (kantoor)', "'038 421 77 90 (kantoor)' holds more than a phone number"],
    ['tel. 038 421 77 90', 'holds more than a phone number'],
    ['', 'holds more than a phone number'],
    ['0906 1234567', '0906 and 0909 numbers are for adult and entertainment lines'],
    ['14 038', "'14 038' does not start with 0 or +31"],
    ['066 123 4567', '066 numbers are for pagers'],
    ['097 0123 45678', '097 numbers are for machines'],
    ['012 345 6789', "'012 345 6789' is not a Dutch number in use: no area code or service starts so"],
  ])('%s is refused: %s', (written, problem) => {
    expect(phoneProblem(written)).toContain(problem);
  });

  it('says how to write it right in every refusal', () => {
    for (const written of ['038 421 77 9', '+32 2 555 12 12', '38 421 77 90', '012 345 6789', 'tel. 038']) {
      expect(phoneProblem(written), written).toMatch(/'055 123 45 67'|'\+31 55 123 45 67'/);
    }
  });
});

describe('a postal code', () => {
  it.each([
    ['8011 CW', '8011 CW'],
    ['8011CW', '8011 CW'],
    ['8011 cw', '8011 CW'],
  ])('%s is right, and shown as %s, as PostNL writes it', (written, shown) => {
    expect(postalCodeProblem(written)).toBeUndefined();
    expect(postalCodeShown(written)).toBe(shown);
  });

  it.each([
    ['801 CW', 'is not a Dutch postal code: write four digits and two letters'],
    ['8011 C', 'is not a Dutch postal code'],
    ['8011-CW', 'is not a Dutch postal code'],
    ['0123 AB', 'starts with 0, and Dutch postal codes start at 1000'],
    ['8011 SS', 'ends in SS, letters PostNL does not use'],
  ])('%s is refused: %s', (written, problem) => {
    expect(postalCodeProblem(written)).toContain(problem);
  });
});

describe("the site's address", () => {
  it('is https and the domain, nothing after it', () => {
    expect(siteOriginProblem('https://www.jansen-advies.nl')).toBeUndefined();
    expect(siteOriginProblem('https://jansen-advies.nl')).toBeUndefined();
  });

  it.each([
    ['http://www.jansen-advies.nl', 'does not start with https://'],
    ['https://www.jansen-advies.nl/', 'has more than https:// and the domain'],
    ['https://www.jansen-advies.nl/home', 'has more than https:// and the domain'],
    ['https://www.jansen-advies.nl:8443', 'has more than https:// and the domain'],
    ['www.jansen-advies.nl', 'is not a web address'],
  ])('%s is refused: %s', (written, problem) => {
    expect(siteOriginProblem(written)).toContain(problem);
  });
});

describe('the check of a content file', () => {
  it('passes an invented firm whose facts are all right, in either notation', () => {
    expect(problemsOf(RIGHT)).toEqual([]);
    expect(problemsOf(firmWith({ phone: '+31 (0)6 41234567' }, { postalCode: '8011cw' }))).toEqual([]);
    expect(() => checkFacts([{ file: FIRM_FILE, schema: FIRM_FACTS, facts: RIGHT }])).not.toThrow();
  });

  it('names the file and the key of each problem, and says how to write it', () => {
    expect(problemsOf(firmWith({ kvk: '8765 4321' }))).toEqual([
      `${FIRM_FILE}, firm.kvk: '8765 4321' is not a KvK number: write its eight digits without spaces, like '87654321'.`,
    ]);
    expect(problemsOf(firmWith({ vatId: 'NL 9876.54.321.B02' }))).toEqual([
      `${FIRM_FILE}, firm.vatId: 'NL 9876.54.321.B02' is not a Dutch btw-id: write NL, nine digits, B and two digits, without spaces or dots, like 'NL987654321B01'.`,
    ]);
    expect(problemsOf(firmWith({ email: 'kantoor@jansen-advies' }))).toEqual([
      `${FIRM_FILE}, firm.email: 'kantoor@jansen-advies' is not an e-mail address: write it as name@domain.nl.`,
    ]);
    expect(problemsOf(firmWith({ name: ' ' }))).toEqual([`${FIRM_FILE}, firm.name: is empty: write the firm's trading name.`]);
    expect(problemsOf(firmWith({}, { postalCode: '801 CW' }))[0]).toMatch(
      /^core\/src\/content\/firm\.ts, firm\.address\.postalCode: '801 CW' /,
    );
    expect(problemsOf({ ...RIGHT, SITE_ORIGIN: 'https://www.jansen-advies.nl/' })[0]).toMatch(
      /^core\/src\/content\/firm\.ts, SITE_ORIGIN: /,
    );
  });

  it('says a key is missing, rather than that its value is wrong', () => {
    const { kvk: _, ...withoutKvk } = RIGHT.firm;
    expect(problemsOf({ ...RIGHT, firm: withoutKvk })).toEqual([
      `${FIRM_FILE}, firm.kvk: is missing: write it back, between quotes, as the comment above it says.`,
    ]);
  });

  it('lists every problem of every file in one message, and only those', () => {
    const attempt = () =>
      checkFacts([
        { file: FIRM_FILE, schema: FIRM_FACTS, facts: firmWith({ phone: '038 421 77 9', kvk: '1234567' }) },
        {
          file: 'frontend/src/content/privacy.ts',
          schema: PRIVACY_FACTS,
          facts: { privacyContact: { email: 'privacy', lastUpdated: '31 februari 2026', mailProvider: MAIL_PROVIDER } },
        },
      ]);
    expect(attempt).toThrow(FactsError);
    let message = '';
    try {
      attempt();
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n').filter((line) => line.startsWith('  - '));
    expect(lines).toEqual([
      expect.stringMatching(/^ {2}- core\/src\/content\/firm\.ts, firm\.kvk: '1234567' is not a KvK number/),
      expect.stringMatching(/^ {2}- core\/src\/content\/firm\.ts, firm\.phone: '038 421 77 9' has 9 digits/),
      expect.stringMatching(/^ {2}- frontend\/src\/content\/privacy\.ts, privacyContact\.email: 'privacy' is not an e-mail address/),
      expect.stringMatching(/^ {2}- frontend\/src\/content\/privacy\.ts, privacyContact\.lastUpdated: '31 februari 2026' is not a date/),
    ]);
    expect(message).toMatch(/Correct each in the file it names/);
  });

  it('takes a privacy statement date in Dutch', () => {
    const dated = (lastUpdated: string) =>
      factProblems([
        {
          file: 'p.ts',
          schema: PRIVACY_FACTS,
          facts: { privacyContact: { email: 'privacy@jansen-advies.nl', lastUpdated, mailProvider: MAIL_PROVIDER } },
        },
      ]);
    expect(dated('3 maart 2026')).toEqual([]);
    expect(dated('29 februari 2028')).toEqual([]);
    expect(dated('2026-03-03')).toEqual([expect.stringContaining("like '3 maart 2026'")]);
    expect(dated('3 March 2026')).toEqual([expect.stringContaining('is not a date')]);
  });
});
