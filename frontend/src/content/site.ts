/**
 * Every Dutch text of the site, in one place: the firm edits this file, components only
 * arrange it. The firm's facts (name, address, phone…) are in core/src/content/firm.ts,
 * which the firm's e-mail reads too; here they are as the site shows and links them.
 * Values written as placeholder(…) are facts only the firm knows (see docs/content.md);
 * everything else is final copy.
 */
import { HONEYPOT_LABEL, REQUIRED_FIELDS_MESSAGE, REQUIRED_NOTE } from '@site/core/content/contact-fields';
import { visitorLimitSentence } from '@site/core/content/refused-post';
import { CALL_US, REPLY_PROMISE } from '@site/core/content/promise';
import { firm as facts } from '@site/core/content/firm';
import { postalCodeShown, telHref } from '@site/core/notation';
import type { IconName } from '../icons/shapes';
import { PATHS } from '../routes';

export { SITE_ORIGIN } from '@site/core/content/firm';

/** The firm's facts as the site shows them: the phone as written, the postal code as PostNL writes it. */
export const firm = { ...facts, address: { ...facts.address, postalCode: postalCodeShown(facts.address.postalCode) } } as const;

/** The phone as a link dials it: E.164 ('tel:+31551234567'), however it is written. */
export const phoneHref = telHref(firm.phone);
export const emailHref = `mailto:${firm.email}`;

/** How to reach the firm without the form: said wherever the form could not send. */
export const directContact = {
  call: CALL_US,
  mail: 'of mail naar',
} as const;

/** On a phone, between the hero and the contact section: calling or mailing in reach at the bottom of the screen. */
export const callBar = {
  label: 'Direct contact',
  call: 'Bellen',
  mail: 'Mailen',
} as const;

/** 'over 1 minuut', 'over 7 minuten'. */

export const seo = {
  title: `${firm.name} | Finance professionals, interim management en advies in Apeldoorn`,
  description:
    'Betrokken, deskundige en loyale finance professionals voor verandering, herstructurering of continuïteit: management consulting, management advisering en interim management vanuit Apeldoorn.',
  notFoundTitle: `Pagina niet gevonden | ${firm.name}`,
  /** The navy of the header and hero, for the browser's UI. */
  themeColor: '#0b1f3f',
  locale: 'nl_NL',
} as const;

/** The anchors of the one-page site; nav links and buttons point at these. */
export const sectionIds = {
  home: 'home',
  about: 'about',
  services: 'services',
  contact: 'contact',
} as const;

export const nav = {
  label: 'Hoofdmenu',
  menuButton: 'Menu',
  skipLink: 'Direct naar de inhoud',
  homeLinkLabel: `${firm.name}, naar de homepage`,
  links: [
    { href: `#${sectionIds.home}`, label: 'Home' },
    { href: `#${sectionIds.about}`, label: 'Over ons' },
    { href: `#${sectionIds.services}`, label: 'Diensten' },
    { href: `#${sectionIds.contact}`, label: 'Contact' },
  ],
} as const;

export const hero = {
  /** English, marked so by the component. */
  badge: 'Controlling Business',
  /** Rendered as one h1: 'Finance Professionals Met een streepje voor'. */
  headline: { lead: 'Finance Professionals', accent: 'Met een streepje voor' },
  intro:
    'Betrokken, deskundige en loyale managers die uw organisatie verder helpen. Of het nu gaat om verandering, herstructurering of het bewaken van de continuïteit: we leveren de finance professional die het verschil maakt.',
  primaryCta: { href: `#${sectionIds.contact}`, label: 'Neem contact op' },
  secondaryCta: { href: `#${sectionIds.services}`, label: 'Onze diensten' },
  highlights: ['Direct inzetbaar', 'Finance, IT en Governance', 'Resultaatgericht'],
  scrollDown: { href: `#${sectionIds.about}`, label: 'Scroll down' },
} as const;

export interface IconCard {
  title: string;
  text: string;
  icon: IconName;
}

export const about = {
  eyebrow: 'Over ons',
  headline: 'Professioneel advies en ondersteuning voor uw bedrijf',
  intro: `${firm.name} is uw one-stop-shop voor Finance, IT, Governance en bedrijfsoptimalisatie. Eén aanspreekpunt voor de vraagstukken die uw organisatie vooruit helpen, van de eerste analyse tot een duurzaam resultaat.`,
  body: 'Onze professionals combineren financiële vakkennis met ervaring in IT en Governance. Zo zien we waar processen, systemen en sturing elkaar raken, en pakken we verbeteringen in samenhang aan.',
  pillars: ['Finance', 'IT', 'Governance', 'Bedrijfsoptimalisatie'],
  cards: [
    {
      title: 'Verandermanager',
      text: 'Begeleidt uw organisatie door de verandering heen: van visie en plan tot borging in de dagelijkse praktijk, met oog voor zowel de cijfers als de mensen.',
      icon: 'change',
    },
    {
      title: 'Procesmanager',
      text: 'Brengt uw financiële en operationele processen in kaart, maakt ze efficiënter en zorgt voor heldere sturing en betrouwbare rapportages.',
      icon: 'process',
    },
    {
      title: 'Projectmanager',
      text: 'Leidt complexe projecten, van systeemimplementatie tot reorganisatie, gestructureerd en binnen planning en budget naar een meetbaar resultaat.',
      icon: 'project',
    },
  ] satisfies IconCard[],
  philosophy: {
    title: 'Onze filosofie',
    text: 'Goede financiële sturing begint bij betrokkenheid. Onze professionals werken niet naast uw organisatie, maar middenin: zij kennen de cijfers, begrijpen de mensen en nemen verantwoordelijkheid voor het resultaat.',
    closing: 'Zo hebt u altijd een streepje voor.',
  },
} as const;

export interface Service {
  id: 1 | 2 | 3;
  title: string;
  /** One line under the title in the service list. */
  summary: string;
  description: string;
  icon: IconName;
  features: readonly [string, string, string, string, string];
}

export const services: readonly Service[] = [
  {
    id: 1,
    title: 'Management Consulting',
    summary: 'Analyse, strategie en een plan dat werkt',
    description:
      'Objectief advies over strategie, organisatie en financiële sturing. We brengen in kaart waar uw organisatie staat, benoemen knelpunten en kansen en vertalen die naar een concreet en haalbaar plan, dat we samen met u uitvoeren.',
    icon: 'consulting',
    features: [
      'Strategische analyse en heldere doelen',
      'Organisatie- en procesdiagnose',
      'Verbeterplannen met meetbare KPI’s',
      'Begeleiding bij de implementatie',
      'Rapportage aan directie en toezicht',
    ],
  },
  {
    id: 2,
    title: 'Management Advisering',
    summary: 'Een vaste sparringpartner voor directie en management',
    description:
      'Een ervaren sparringpartner voor directie en management. We adviseren over financiële vraagstukken, risico’s en Governance, zodat u beslissingen neemt op basis van betrouwbare informatie en met vertrouwen vooruit kunt.',
    icon: 'advice',
    features: [
      'Financieel en bedrijfseconomisch advies',
      'Risicomanagement en interne beheersing',
      'Governance en compliance',
      'Inrichting van managementinformatie',
      'Advies bij investeringen en financiering',
    ],
  },
  {
    id: 3,
    title: 'Interim Management',
    summary: 'Ervaren managers, snel op de juiste plek',
    description:
      'Ervaren interim-managers die snel inzetbaar zijn bij verandering, herstructurering of een tijdelijke vacature. Zij nemen verantwoordelijkheid, houden de continuïteit vast en dragen het werk zorgvuldig over aan uw vaste team.',
    icon: 'interim',
    features: [
      'Interim CFO, controller of financieel manager',
      'Snel inzetbaar en direct van waarde',
      'Leiding bij reorganisatie en herstructurering',
      'Continuïteit in de financiële bedrijfsvoering',
      'Zorgvuldige overdracht aan uw eigen team',
    ],
  },
];

export const servicesSection = {
  eyebrow: 'Diensten',
  headline: 'Drie diensten, één vast aanspreekpunt',
  intro: 'Kies de vorm die bij uw vraag past. We denken mee, adviseren of nemen het werk tijdelijk van u over.',
  listLabel: 'Onze diensten',
  featuresLabel: 'Wat we voor u doen',
  cta: { href: `#${sectionIds.contact}`, label: 'Vraag meer informatie aan' },
  help: {
    title: 'Twijfelt u welke dienst past?',
    text: 'In een kort, vrijblijvend gesprek brengen we samen in kaart wat uw organisatie nodig heeft.',
    phoneLabel: 'Bel ons',
  },
  why: {
    /** Rendered as 'Waarom {firm name} kiezen?'. */
    headline: `Waarom ${firm.name} kiezen?`,
    points: [
      { title: 'Expertise', text: 'Ervaren professionals met diepgaande kennis van Finance, IT en Governance.', icon: 'expertise' },
      { title: 'Snelheid', text: 'Snel inzetbaar en binnen korte tijd van toegevoegde waarde voor uw organisatie.', icon: 'speed' },
      {
        title: 'Betrokkenheid',
        text: 'We werken als onderdeel van uw team en voelen ons verantwoordelijk voor het resultaat.',
        icon: 'commitment',
      },
      { title: 'Kwaliteit', text: 'Gedegen werk, heldere afspraken en resultaten die ook na ons vertrek blijven staan.', icon: 'quality' },
    ] satisfies IconCard[],
  },
} as const;

/** In this order; the contact section shows them one at a time. English but for the ones in expertiseInDutch. */
export const expertise = [
  'Compliance',
  'Business Control',
  'Cybersecurity',
  'Innovatie',
  'Financial Fit',
  'Potential Growth',
  'Risk Management',
  'Process Optimization',
  'Strategic Planning',
  'Corporate Finance',
  'Data-Driven Decisions',
  'Operational Excellence',
  'Interim Management',
  'Governance & Control',
  'Sustainable Finance',
  'Artificial Intelligence (AI)',
] as const;

/** The expertise terms that are Dutch; the others are marked as English, so a screen reader pronounces them as such. */
export const expertiseInDutch: readonly (typeof expertise)[number][] = ['Innovatie'];

export const contact = {
  eyebrow: 'Contact',
  headline: 'Laten we kennismaken',
  intro:
    'Zoekt u een finance professional, een interim-manager of een frisse blik op uw organisatie? Vertel ons waar u staat. We nemen snel contact met u op voor een vrijblijvend gesprek.',
  expertiseLabel: 'Onze expertise omvat:',
  /** A toggle (aria-pressed): pressed means the rotation stands still. */
  pauseRotation: 'Wisselende expertise pauzeren',
  details: {
    title: 'Contactgegevens',
    addressLabel: 'Adres',
    emailLabel: 'E-mail',
    phoneLabel: 'Telefoon',
  },
} as const;

export const contactForm = {
  title: 'Stuur ons een bericht',
  requiredNote: REQUIRED_NOTE,
  /** The fields' own labels are in the contact-field list (@site/core/content/contact-fields). */
  labels: {
    /** Only bots see this field; the label is for them. */
    honeypot: HONEYPOT_LABEL,
  },
  submit: 'Bericht verzenden',
  submitting: 'Bezig met verzenden…',
  privacy:
    'We gebruiken uw gegevens om op uw bericht te reageren. De website beoordeelt elk bericht automatisch op spam; soms leest een medewerker het eerst.',
  privacyLink: { href: PATHS.privacy, label: 'Lees onze privacyverklaring' },
  /** Under a field from 90% of its limit on; a screen reader hears it once typing pauses. */
  count: {
    left: (left: number, limit: number) => (left === 0 ? `Maximaal ${limit} tekens bereikt` : `Nog ${left} van ${limit} tekens over`),
    over: (over: number, limit: number) => `${over} ${over === 1 ? 'teken' : 'tekens'} te veel (maximaal ${limit})`,
  },
  messages: {
    required: REQUIRED_FIELDS_MESSAGE,
    sending: 'Uw bericht wordt verzonden...',
    success: `Uw bericht is verzonden! ${REPLY_PROMISE}`,
    failure: 'Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.',
  },
  /**
   * Under the spec's failure text when the visitor has sent too many messages (429): their own
   * limit, not a fault, and when sending works again. The toast says the minutes of the
   * answer's Retry-After (whole minutes, rounded up); the no-script limit page, the same for
   * everyone, the longest wait (`atMost`). One sentence for both and the function's answer page
   * to a refused form post (core), so they never disagree.
   */
  limited: {
    again: (minutes: number | undefined, { atMost = false }: { atMost?: boolean } = {}) => visitorLimitSentence(minutes, { atMost }),
  },
  /**
   * Under the spec's failure text when the whole site is over its rate limit (API Gateway's
   * stage throttle, a 429 without the function's answer): busy for everyone, not the visitor's
   * own limit, and it passes within a minute. The no-script page /niet-verzonden/druk says the same.
   */
  busy: 'Het is op dit moment erg druk op onze website; aan u ligt het niet. Probeer het over een minuut opnieuw.',
} as const;

/**
 * What takes the form's place once a message is sent, and stays (the spec's toast leaves
 * after a few seconds); the no-script page /bedankt says the same.
 */
export const sentConfirmation = {
  /** With the visitor's given name when the name as typed starts with one (first-name.ts). */
  thanks: (firstName?: string) => (firstName ? `Bedankt, ${firstName}` : 'Bedankt voor uw bericht'),
  /** Followed by the phone number, as a link. */
  call: CALL_US,
  another: 'Nog een bericht verzenden',
} as const;

export const footer = {
  tagline: 'Management Consulting - Management Advisering - Interim Management',
  rights: 'Alle rechten voorbehouden',
  navTitle: 'Navigatie',
  contactTitle: 'Contact',
  legalLabel: 'Bedrijfsgegevens',
  kvkLabel: 'KvK',
  vatLabel: 'Btw-id',
  privacyLink: { href: PATHS.privacy, label: 'Privacyverklaring' },
} as const;

export const toasts = {
  regionLabel: 'Meldingen',
  close: 'Melding sluiten',
} as const;

/** The 404 and error screens keep the product's English wording; they are marked lang="en". */
export const notFound = {
  code: '404',
  headline: 'Oops! Page not found',
  text: 'De pagina die u zoekt, bestaat niet (meer) of is verplaatst.',
  homeLink: { href: '/', label: 'Return to Home' },
} as const;

export const errorScreen = {
  headline: 'Unexpected Application Error!',
  homeLink: { href: '/', label: 'Return to Home' },
} as const;
