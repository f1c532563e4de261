/**
 * The build's part of typography: no heading, card title or short text ends with one word
 * alone on its last line, whatever the firm writes. CSS balances headings and keeps running
 * text's last line full where the browser can (text-wrap: balance, pretty; base.css); where
 * it cannot (text-wrap: pretty is Chromium's only), a no-break space between the last two
 * words does it. Components apply this where they render content, so authors write plain text.
 */

/**
 * The longest pair of words kept together, in characters, by where the text is set: what
 * the narrowest line holds on the narrowest phone (320 px) for a section's or page's title in
 * its large type, a card's or panel's heading, a text in a card or column, and running text
 * across the page (the privacy statement). A longer pair would stick out of
 * that line; its last word is then long enough not to read as left over on a phone, and on
 * wider screens headings balance their lines (text-wrap: balance, in every current browser).
 */
export const MAX_JOINED = { title: 16, heading: 19, text: 25, prose: 30 } as const;

const NO_BREAK_SPACE = '\u00a0';

/** `text` with its last two words joined by a no-break space, so they wrap as one; `kind` is where it is set. */
export function joinLastWords(text: string, kind: keyof typeof MAX_JOINED = 'text'): string {
  const last = /(\S+) +(\S+)\s*$/.exec(text);
  if (last === null || last[1]!.length + 1 + last[2]!.length > MAX_JOINED[kind]) return text;
  return `${text.slice(0, last.index)}${last[1]}${NO_BREAK_SPACE}${last[2]}`;
}
