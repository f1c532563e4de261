/**
 * Characters that make visitor text unsafe or misleading where it goes: one definition for
 * validation, the firm's e-mail, the logs, and every test that checks them.
 *
 * Invisible characters (Unicode's Default_Ignorable_Code_Point: zero-width spaces and
 * joiners, direction marks, embeddings, overrides and isolates, tag characters, fillers,
 * variation selectors, the soft hyphen) are handled by one rule, per field kind and per
 * destination:
 *
 * | where                                  | invisible characters                                        |
 * | -------------------------------------- | ----------------------------------------------------------- |
 * | is a field filled in?                  | none of them counts: a field of only these is empty         |
 * | stored: e-mail address, phone number   | all removed (an address or a number never holds one)        |
 * | stored: one-line text, message         | removed, except MEANINGFUL_INVISIBLE                        |
 * | the e-mail's subject, and every header | all removed                                                 |
 * | the e-mail's text and HTML body        | what is stored, so the firm reads what was typed, in order  |
 *
 * MEANINGFUL_INVISIBLE are the ones genuine text needs: zero-width (non-)joiners inside emoji
 * sequences and in Persian, Arabic and Indic scripts; the left-to-right, right-to-left and
 * Arabic letter marks of genuine Hebrew and Arabic text; variation selectors (emoji
 * presentation); the soft hyphen and the combining grapheme joiner; Mongolian variation
 * selectors. None of them can reorder what is shown: the embeddings, overrides and isolates
 * that can (U+202A–U+202E, U+2066–U+2069: "Jan ‮gnp.exe‬" shown as "Jan exe.png") are
 * removed, with zero-width spaces, word joiners, byte order marks, tag characters (invisible
 * text), fillers and the rest.
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

/** Every invisible character: Unicode's Default_Ignorable_Code_Point. */
export const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The invisible characters genuine text needs (see the table above); none of them reorders text. */
// eslint-disable-next-line no-misleading-character-class -- a set of single code points (u flag): none is meant to combine with what comes before it in the class
export const MEANINGFUL_INVISIBLE = /[\u00AD\u034F\u061C\u180B-\u180D\u180F\u200C-\u200F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

/** The invisible characters no stored text keeps: every one but MEANINGFUL_INVISIBLE. */
// eslint-disable-next-line no-misleading-character-class -- built from the set above: single code points, none meant to combine
export const UNNEEDED_INVISIBLE = new RegExp(`(?!${MEANINGFUL_INVISIBLE.source})${INVISIBLE.source}`, 'gu');

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
  return text.replace(/[%\u0000-\u001F\u007F-\u009F\u2028\u2029]|\p{Default_Ignorable_Code_Point}/gu, (character) =>
    encodeURIComponent(character),
  );
}
