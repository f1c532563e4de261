/**
 * The pages a form post without scripts is sent on to: their own file, so that their words
 * load with those pages and not with the home page's first script.
 */
import { contactForm, sectionIds, sentConfirmation } from './site';

/** The back button of the browser keeps what was typed in the form; these pages say so. */
const backToForm = 'Ga met de knop Terug van uw browser terug naar het formulier: wat u hebt getypt, staat er dan nog.';

/** By result (FORM_RESULT_PAGES in the contract): prerendered, the same for everyone, kept out of search results. */
export const formResults = {
  sent: {
    title: 'Bericht verzonden',
    headline: sentConfirmation.thanks(),
    text: contactForm.messages.success,
    link: { href: '/', label: 'Terug naar de homepage' },
  },
  crossSite: {
    title: 'Bericht via een andere website',
    headline: 'Uw bericht is niet verzonden',
    text: 'Dit bericht is vanaf een andere website naar ons verzonden. Om misbruik te voorkomen nemen we alleen berichten aan die via het contactformulier op onze eigen website worden verzonden.',
    link: { href: `/#${sectionIds.contact}`, label: 'Naar het contactformulier' },
  },
  check: {
    title: 'Controleer uw bericht',
    headline: 'Uw bericht is nog niet verzonden',
    text: 'Er ontbreekt iets in het formulier, of iets klopt niet. Dit vraagt het formulier:',
    /** When the function named the fields it refused (the page's address holds their names). */
    refused: (count: number) =>
      count === 1 ? 'Eén veld is nog niet goed ingevuld. Dit vraagt het formulier:' : 'Deze velden zijn nog niet goed ingevuld:',
    required: 'verplicht',
    emailExample: 'een geldig adres, zoals naam@bedrijf.example',
    limit: (limit: number) => `maximaal ${limit} tekens`,
    back: `${backToForm} Pas aan wat nodig is en verzend het opnieuw.`,
    link: { href: `/#${sectionIds.contact}`, label: 'Naar het contactformulier' },
  },
  failed: {
    title: 'Bericht niet verzonden',
    headline: 'Uw bericht kon niet worden verzonden',
    text: 'Er is bij ons iets misgegaan; aan uw bericht ligt het niet. Probeer het over enkele minuten opnieuw.',
    back: backToForm,
    link: { href: `/#${sectionIds.contact}`, label: 'Naar het contactformulier' },
  },
  /**
   * Over the visitor limit. The function now answers a form post over the limit with the form
   * again and the minutes this visitor has left (lambda/src/contact/form-reply.ts); this page stays for
   * its address, which the synth's stated-facts check reads. The page is the same for everyone, so it states the longest wait (one window of the
   * deploy's visitor limit), and only that: the generic failure beside it would contradict it.
   */
  limited: {
    title: 'Bericht niet verzonden',
    headline: 'Uw bericht is nog niet verzonden',
    text: undefined,
    again: (windowMinutes: number) => contactForm.limited.again(windowMinutes, { atMost: true }),
    back: backToForm,
    link: { href: `/#${sectionIds.contact}`, label: 'Naar het contactformulier' },
  },
  /** The whole site over its rate limit: in the toast's words, which are true for everyone who lands here. */
  busy: {
    title: 'Bericht niet verzonden',
    headline: 'Uw bericht kon niet worden verzonden',
    text: contactForm.busy,
    back: backToForm,
    link: { href: `/#${sectionIds.contact}`, label: 'Naar het contactformulier' },
  },
} as const;
