/**
 * The firm's promise to a visitor whose message was sent: when they hear back. The site shows
 * it once the message is sent (with and without scripts); the firm's e-mail repeats it, so the
 * office reads what the visitor was promised.
 */
export const REPLY_PROMISE = 'U hoort binnen één werkdag van ons.';

/**
 * How every text that offers the phone says it, followed by the number as a link: the site,
 * its result pages, the function's answer pages and the page of held messages. One wording,
 * so a visitor meets the same sentence wherever the form could not (or did) send.
 */
export const CALL_US = 'Liever direct contact? Bel ons op';
