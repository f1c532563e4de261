/**
 * Text as a reader reads it. The build keeps the last words of headings and short texts
 * together with a no-break space (src/typography.ts), which a reader and a screen reader
 * take for a space; a test that names a text compares it so too.
 */

/** The text with every space, plain or no-break, as a plain one. */
export const asRead = (text: string | null | undefined): string => (text ?? '').replace(/\s/g, ' ');

/** A role's name exactly as `text`, whichever kind of space the page set between its words. */
export const named = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}$`);
