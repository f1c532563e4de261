/**
 * How a message is judged when many arrive: signals of our own, each with a weight, summed
 * into a score stored with the message. No signal refuses a message: a suspect one (score at
 * or above SUSPECT_SCORE) is stored and held for the digest instead of e-mailed on its own,
 * and so is any message past the hour's or the day's mail budget (mail budget: the
 * deploy's settings). Nothing here sends the visitor or their words to anyone: the stamp is
 * solved in the visitor's browser against our own API, the fingerprint is a keyed hash.
 */

/** Each signal: its weight in the score, and what it means, for the operator's commands and the firm's digest. */
export const SPAM_SIGNALS = {
  /** No stamp: a post without the page's script (no JavaScript, or not a browser). A person without scripts stays under SUSPECT_SCORE. */
  noStamp: { weight: 2, meaning: 'sent without the page’s script (no proof-of-work stamp)' },
  /** A stamp that fails verification, has expired, or was used before. */
  badStamp: { weight: 3, meaning: 'a proof-of-work stamp that was forged, expired or used before' },
  /** Sent within FAST_FILL_SECONDS of the form's first use (the stamp's challenge). */
  fastFill: { weight: 3, meaning: 'sent faster than a person fills in the form' },
  /** A web address, or an @, in the name or the company. */
  linkInName: { weight: 3, meaning: 'a web address or an @ in the name or company' },
  /** One web address in the message: a visitor's own site is no reason to hold a message. */
  linkInMessage: { weight: 1, meaning: 'a web address in the message' },
  /** MANY_LINKS or more distinct web addresses in the message: a contact message rarely needs a second. */
  manyLinks: { weight: 3, meaning: 'two or more web addresses in the message' },
  /**
   * The same text from REPEATED_IN or more addresses (IPv4, or IPv6 /64) within a day. One
   * visitor sending a text again is not a wave: their own limit is the per-visitor limit.
   */
  repeatedText: { weight: 3, meaning: 'the same text from several addresses today' },
  /** The hidden field people never see was filled. */
  honeypot: { weight: 5, meaning: 'the hidden field that only bots fill' },
} as const satisfies Record<string, { weight: number; meaning: string }>;

export type SpamSignal = keyof typeof SPAM_SIGNALS;
export const SPAM_SIGNAL_NAMES = Object.keys(SPAM_SIGNALS) as SpamSignal[];

/** From this score on a message is suspect: held for the digest, never e-mailed on its own. */
export const SUSPECT_SCORE = 3;

/** Faster than this from the form's first use to the send is no person typing. */
export const FAST_FILL_SECONDS = 5;

/** Distinct web addresses in a message from which it counts as many (lambda/src/shared/links.ts counts them). */
export const MANY_LINKS = 2;

/** Addresses sending the same text within a day from which it is a repeated text. */
export const REPEATED_IN = 3;

/** Why a message was held rather than e-mailed on its own. */
export const HELD_FOR = ['suspect', 'budget'] as const;
export type HeldFor = (typeof HELD_FOR)[number];

/** The score of a set of signals. */
export function scoreOf(signals: readonly SpamSignal[]): number {
  return signals.reduce((sum, signal) => sum + SPAM_SIGNALS[signal].weight, 0);
}

/**
 * The proof-of-work the page's script does (altcha-lib, deterministic mode): the server picks
 * a counter at random up to `maxCounter`, and the browser derives keys (`cost` rounds of
 * SHA-256 each) from 0 up until it finds it. So a solve takes between nothing and
 * `maxCounter` derivations, evenly spread; the bench measures it on a phone's CPU (Chromium
 * slowed 4×): median at most 1.5 s, p95 at most 3 s. The challenge expires after
 * `expiresSeconds`, and each one is accepted once.
 */
export const STAMP_DIFFICULTY = {
  algorithm: 'SHA-256',
  cost: 1,
  maxCounter: 20_000,
  expiresSeconds: 15 * 60,
} as const;

/**
 * How many whole UTC days after the day it counts a per-day item of the spam defence lives: a
 * text's near-copy bands and a network's e-mails counted by the mail budget. The privacy
 * statement says its lifetime from this ("tot het einde van de volgende dag"). Typed `number`, so
 * the statement's wording for another value is checked too.
 */
export const DAY_ITEMS_KEPT_DAYS_AFTER: number = 1;

/** The digest of held messages comes at most once in this many minutes; the privacy statement says "elk uur" from this. */
export const DIGEST_INTERVAL_MINUTES: number = 60;
