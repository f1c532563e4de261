/**
 * The outside check: every OUTSIDE_CHECK.intervalMinutes a function of the stage does what a
 * visitor does through the stage's public address (the page, one of its hashed assets, the
 * proof-of-work challenge, a complete contact post) and counts whether it all worked. Its post
 * carries OUTSIDE_CHECK_HEADER, an HMAC over the time with a key derived from the origin
 * secret, so nobody without the secret can make one; the contact function then sends it to
 * SES's mailbox simulator instead of the firm, keeps it a day at most, and counts it apart from
 * the visitors' messages. One definition for the function, the contact function, the stack,
 * the local stack and the guides. Plain constants: no imports.
 */

/** What the check does, in order; a run stops at the first step that fails and names it. */
export const OUTSIDE_CHECK_STEPS = ['page', 'asset', 'challenge', 'post'] as const;
export type OutsideCheckStep = (typeof OUTSIDE_CHECK_STEPS)[number];

export const OUTSIDE_CHECK = {
  /** How often it runs in a stage (its EventBridge schedule); `npm start` runs it every minute. */
  intervalMinutes: 5,
  /**
   * Where the contact function sends the check's e-mail: SES's mailbox simulator, which accepts
   * it as delivered, needs no verified identity in the sandbox and counts against no reputation.
   */
  recipient: 'success@simulator.amazonses.com',
  /** How long the contact function keeps the check's post (its TTL): never longer than a day. */
  keepSeconds: 24 * 60 * 60,
  /** A marker older (or further in the future) than this is refused: a copied header is of no use for long. */
  markerSeconds: 5 * 60,
  /** Each request's wait; the four steps and the solve stay well within the function's timeout. */
  requestTimeoutSeconds: 10,
  /** The function's own limit. */
  timeoutSeconds: 60,
} as const;

/**
 * The header CloudFront passes on to the API with the check's post: `<epoch seconds>.<HMAC>`.
 * core/src/api-origin.ts lists it among the headers the origin request policy forwards.
 */
export const OUTSIDE_CHECK_HEADER = 'X-Outside-Check';

/** Where the check's function finds the site it checks (the origin secret: ORIGIN_VERIFY_ENV). */
export const OUTSIDE_CHECK_ENV = { siteUrl: 'SITE_URL' } as const;
