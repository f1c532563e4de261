/**
 * The answer to an access request (AVG article 15), as the person reads it: the document
 * `npm run messages -- export` writes beside the JSON. Only the frame is here; what each kind
 * of data is, why it is kept, on which basis and for how long are the privacy statement's own
 * records (privacy.ts), quoted, so the two never say different things. The layout and the dates'
 * notation are the command's (ops/messages/access-document.ts).
 */
import { DIGEST_TEXT } from '@site/core/content/digest';
import type { HeldFor, SpamSignal } from '@site/core/spam';
import type { MessageStatus } from '@site/core/table';
import { privacyContact } from './privacy';
import { firm } from './site';

export const accessAnswer = {
  title: 'Inzage in uw gegevens',
  /** `when`: 'zaterdag 28 november 2026 om 10.15 uur'. */
  intro: (address: string, when: string) =>
    `Dit overzicht is opgesteld op ${when}, op uw verzoek om inzage (artikel 15 AVG), voor het e-mailadres ${address}. Hieronder staat alles wat de website van ${firm.name} heeft opgeslagen over de berichten die vanaf dat adres zijn verzonden: wat, waarom, waar en tot wanneer.`,
  messages: {
    heading: (count: number) => (count === 1 ? 'Uw bericht' : `Uw berichten (${count})`),
    none: 'Van dit e-mailadres zijn geen berichten opgeslagen.',
    /** `when`: when it was received. */
    title: (when: string) => `Bericht van ${when}`,
    reference: 'Kenmerk',
    delivery: 'Bezorging',
    keptUntil: 'Bewaard tot',
    assessment: 'Beoordeling op spam',
    heldFor: 'Aangehouden omdat',
  },
  /** How the website scored a message: the score and, in words, what counted towards it (the digest's words for the office). */
  assessment: (score: number, signals: readonly SpamSignal[]) =>
    signals.length === 0
      ? `score ${score}; niets in het bericht wees op spam`
      : `score ${score}, door: ${signals.map((signal) => DIGEST_TEXT.signal[signal]).join('; ')}`,
  /** Why a held message was held, as the person reads it. */
  heldFor: {
    suspect: 'het op spam leek',
    budget: 'er in korte tijd meer berichten binnenkwamen dan de website per e-mail doorstuurt',
  } satisfies Record<HeldFor, string>,
  /** What became of the e-mail of a message, by its status; `when`: the moment that is known. */
  delivery: {
    received: () => 'nog niet in onze mailbox; de website probeert het opnieuw',
    emailed: (when?: string) => `verzonden naar onze mailbox${when ? ` op ${when}` : ''}`,
    delayed: (when?: string) => `verzonden naar onze mailbox${when ? ` op ${when}` : ''}; de aflevering was vertraagd`,
    delivered: (when?: string) => `afgeleverd in onze mailbox${when ? ` op ${when}` : ''}`,
    complained: (when?: string) => `afgeleverd in onze mailbox${when ? ` op ${when}` : ''} en daar als ongewenst gemarkeerd`,
    bounced: (when?: string) => `niet afgeleverd: onze mailserver weigerde het${when ? ` op ${when}` : ''}`,
    rejected: () => 'niet verzonden naar onze mailbox',
    failed: () => 'niet in onze mailbox aangekomen; de website heeft het opgegeven',
    held: () =>
      'niet afzonderlijk naar onze mailbox verzonden: het kwam binnen tijdens een piek in het aantal berichten of leek op ongewenste post, en wacht op beoordeling door een medewerker',
    spam: () => 'als ongewenst (spam) gemarkeerd en niet naar onze mailbox verzonden; het wordt daarom eerder verwijderd',
  } satisfies Record<MessageStatus, (when?: string) => string>,
  about: 'Waarom we dit bewaren',
  linked: {
    heading: 'Wat er verder bij uw berichten is opgeslagen',
    /** `count` items of this kind that name the person's messages. */
    yours: (count: number) => (count === 0 ? 'Bij uw berichten: geen (meer).' : `Bij uw berichten: ${count}.`),
    /** `until`: 'zaterdag 28 november 2026 om 10.20 uur'. */
    until: (until: string) => `Bewaard tot ${until}.`,
    /** Under the spam defence's record: what of it is the person's, and what cannot be linked to them. */
    spam: {
      assessment: 'De beoordeling van elk bericht, en waarom het eventueel is aangehouden, staat hierboven bij dat bericht.',
      stamps: (count: number) =>
        count === 0 ? 'Gebruik van het rekenwerk bij uw berichten: geen (meer).' : `Gebruik van het rekenwerk bij uw berichten: ${count}.`,
      notLinked:
        'De codes van teksten, de aantallen per netwerk en de tellers van rekenopgaven bevatten geen kenmerk van een bericht en geen e-mailadres. We kunnen ze niet aan u koppelen; daarom staan ze niet in dit overzicht.',
    },
  },
  elsewhere: {
    heading: 'Waar nog meer gegevens staan',
    accessLogs:
      'Uw IP-adres staat niet bij uw berichten en we kunnen het niet aan uw e-mailadres koppelen; daarom staat het niet in dit overzicht.',
  },
  rights: {
    heading: 'Uw rechten',
    text: `U kunt ons vragen onjuiste gegevens te corrigeren of uw gegevens te verwijderen, en u kunt bezwaar maken tegen het gebruik ervan. Mail daarvoor naar ${privacyContact.email}. Bent u niet tevreden over hoe we met uw gegevens omgaan, dan kunt u een klacht indienen bij de Autoriteit Persoonsgegevens (autoriteitpersoonsgegevens.nl). Meer staat in onze privacyverklaring.`,
  },
  /** `file`: the JSON file's name. */
  attachment: (file: string) =>
    `Dezelfde gegevens staan in het bijgevoegde bestand ${file}, in een gangbaar formaat (JSON) dat andere programma’s kunnen lezen.`,
} as const;
