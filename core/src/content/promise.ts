/**
 * The firm's one promise to a visitor whose message was sent: when they hear back. The spec's
 * own success text ends with it, word for word (frontend's contactForm.messages.success), so
 * the toast, the confirmation and /bedankt say it once and nothing beside it; the firm's e-mail
 * repeats it, so the office reads what the visitor was promised.
 */
export const REPLY_PROMISE = 'We nemen zo spoedig mogelijk contact met u op.';

/**
 * How every text that offers the phone says it, followed by the number as a link: the site,
 * its result pages, the function's answer pages and the page of held messages. One wording,
 * so a visitor meets the same sentence wherever the form could not (or did) send.
 */
export const CALL_US = 'Liever direct contact? Bel ons op';
