import { firm } from './firm';

/** What the e-mail is: the small line above the e-mail's heading. */
const WHAT_IT_IS = 'Contactformulier website';

/**
 * Every text of the e-mail the firm receives for a message, in Dutch. The layout, the
 * escaping and the date format are the function's (lambda/src/notification.ts); the labels
 * of the fields are in the field list (contact-fields.ts).
 */
export const NOTIFICATION_TEXT = {
  /**
   * The name the e-mail comes from, before the sender address: `Jansen & Zonen (website)
   * <website@…>`, so the firm sees its own website in its inbox. Quoted or encoded as the name
   * needs (lambda/src/mail-header.ts).
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
  /** '23 november 2026 om 08:42'. */
  receivedAt: (date: string, time: string) => `${date} om ${time}`,
  replyNote: 'Beantwoorden gaat rechtstreeks naar de afzender.',
} as const;
