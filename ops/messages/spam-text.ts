/**
 * How list and show give a message's spam score: the score, its signals (by name in the
 * list, with what each means in show, from SPAM_SIGNALS), why a held message was held, its
 * fingerprint and when a digest counted it. Messages stored before scoring show nothing. No I/O.
 */
import { SPAM_SIGNALS, SUSPECT_SCORE, type SpamSignal } from '@site/core/spam';
import type { StoredMessage } from '@site/core/table';

/** Fingerprints as wave shows them and purge takes them: long enough that two texts in one period never share one. */
export const SHORT_FINGERPRINT = 12;
export const shortFingerprint = (fingerprint: string) => fingerprint.slice(0, SHORT_FINGERPRINT);

/** The signals this code knows, in the order stored: a name an older or newer version wrote is shown as it is. */
const signalLine = (signal: SpamSignal) => {
  const known = SPAM_SIGNALS[signal] as (typeof SPAM_SIGNALS)[SpamSignal] | undefined;
  return known ? `${signal} (+${known.weight}): ${known.meaning}` : signal;
};

/** The status as list gives it: a held message with why. */
export const statusCell = (message: Pick<StoredMessage, 'status' | 'heldFor'>) =>
  message.status === 'held' && message.heldFor ? `held (${message.heldFor})` : message.status;

export const scoreCell = (message: Pick<StoredMessage, 'score'>) => (message.score === undefined ? '' : String(message.score));

export const signalsCell = (message: Pick<StoredMessage, 'signals'>) => (message.signals ?? []).join(',');

/** show's rows for the score, after the status. */
export const SPAM_ROWS: [label: string, value: (message: StoredMessage) => string | undefined][] = [
  [
    'held for',
    (message) => message.heldFor && (message.heldFor === 'budget' ? 'budget (the mail budget was spent)' : 'suspect (its score)'),
  ],
  [
    'score',
    (message) =>
      message.score === undefined
        ? undefined
        : `${message.score} (${message.score >= SUSPECT_SCORE ? 'suspect' : 'clean'}; suspect from ${SUSPECT_SCORE})`,
  ],
  ['signals', (message) => (message.signals === undefined ? undefined : message.signals.map(signalLine).join('\n') || 'none')],
  [
    'fingerprint',
    (message) => message.fingerprint && `${message.fingerprint} (wave and purge take ${shortFingerprint(message.fingerprint)})`,
  ],
];
