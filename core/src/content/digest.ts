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
  /** Before the link to the page of held messages. */
  page: (until: string) =>
    `Lees en beoordeel alle aangehouden berichten op deze pagina. Daar kunt u een bericht alsnog doorsturen of als spam markeren. De link werkt tot ${until}:`,
  why: 'Waarom ze zijn aangehouden',
  heldFor: {
    suspect: 'lijkt op spam',
    budget: 'meer berichten dan per uur of per dag worden doorgestuurd',
  } satisfies Record<HeldFor, string>,
  signals: 'Kenmerken',
  signal: {
    noStamp: 'verzonden zonder het script van de website',
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
  /** Before each message's mailto: link. */
  answer: 'Antwoorden aan',
  /** One message in the digest: its Reply-To is the visitor. */
  replyToOne:
    'Is dit bericht echt? Beantwoord deze e-mail: uw antwoord gaat rechtstreeks naar de afzender. ' +
    'Of kies op de pagina hierboven "Alsnog doorsturen", dan komt het als gewone e-mail binnen.',
  /** More than one: an answer to the digest would reach no visitor. */
  replyToMany:
    'Is een van deze berichten echt? Een antwoord op deze e-mail bereikt de afzenders niet. Schrijf de afzender via de link bij ' +
    '"Antwoorden aan", of kies op de pagina hierboven "Alsnog doorsturen": dan komt het als gewone e-mail binnen en gaat uw ' +
    'antwoord rechtstreeks naar de afzender.',
} as const;
