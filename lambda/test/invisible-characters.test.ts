/**
 * Invisible characters (characters.ts has the rule for each field kind and destination): a
 * required field of only them is empty; none of them reaches the subject or a header; the
 * ones that reorder text are never stored, so the firm reads what was typed in the order it
 * was typed; the ones genuine text needs (joiners in emoji and scripts, direction marks in
 * Hebrew and Arabic) stay in the stored text and the e-mail's bodies.
 */
import { decodeWords } from 'postal-mime';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { hasInvisible, hasUnneededInvisible, INVISIBLE, isBlank, MEANINGFUL_INVISIBLE } from '../src/shared/characters';
import { buildNotification, mailRoute } from '../src/mail/mail';
import { subjectFor } from '../src/mail/notification';
import { validateContactMessage } from '../src/contact/schema';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const ZERO_WIDTH = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'];
const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F'];
const TAGS = ['\u{E0001}', '\u{E0041}', '\u{E007F}'];
/** Letters and format characters that draw nothing: the braille blank, the Hangul fillers, the interlinear annotation characters. */
const BLANK_LOOKALIKES = ['\u2800', '\u3164', '\uFFA0', '\u115F', '\u1160', '\uFFF9', '\uFFFA', '\uFFFB'];
/** Format characters that are not default-ignorable: the remaining direction and format marks. */
const OTHER_FORMAT = ['\u{13430}', '\u{1BCA0}', '\u{1D173}', '\u180E', '\u2064'];
const EVERY_INVISIBLE = [...ZERO_WIDTH, ...BIDI_CONTROLS, ...TAGS, ...BLANK_LOOKALIKES, ...OTHER_FORMAT, '\u00AD', '\uFE0F', '\u061C'];
/** Format characters that draw a sign over the digits after them (prepended concatenation marks): genuine text. */
const SHOWING = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0x110bd, 0x110cd];
/** Spaces: trimmed at the ends, kept between words; a field of only these is empty as well. */
const SPACES = ['\u00A0', '\u2000', '\u2005', '\u200A', '\u202F', '\u205F', '\u3000', '\u1680'];
/** The ones that can reorder what is shown: embeddings, overrides, isolates. */
const REORDERING = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

/** A family emoji (joined by ZWJ), a Persian word with a ZWNJ, Hebrew with a right-to-left mark. */
const GENUINE = ['👩\u200D👩\u200D👧', 'می\u200Cخواهم', 'שלום\u200F (עברית)'];

function valid(body: unknown) {
  const result = validateContactMessage(body);
  if (!result.ok) throw new Error(`expected a valid message: ${JSON.stringify(result.fields)}`);
  return result.value;
}

describe('the rule', () => {
  it('knows every character the issue names as invisible, and keeps apart the ones genuine text needs', () => {
    for (const character of EVERY_INVISIBLE) expect(hasInvisible(character), escape(character)).toBe(true);
    for (const character of ['\u200C', '\u200D', '\u200E', '\u200F', '\u061C', '\uFE0F', '\u00AD']) {
      expect(MEANINGFUL_INVISIBLE.test(character), escape(character)).toBe(true);
    }
    for (const character of [...REORDERING, '\u200B', '\u2060', '\uFEFF', ...TAGS, ...BLANK_LOOKALIKES, ...OTHER_FORMAT]) {
      expect(hasUnneededInvisible(character), escape(character)).toBe(true);
    }
    expect(isBlank(` ${EVERY_INVISIBLE.join('')}\t`)).toBe(true);
    expect(isBlank(`${SPACES.join('')}\u2800\u3164`)).toBe(true);
    expect(isBlank('\u200BJ')).toBe(false);
  });

  it('takes in every format character but the ones that draw a sign of their own, and no space', () => {
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (/\p{Cf}/u.test(character)) expect(hasInvisible(character), escape(character)).toBe(!SHOWING.includes(code));
      if (/\p{White_Space}/u.test(character)) expect(hasInvisible(character), escape(character)).toBe(false);
    }
    // The prepended concatenation marks: an Arabic number sign is drawn over the digits after it.
    for (const code of SHOWING) expect(hasInvisible(String.fromCodePoint(code))).toBe(false);
  });
});

describe('validation', () => {
  it.each(['name', 'email', 'message'] as const)('finds %s empty when it holds nothing but invisible characters', (field) => {
    for (const value of [
      ...EVERY_INVISIBLE,
      ZERO_WIDTH.join(''),
      ` ${'\u200B'.repeat(50)} `,
      '\u202E\u202C',
      // The issue's: a braille blank as a message, a Hangul filler as a name (alone, and beside a blank it did not know).
      '\u2800\u2800\u2800',
      '\u3164',
      '\u3164\u2800',
      '\u3164\uFFFA\u3164',
      `${SPACES.join('')}\u2800`,
    ]) {
      const result = validateContactMessage({ ...VALID_BODY, [field]: value });
      expect(result, `${field}: ${escape(value)}`).toEqual({ ok: false, fields: { [field]: CONTACT_FIELDS[field].absent } });
    }
  });

  it('leaves an optional field of only invisible characters out, as not given', () => {
    const value = valid({ ...VALID_BODY, company: '\u200B\u200D', phone: '\u202A\u202C' });
    expect(value).not.toHaveProperty('company');
    expect(value).not.toHaveProperty('phone');
  });

  it('stores text without the characters that reorder it, in the order typed', () => {
    expect(valid({ ...VALID_BODY, name: 'Jan \u202Egnp.exe\u202C Test' }).name).toBe('Jan gnp.exe Test');
    expect(valid({ ...VALID_BODY, company: '\u2067Firma\u2069 \u202BB.V.\u202C' }).company).toBe('Firma B.V.');
    expect(valid({ ...VALID_BODY, message: 'Regel\u200B 1\n\u2066Regel 2\u2069\u{E0041}\u{E0042}' }).message).toBe('Regel 1\nRegel 2');
  });

  it('keeps the joiners and direction marks genuine names and messages need', () => {
    for (const text of GENUINE) {
      expect(valid({ ...VALID_BODY, name: text }).name).toBe(text);
      expect(valid({ ...VALID_BODY, message: text }).message).toBe(text);
    }
  });

  it('keeps none at all in an address or a phone number (copied numbers often come wrapped in direction marks)', () => {
    const value = valid({ ...VALID_BODY, email: '\u200Bjan@voorbeeld.nl\uFEFF', phone: '\u202A+31 55 123 4567\u202C' });
    expect(value.email).toBe('jan@voorbeeld.nl');
    expect(value.phone).toBe('+31 55 123 4567');
    // Anywhere in it: what is left is what could be seen, the address the visitor meant.
    expect(valid({ ...VALID_BODY, email: 'jan@voor\u200Cbeeld.nl' }).email).toBe('jan@voorbeeld.nl');
  });
});

describe('the subject and headers', () => {
  it('hold no invisible character, whatever the stored text holds', () => {
    for (const name of [...GENUINE, `Jan ${EVERY_INVISIBLE.join('')} de Vries`]) {
      const subject = subjectFor(name, `Firma${EVERY_INVISIBLE.join('')}`);
      expect(hasInvisible(subject), escape(subject)).toBe(false);
    }
    expect(subjectFor('Jan \u202Egnp.exe\u202C Test')).toBe('Nieuw contactbericht van Jan gnp.exe Test');
  });

  it('hold none for a message stored before the rule existed (the retry job sends those too)', () => {
    const stored = {
      ...VALID_BODY,
      name: 'Jan \u202Egnp.exe\u202C Test',
      email: 'jan@voorbeeld.nl',
      id: '01JD0000000000000000000000',
      receivedAt: '2026-11-23T07:42:20.340Z',
      expiresAt: Date.parse('2027-11-23T07:42:20.340Z') / 1000,
      attempts: 0,
    };
    const mail = buildNotification(
      stored,
      mailRoute({ mailFrom: 'website@firma.example', mailTo: ['info@firma.example'], configurationSet: 'consultancy-site-test' }),
    );
    const headers = [mail.Message!.Subject!.Data!, ...mail.ReplyToAddresses!];
    for (const header of headers) expect(hasInvisible(header), escape(header)).toBe(false);
    for (const body of [mail.Message!.Body!.Text!.Data!, mail.Message!.Body!.Html!.Data!]) {
      for (const character of REORDERING) expect(body).not.toContain(character);
      expect(body).toContain('Jan gnp.exe Test');
    }
  });
});

describe('through the handler, stored and e-mailed', () => {
  const stack = useContactStack();
  beforeEach(() => stack.aws.clearEmails());

  const send = async (body: Record<string, string>) => answer(await stack.handler(contactEvent({ body })));

  it('answers a name of zero-width spaces with the field error, and keeps nothing', async () => {
    const before = (await stack.aws.messages()).length;
    const response = await send({ ...VALID_BODY, name: '\u200B\u200B\u200B' });
    expect(response.statusCode).toBe(400);
    expect(response.json.fields).toEqual({ name: CONTACT_FIELDS.name.absent });
    expect(await stack.aws.messages()).toHaveLength(before);
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it('answers a message of braille blanks and a name of Hangul fillers with both fields named, and keeps nothing', async () => {
    const before = (await stack.aws.items()).length;
    const response = await send({ ...VALID_BODY, name: '\u3164\u3164', message: '\u2800\n\u2800\uFFF9' });
    expect(response.statusCode).toBe(400);
    expect(response.json.fields).toEqual({ name: CONTACT_FIELDS.name.absent, message: CONTACT_FIELDS.message.absent });
    expect(await stack.aws.items()).toHaveLength(before);
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it('e-mails the firm what was typed, in the order typed: no override in the subject, the table or either body', async () => {
    const response = await send({ ...VALID_BODY, name: 'Jan \u202Egnp.exe\u202C Test', company: '\u2066Firma\u2069' });
    expect(response.statusCode).toBe(200);
    expect(await stack.aws.message(response.json.id!)).toMatchObject({ name: 'Jan gnp.exe Test', company: 'Firma' });
    const [email] = await stack.aws.sentEmails();
    expect(email!.subject).toBe('Nieuw contactbericht van Jan gnp.exe Test (Firma)');
    for (const part of [email!.subject, email!.body.text!, email!.body.html!]) {
      for (const character of REORDERING) expect(part).not.toContain(character);
    }
  });

  it('keeps a joined emoji and a Hebrew name whole in the bodies, and only their visible characters in the subject', async () => {
    const response = await send({ ...VALID_BODY, name: 'שלום\u200F', message: `Groeten van ons ${GENUINE[0]!}` });
    expect(response.statusCode).toBe(200);
    const [email] = await stack.aws.sentEmails();
    // Not plain ASCII: the subject goes as encoded words (mail-header.ts), read back as a mail client does.
    expect(decodeWords(email!.subject)).toBe(`Nieuw contactbericht van שלום (${VALID_BODY.company})`);
    expect(email!.body.text).toContain('Naam: שלום\u200F');
    expect(email!.body.text).toContain(`Groeten van ons ${GENUINE[0]!}`);
    expect(email!.body.html).toContain(GENUINE[0]);
  });
});

/** A character or text with its invisible characters written as \u escapes, for a readable failure. */
function escape(text: string): string {
  return text.replace(INVISIBLE, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}
