/**
 * The names of the environment variables the stack and the local stack give the contact
 * function: one definition for the function that reads them and for whatever sets them.
 */

/** Where the function finds the accepted origin secrets. */
export const ORIGIN_VERIFY_ENV = {
  /** What CloudFront sends. */
  current: 'ORIGIN_VERIFY',
  /** Set only during a rotation: the value the edges that have not changed over yet still send. */
  previous: 'ORIGIN_VERIFY_PREVIOUS',
} as const;

/** The visitor limit: messages per visitor per window (0 turns it off) and the window's length. */
export const VISITOR_LIMIT_ENV = {
  messages: 'VISITOR_LIMIT',
  windowSeconds: 'VISITOR_WINDOW_SECONDS',
} as const;
