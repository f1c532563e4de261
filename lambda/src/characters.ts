/**
 * Characters that make visitor text unsafe where it goes: one definition for validation,
 * the e-mail subject, and every test that checks either.
 */
/* eslint-disable no-control-regex -- these patterns exist to find control characters */

/** C0 and C1 control characters and the Unicode line separators: they would break a one-line field or a mail header. */
export const LINE_BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/** In a message, line breaks are content; the other control characters are invisible noise. */
export const MESSAGE_NOISE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Every spelling of a line break in a message, to be written as \n. */
export const MESSAGE_LINE_BREAK = /\r\n?|\u2028|\u2029/g;

/** Half a surrogate pair has no UTF-8 form, so DynamoDB and SES would refuse the text. */
export const LONE_SURROGATE = /\p{Cs}/u;

/** True when the text holds anything LINE_BREAKING matches. */
export function hasLineBreaking(text: string): boolean {
  return new RegExp(LINE_BREAKING.source).test(text);
}
