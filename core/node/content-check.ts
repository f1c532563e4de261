/**
 * The check of the firm's facts in the content, run by the site's build (and the dev
 * server) and by every synth: one valibot schema per content file, and one message that
 * lists every problem, each with the file, the key, what is wrong and how to write it, in
 * words an office manager can act on. What passes, the site shows and links right
 * (notation.ts derives the links from what this lets through).
 */
import { parsePhoneNumberWithError, type NumberType } from 'libphonenumber-js/max';
import * as v from 'valibot';

const quoted = (value: unknown) => `'${String(value)}'`;

const PHONE_EXAMPLES = "like '055 123 45 67', '06 12345678' or '+31 55 123 45 67'";

/** Digits, the usual separators, brackets around an area code or the (0), and a leading +. */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

/** Service codes with 4 or 7 digits after them: 0800 (free to call) and 0900 (information, paid). */
const SERVICE_NUMBER = /^(800|900)/;

/** Number ranges no visitor can or should call the firm on, each with the reason in plain words. */
const NOT_FOR_CALLS: [RegExp, string][] = [
  [/^90[69]/, '0906 and 0909 numbers are for adult and entertainment lines'],
  [/^66/, '066 numbers are for pagers'],
  [/^97/, '097 numbers are for machines (data SIMs), not for calls'],
  [/^82/, '082 numbers only work inside a company network'],
];

/** The types of number a visitor can call: landlines, mobiles, 085/091, 088 and 084/087, 0800 and 0900. */
const CALLABLE: readonly NumberType[] = [
  'FIXED_LINE',
  'MOBILE',
  'FIXED_LINE_OR_MOBILE',
  'VOIP',
  'UAN',
  'PERSONAL_NUMBER',
  'TOLL_FREE',
  'PREMIUM_RATE',
];

/**
 * The number after the country code or the trunk 0 (the national significant number), or
 * why there is none: a foreign number, or one that starts with neither 0 nor +31.
 */
function nationalNumber(written: string): { digits: string } | { problem: string } {
  const digits = written.replace(/\(0\)/g, '').replace(/[^\d+]/g, '');
  const international = /^(?:\+|00)(\d*)$/.exec(digits)?.[1];
  if (international !== undefined) {
    if (international.startsWith('31')) return { digits: international.slice(2) };
    return {
      problem: `${quoted(written)} is not a Dutch number (it does not start with +31 or 0031); write the firm's Dutch number, ${PHONE_EXAMPLES}.`,
    };
  }
  if (digits.startsWith('0')) return { digits: digits.slice(1) };
  return { problem: `${quoted(written)} does not start with 0 or +31: write the whole number with its area code, ${PHONE_EXAMPLES}.` };
}

/**
 * Why `written` is not a Dutch number visitors can call, or undefined when it is one.
 * National ('055 123 45 67', '055-1234567', '06 12345678') and international notation
 * ('+31 55 123 45 67', '0031 55 …', '+31 (0)55 …') are both right. Geographic, mobile and
 * other personal numbers have 9 digits after the 0; 0800 and 0900 numbers 4 or 7 after the code.
 */
export function phoneProblem(written: string): string | undefined {
  if (!PHONE_CHARACTERS.test(written.trim())) {
    return `${quoted(written)} holds more than a phone number: write only its digits, with spaces or dashes between them if you like, ${PHONE_EXAMPLES}.`;
  }
  const national = nationalNumber(written);
  if ('problem' in national) return national.problem;
  const { digits } = national;
  if (digits.startsWith('0')) {
    return `${quoted(written)} has a 0 after +31: leave it out ('+31 55 123 45 67') or put it in brackets ('+31 (0)55 123 45 67').`;
  }
  const refused = NOT_FOR_CALLS.find(([prefix]) => prefix.test(digits));
  if (refused)
    return `${quoted(written)} cannot be the firm's phone number: ${refused[1]}. Write the number visitors call, ${PHONE_EXAMPLES}.`;
  if (SERVICE_NUMBER.test(digits)) {
    const after = digits.length - 3;
    if (after !== 4 && after !== 7) {
      return `${quoted(written)} has ${after} digits after 0${digits.slice(0, 3)}; a 0800 or 0900 number has 4 or 7 there, like '0800 1234' or '0800 123 45 67'.`;
    }
  } else if (digits.length !== 9) {
    return (
      `${quoted(written)} has ${digits.length + 1} digits; a Dutch phone number has 10 (the 0 and 9 more; after +31, 9), ` +
      `${PHONE_EXAMPLES}. Check for a digit too many or too few.`
    );
  }
  const number = parsePhoneNumberWithError(written, 'NL');
  if (!number.isValid()) {
    return `${quoted(written)} is not a Dutch number in use: no area code or service starts so. Check the first digits, ${PHONE_EXAMPLES}.`;
  }
  const type = number.getType();
  if (type === undefined || !CALLABLE.includes(type)) {
    return `${quoted(written)} is not a number visitors can call. Write the firm's landline, mobile or business number, ${PHONE_EXAMPLES}.`;
  }
  return undefined;
}

/** Why `code` is not a Dutch postal code, or undefined. '1234 AB' and '1234AB' (any case) are both right. */
export function postalCodeProblem(code: string): string | undefined {
  const how = "write four digits and two letters, like '1234 AB'";
  const match = /^(\d{4}) ?([A-Za-z]{2})$/.exec(code.trim());
  if (!match) return `${quoted(code)} is not a Dutch postal code: ${how}.`;
  if (match[1]!.startsWith('0')) return `${quoted(code)} starts with 0, and Dutch postal codes start at 1000: ${how}.`;
  if (['SA', 'SD', 'SS'].includes(match[2]!.toUpperCase())) {
    return `${quoted(code)} ends in ${match[2]!.toUpperCase()}, letters PostNL does not use in postal codes: check the code.`;
  }
  return undefined;
}

/** Why `origin` is not the site's public address (https, a domain, nothing after it), or undefined. */
export function siteOriginProblem(origin: string): string | undefined {
  const how = "write https:// and the domain, with nothing after it, like 'https://www.jansen-advies.nl'";
  if (!URL.canParse(origin)) return `${quoted(origin)} is not a web address: ${how}.`;
  const url = new URL(origin);
  if (url.protocol !== 'https:') return `${quoted(origin)} does not start with https:// (the site is only served over https): ${how}.`;
  if (url.origin !== origin || url.port !== '')
    return `${quoted(origin)} has more than https:// and the domain (a path, a / at the end, a port): ${how}.`;
  return undefined;
}

/** A string that passes `problem` (a function of the value that says what is wrong, or nothing). */
function fact(problem: (value: string) => string | undefined) {
  return v.pipe(
    v.string((issue) => `${quoted(issue.input)} is not text: write it between quotes.`),
    v.rawCheck(({ dataset, addIssue }) => {
      const found = dataset.typed ? problem(dataset.value) : undefined;
      if (found !== undefined) addIssue({ message: found });
    }),
  );
}

const line = (what: string) =>
  fact((value) => {
    if (value.trim() === '') return `is empty: write ${what}.`;
    if (/[\r\n]/.test(value)) return `${quoted(value)} runs over more than one line: write ${what} on one line.`;
    return undefined;
  });

const pattern = (rule: RegExp, how: string) => fact((value) => (rule.test(value) ? undefined : `${quoted(value)} ${how}.`));

const emailAddress = fact((value) =>
  v.is(v.pipe(v.string(), v.email()), value) ? undefined : `${quoted(value)} is not an e-mail address: write it as name@domain.nl.`,
);

const DUTCH_MONTHS = [
  'januari',
  'februari',
  'maart',
  'april',
  'mei',
  'juni',
  'juli',
  'augustus',
  'september',
  'oktober',
  'november',
  'december',
];

/** A date as the page shows it, in Dutch: '3 maart 2026'. */
const dutchDate = fact((value) => {
  const match = /^(\d{1,2}) ([a-z]+) (\d{4})$/.exec(value);
  const month = match ? DUTCH_MONTHS.indexOf(match[2]!) : -1;
  const date = match && new Date(Date.UTC(Number(match[3]), month, Number(match[1])));
  if (!date || month < 0 || date.getUTCDate() !== Number(match[1])) {
    return `${quoted(value)} is not a date: write the day, the month in Dutch and the year, like '3 maart 2026'.`;
  }
  return undefined;
});

/** The facts of core/src/content/firm.ts. */
export const FIRM_FACTS = v.object({
  SITE_ORIGIN: fact(siteOriginProblem),
  firm: v.object({
    name: line("the firm's trading name"),
    legalName: line("the firm's name as the KvK registers it, like 'Jansen Advies B.V.'"),
    kvk: pattern(/^\d{8}$/, "is not a KvK number: write its eight digits without spaces, like '87654321'"),
    vatId: pattern(
      /^NL\d{9}B\d{2}$/,
      "is not a Dutch btw-id: write NL, nine digits, B and two digits, without spaces or dots, like 'NL987654321B01'",
    ),
    address: v.object({
      street: line("the street and house number, like 'Stationsplein 12'"),
      postalCode: fact(postalCodeProblem),
      city: line('the city'),
      countryCode: pattern(/^NL$/, "is not NL: the site is for a firm in the Netherlands, so write 'NL'"),
    }),
    email: emailAddress,
    phone: fact(phoneProblem),
  }),
});

/** The facts of frontend/src/content/privacy.ts. */
export const PRIVACY_FACTS = v.object({
  privacyContact: v.object({
    email: emailAddress,
    lastUpdated: dutchDate,
    mailProvider: v.object({
      name: line("the name of the company that keeps the firm's mailbox, like 'Jansen ICT B.V.'"),
      location: line("where it keeps the e-mail, as it reads after 'in': 'Nederland', 'Ierland en Nederland' or 'de EER'"),
    }),
  }),
});

/** One content file's facts and the schema that checks them. */
export interface FactsOfFile {
  /** The file the firm edits, from the repository's root. */
  file: string;
  schema: v.GenericSchema;
  facts: unknown;
}

const MISSING = 'is missing: write it back, between quotes, as the comment above it says.';

/** Every problem of every file, one line each: "file, key: what is wrong and how to write it". */
export function factProblems(files: readonly FactsOfFile[]): string[] {
  return files.flatMap(({ file, schema, facts }) => {
    const result = v.safeParse(schema, facts);
    if (result.success) return [];
    return result.issues.map((issue) => {
      const key = (issue.path ?? []).map((item) => String(item.key)).join('.');
      // A key left out reaches valibot's own check of the object's keys, in its own words.
      return `${file}, ${key}: ${issue.input === undefined ? MISSING : issue.message}`;
    });
  });
}

export class FactsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Some of the firm's facts in the content are not right:\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        '\nCorrect each in the file it names, save it, and run the command again.',
    );
    this.name = 'FactsError';
  }
}

/** Throws a FactsError listing every problem, when there is any. */
export function checkFacts(files: readonly FactsOfFile[]): void {
  const problems = factProblems(files);
  if (problems.length > 0) throw new FactsError(problems);
}
