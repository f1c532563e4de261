import type { HeldFor, SpamSignal } from '../spam';
import { firm } from './firm';

/**
 * The digest the firm receives instead of one e-mail per message while a wave is held back
 * (core/src/spam.ts): how many messages are waiting and why, and the best-scoring ones in
 * full, so a person caught in a wave is still read. In Dutch, as the office reads it; the
 * layout is the function's (lambda/src/spam/digest.ts).
 */
export const DIGEST_TEXT = {
  sender: `${firm.name} (website)`,
  subject: (count: number) =>
    count === 1 ? 'Websiteberichten: 1 bericht wacht op beoordeling' : `Websiteberichten: ${count} berichten wachten op beoordeling`,
  intro: (count: number, since: string) =>
    `Sinds ${since} zijn er via het contactformulier ${count === 1 ? '1 bericht' : `${count} berichten`} binnengekomen die niet ` +
    'elk apart zijn doorgestuurd: ze lijken op spam, of er kwamen in korte tijd meer berichten binnen dan de website per uur ' +
    'doorstuurt. Ze zijn allemaal bewaard.',
  /** More held messages than one digest reads: the next digest counts the rest. */
  more: 'Er wachten nog meer berichten; de volgende samenvatting telt ze mee.',
  why: 'Waarom ze zijn vastgehouden',
  heldFor: {
    suspect: 'lijkt op spam',
    budget: 'meer berichten dan per uur of per dag worden doorgestuurd',
  } satisfies Record<HeldFor, string>,
  signals: 'Kenmerken',
  signal: {
    noStamp: 'verstuurd zonder het script van de website',
    badStamp: 'ongeldige of hergebruikte controle van de website',
    fastFill: 'sneller ingevuld dan een mens typt',
    linkInName: 'een webadres of @ in de naam of bedrijfsnaam',
    linkInMessage: 'een webadres in het bericht',
    manyLinks: 'twee of meer webadressen in het bericht',
    repeatedText: 'dezelfde tekst vanaf meerdere adressen vandaag',
    honeypot: 'het verborgen veld ingevuld (alleen robots doen dat)',
  } satisfies Record<SpamSignal, string>,
  inFull: (count: number) => (count === 1 ? 'Het meest waarschijnlijk echte bericht' : `De ${count} meest waarschijnlijk echte berichten`),
  score: 'Spamscore',
  reference: 'Kenmerk',
  release:
    'Is een van deze berichten echt? Beantwoord het gewoon: beantwoorden gaat rechtstreeks naar de afzender. ' +
    'De beheerder van de website kan een bericht ook alsnog als eigen e-mail laten doorsturen, met het kenmerk.',
} as const;
