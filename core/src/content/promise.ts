/**
 * The firm's promise to a visitor whose message was sent: when they hear back. The site shows
 * it once the message is sent (with and without scripts); the firm's e-mail repeats it, so the
 * office reads what the visitor was promised.
 */
export const REPLY_PROMISE = 'U hoort binnen één werkdag van ons.';
