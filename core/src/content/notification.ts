import { firm } from './firm';
import { REPLY_PROMISE } from './promise';

/** What the e-mail is: the small line above the e-mail's heading. */
const WHAT_IT_IS = 'Contactformulier website';

/**
 * Every text of the e-mail the firm receives for a message, in Dutch. The layout and the
 * escaping are the function's (lambda/src/mail/notification.ts), the dates' notation core's
 * (dutch-time.ts); the labels of the fields are in the field list (contact-fields.ts).
 */
export const NOTIFICATION_TEXT = {
  /**
   * The name the e-mail comes from, before the sender address: `Jansen & Zonen (website)
   * <website@…>`, so the firm sees its own website in its inbox. Quoted or encoded as the name
   * needs (lambda/src/mail/mail-header.ts).
   */
  sender: `${firm.name} (website)`,
  /** The subject: who wrote, and for which company when they said. */
  subject: (name: string, company?: string) => `Nieuw contactbericht van ${company === undefined ? name : `${name} (${company})`}`,
  /** The HTML document's title. */
  title: 'Nieuw contactbericht',
  /** Above the heading, small. */
  eyebrow: WHAT_IT_IS,
  heading: (name: string) => `Bericht van ${name}`,
  intro: 'Nieuw bericht via het contactformulier van de website.',
  received: 'Ontvangen',
  /** The message's id, for finding it with `npm run messages`. */
  reference: 'Kenmerk',
  /** What the visitor read once the message was sent, so the office knows what was promised. */
  promised: {
    label: 'Toegezegd aan de afzender',
    promise: REPLY_PROMISE,
  },
  replyNote: 'Beantwoorden gaat rechtstreeks naar de afzender.',
  /**
   * The footer: how long the website keeps the message and under which kenmerk, and what an
   * erasure request means for this copy. `until` is a Dutch date ('dinsdag 23 november 2027').
   */
  kept: (until: string, reference: string) =>
    `De website bewaart dit bericht tot ${until} onder kenmerk ${reference} en verwijdert het daarna automatisch. Vraagt de afzender om verwijdering van zijn of haar gegevens, dan wist de beheerder van de website het opgeslagen bericht; deze e-mail en uw antwoorden verwijdert u zelf uit de mailbox.`,
} as const;
