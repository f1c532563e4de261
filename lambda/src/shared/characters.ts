/**
 * Characters that make visitor text unsafe or misleading where it goes: one definition for
 * validation, the firm's e-mail, the logs, `npm run messages`, and every test that checks them.
 *
 * Invisible characters are handled by one rule, per field kind and per destination. They are
 * what shows nothing, or changes how the text around it shows, without being a space:
 * Unicode's Default_Ignorable_Code_Point (zero-width spaces and joiners, direction marks,
 * embeddings, overrides and isolates, tag characters, the Hangul fillers U+115F, U+1160,
 * U+3164 and U+FFA0, variation selectors, the soft hyphen); every other format character
 * (General_Category Cf: the interlinear annotation characters U+FFF9–U+FFFB, the Egyptian,
 * shorthand and musical format controls), except the few that draw a sign of their own over
 * the digits after them (SHOWING_FORMAT); and the braille blank U+2800, a letter that draws
 * nothing. Spaces (White_Space: U+0020, U+00A0, U+2000–U+200A, U+3000, …) are not among them:
 * they are trimmed at the ends and kept between words, so a field of only spaces and these is
 * empty too.
 *
 * | where                                  | invisible characters                                        |
 * | -------------------------------------- | ----------------------------------------------------------- |
 * | is a field filled in?                  | none of them counts: a field of only these is empty         |
 * | stored: e-mail address, phone number   | all removed (an address or a number never holds one)        |
 * | stored: one-line text, message         | removed, except MEANINGFUL_INVISIBLE                        |
 * | the e-mail's subject, and every header | all removed                                                 |
 * | the e-mail's text and HTML body        | what is stored, so the firm reads what was typed, in order  |
 * | a log line, `npm run messages`         | written as an escape, never as the character itself         |
 *
 * MEANINGFUL_INVISIBLE are the ones genuine text needs: zero-width (non-)joiners inside emoji
 * sequences and in Persian, Arabic and Indic scripts; the left-to-right, right-to-left and
 * Arabic letter marks of genuine Hebrew and Arabic text; variation selectors (emoji
 * presentation); the soft hyphen and the combining grapheme joiner; Mongolian variation
 * selectors. None of them can reorder what is shown: the embeddings, overrides and isolates
 * that can (U+202A–U+202E, U+2066–U+2069: "Jan ‮gnp.exe‬" shown as "Jan exe.png") are
 * removed, with zero-width spaces, word joiners, byte order marks, tag characters (invisible
 * text), fillers, annotation characters, the braille blank and the rest.
 *
 * Until this list took in every format character and the braille blank, a message of U+2800
 * was stored as typed, and a name of the Hangul filler U+3164 with one of them or an
 * annotation character beside it passed as filled in (U+3164 alone was already empty).
 */
/* eslint-disable no-control-regex -- these patterns exist to find control characters */
import type { FieldKind } from '@site/core/field-spec';

/** C0 and C1 control characters and the Unicode line separators: they would break a one-line field or a mail header. */
export const LINE_BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** In a message, line breaks are content; the other control characters are invisible noise. */
export const MESSAGE_NOISE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Every spelling of a line break in a message, to be written as \n. */
export const MESSAGE_LINE_BREAK = /\r\n?|\u2028|\u2029/g;

/** Half a surrogate pair has no UTF-8 form, so DynamoDB and SES would refuse the text. */
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Format characters (Cf) that draw something: the prepended concatenation marks, signs over
 * the digits after them (Arabic number signs U+0600–U+0605, end of ayah U+06DD, …). Genuine
 * text, kept like any letter.
 */
const SHOWING_FORMAT = String.raw`[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]`;

/** Every invisible character (see the top of this file), as a set in a v-flag pattern. */
const INVISIBLE_SET = String.raw`[[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]--${SHOWING_FORMAT}]`;

/** The ones genuine text needs (see the table above); none of them reorders text. */
const MEANINGFUL_SET = String.raw`[\u00AD\u034F\u061C\u180B-\u180D\u180F\u200C-\u200F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]`;

/** Every invisible character. */
export const INVISIBLE = new RegExp(INVISIBLE_SET, 'gv');

/** The invisible characters genuine text needs; none of them reorders text. */
// eslint-disable-next-line no-misleading-character-class -- sets of single code points (v flag): none is meant to combine with what comes before it in the class
export const MEANINGFUL_INVISIBLE = new RegExp(MEANINGFUL_SET, 'v');

/** The invisible characters no stored text keeps: every one but MEANINGFUL_INVISIBLE. */
// eslint-disable-next-line no-misleading-character-class -- sets of single code points (v flag): none is meant to combine with what comes before it in the class
export const UNNEEDED_INVISIBLE = new RegExp(`[${INVISIBLE_SET}--${MEANINGFUL_SET}]`, 'gv');

/** True when the text holds any invisible character. */
export function hasInvisible(text: string): boolean {
  return new RegExp(INVISIBLE_SET, 'v').test(text);
}

/** True when the text holds an invisible character no stored text keeps. */
export function hasUnneededInvisible(text: string): boolean {
  // eslint-disable-next-line no-misleading-character-class -- sets of single code points (v flag): none is meant to combine with what comes before it in the class
  return new RegExp(UNNEEDED_INVISIBLE.source, 'v').test(text);
}

/** True when the text holds anything LINE_BREAKING matches. */
export function hasLineBreaking(text: string): boolean {
  return new RegExp(LINE_BREAKING.source).test(text);
}

/** The text without any invisible character: for the subject, headers, addresses and numbers. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** The text as it is stored in a text field: the invisible characters it needs, and no others. */
export function withoutUnneededInvisible(text: string): string {
  return text.replace(UNNEEDED_INVISIBLE, '');
}

/** A field's text with the invisible characters its kind keeps, as validation stores it (the table above). */
export function invisibleAsStored(kind: FieldKind, text: string): string {
  return kind === 'email' || kind === 'phone' ? withoutInvisible(text) : withoutUnneededInvisible(text);
}

/** True when nothing in the text can be seen: only whitespace and invisible characters. */
export function isBlank(text: string): boolean {
  return withoutInvisible(text).trim() === '';
}

/**
 * Text from a request (a path, a header) made safe for a log line: every control character,
 * line separator and invisible character is written as its %XX escape (UTF-8, as in a URL),
 * so none can start a line, move a terminal's cursor or reorder what the terminal shows.
 * A literal % is escaped too, so an escape in the log always means the character itself.
 */
export function forLogLine(text: string): string {
  return text.replace(new RegExp(`[%\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]|${INVISIBLE_SET}`, 'gv'), (character) =>
    encodeURIComponent(character),
  );
}

/**
 * Stored text as a terminal may show it (`npm run messages`): every invisible character as
 * `<U+202E>`, so an operator sees what is there and nothing reorders or hides the line.
 * Control characters are the caller's (they become U+FFFD there).
 */
export function withInvisibleShown(text: string): string {
  return text.replace(INVISIBLE, (character) => `<U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}
