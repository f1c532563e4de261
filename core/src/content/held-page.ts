import { firm } from './firm';

/**
 * The firm's page of held messages (lambda/src/held/held-page.ts, decision 0048): every
 * message the site held back and no one has handled yet, each with what it said and why it
 * was held, and two buttons. In Dutch, as the office reads it; the signals' and the reasons'
 * words are the digest's (content/digest.ts), so both say the same.
 */
export const HELD_PAGE_TEXT = {
  title: 'Aangehouden berichten',
  intro:
    'Deze berichten kwamen via het contactformulier binnen, maar zijn niet elk apart doorgestuurd: ze lijken op spam, of er ' +
    'kwamen in korte tijd meer berichten binnen dan de website doorstuurt. Lees ze hier. Is een bericht echt, kies dan ' +
    '“Alsnog doorsturen”: het komt als gewone e-mail binnen en uw antwoord gaat rechtstreeks naar de afzender. Is het spam, ' +
    'kies dan “Spam”.',
  order: 'Het meest waarschijnlijk echte bericht staat bovenaan: eerst de laagste spamscore, daarbinnen het nieuwste.',
  count: (shown: number, total: number, searched: boolean) =>
    total === 0
      ? searched
        ? 'Geen aangehouden bericht past bij uw zoekopdracht.'
        : 'Er wachten geen aangehouden berichten. Alles is afgehandeld.'
      : `${searched ? 'Gevonden' : 'Aangehouden'}: ${total === 1 ? 'één bericht' : `${total} berichten`}` +
        (shown < total ? `, hier ${shown} daarvan.` : '.'),
  more: 'Er wachten meer berichten dan deze pagina in één keer leest. Handel deze af of zoek gericht; daarna ziet u de rest.',
  search: 'Zoeken in naam, e-mailadres, bedrijf, telefoon en bericht',
  searchButton: 'Zoeken',
  showAll: 'Alles tonen',
  previous: 'Vorige',
  next: 'Volgende',
  page: (page: number, pages: number) => `Pagina ${page} van ${pages}`,
  received: 'Ontvangen',
  reference: 'Kenmerk',
  why: 'Waarom aangehouden',
  signals: 'Kenmerken',
  noSignals: 'geen',
  score: 'Spamscore',
  release: 'Alsnog doorsturen',
  spam: 'Spam',
  released: (id: string) =>
    `Bericht ${id} is doorgestuurd als gewone e-mail. Beantwoord die e-mail: uw antwoord gaat rechtstreeks naar de afzender.`,
  releaseDeferred: (id: string) =>
    `Bericht ${id} is vrijgegeven, maar kon nog niet worden verzonden. De website probeert het binnen een uur opnieuw.`,
  markedSpam: (id: string, days: number) =>
    `Bericht ${id} is als spam gemarkeerd. Het staat niet meer in deze lijst en wordt na ${days} dagen verwijderd.`,
  handled: (id: string) => `Bericht ${id} was al afgehandeld, hier of door de beheerder. Er is niets veranderd.`,
  linkInvalid: {
    title: 'Deze link werkt niet meer',
    text:
      'De link naar de aangehouden berichten is verlopen of niet volledig. Een link werkt een week. In het nieuwste overzicht ' +
      'van aangehouden berichten staat een nieuwe link; dat overzicht komt elk uur zolang er berichten wachten.',
    help: `Geen overzicht ontvangen? Vraag de beheerder van de website om hulp.`,
  },
  crossSite: {
    title: 'Niet uitgevoerd',
    text: 'Deze actie kwam niet van de pagina met aangehouden berichten zelf en is daarom niet uitgevoerd. Open de link in het overzicht opnieuw.',
  },
  failed: {
    title: 'Even niet beschikbaar',
    text: 'De aangehouden berichten konden nu niet worden gelezen. Er is niets veranderd. Probeer het over een paar minuten opnieuw.',
  },
  home: `Naar de website van ${firm.name}`,
} as const;
