import { CALL_US } from './promise';
/**
 * The words of the page that answers a refused form post (a visitor without scripts): the
 * form again, with what was typed, and why it was not sent. The function renders it
 * (lambda/src/contact/refused-post-page.ts); the field labels and the per-field sentences are the
 * contact-field list's. The limit sentence is here because the site's toast says it too.
 */

/** 'over 7 minuten'; `atMost`: 'binnen 10 minuten', a wait that may be shorter (not 'uiterlijk', which reads as a deadline). */
const inMinutes = (minutes: number, atMost: boolean) => `${atMost ? 'binnen' : 'over'} ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'}`;

/**
 * When a visitor has sent too many messages (429): their own limit, not a fault, and when
 * sending works again. `minutes`: the answer's Retry-After in whole minutes, rounded up;
 * `atMost` where only the longest wait is known (a page the same for everyone).
 */
export function visitorLimitSentence(minutes: number | undefined, { atMost = false }: { atMost?: boolean } = {}): string {
  const when = minutes === undefined ? 'over enkele minuten' : inMinutes(minutes, atMost);
  return `U hebt in korte tijd het maximale aantal berichten verzonden. U kunt ${when} weer een bericht verzenden.`;
}

export const refusedPost = {
  /** The page's title and headline, whatever the reason. */
  headline: 'Uw bericht is nog niet verzonden',
  /** Under the headline: what was typed is all still there. */
  kept: 'Wat u hebt ingevuld, staat hieronder nog. Pas aan wat nodig is en verzend het opnieuw.',
  /** Why, when fields were refused; each field's own sentence is at the field. */
  refused: (count: number) => (count === 1 ? 'Eén veld is nog niet goed ingevuld:' : `Deze ${count} velden zijn nog niet goed ingevuld:`),
  /** Why, when the site could not take the message (5xx, 422): not the visitor's fault. */
  failed: 'Er is bij ons iets misgegaan; aan uw bericht ligt het niet. Probeer het over enkele minuten opnieuw.',
  /** Followed by the phone number and the e-mail address, as links. */
  direct: { call: CALL_US, mail: 'of mail naar' },
  submit: 'Opnieuw verzenden',
  home: 'Naar de homepage',
} as const;
