/**
 * The privacy statement (/privacy). The firm-specific facts are placeholders like those in
 * site.ts; the facts about the deployment (how long a message is kept, the AWS region) come
 * in as arguments from the build, which reads them from the stack's own settings; what the
 * form collects comes from the contact-field list.
 */
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { placeholders } from '@site/core/placeholders';
import { PATHS } from '../routes';
import { firm } from './site';

const { placeholder, left } = placeholders();

export const privacyContact = {
  /** Where visitors send requests about their data (access, correction, erasure…). */
  email: placeholder('privacy.email', 'privacy@example.nl'),
  /** The date the firm last reviewed this statement, as shown under its title. */
  lastUpdated: placeholder('privacy.lastUpdated', '1 januari 2026'),
} as const;

/** The EU regions of AWS, where they are. The statement promises storage within the EU. */
const EU_REGIONS: Readonly<Record<string, string>> = {
  'eu-west-1': 'Ierland',
  'eu-central-1': 'Duitsland (Frankfurt)',
  'eu-west-3': 'Frankrijk (Parijs)',
  'eu-north-1': 'Zweden (Stockholm)',
  'eu-south-1': 'Italië (Milaan)',
  'eu-south-2': 'Spanje (Aragón)',
};

/** Where an AWS region is, in Dutch; a region outside the EU would make the statement untrue. */
export function regionLocation(region: string): string {
  const location = EU_REGIONS[region];
  if (location === undefined) {
    throw new Error(
      `The privacy statement says messages are stored in the EU, but the region is ${region}. ` +
        `Deploy to one of ${Object.keys(EU_REGIONS).join(', ')}, or rewrite src/content/privacy.ts for storage outside the EU.`,
    );
  }
  return location;
}

/** '365 dagen (1 jaar)': days as the stack counts them, with whole years where they are whole. */
export function formatDays(days: number): string {
  const text = days === 1 ? '1 dag' : `${days} dagen`;
  const years = Math.round(days / 365.25);
  return years >= 1 && Math.abs(days - years * 365.25) <= 1 ? `${text} (${years} jaar)` : text;
}

export interface Link {
  href: string;
  text: string;
}

/** The retention period of a stored message, rendered where a check can read the number. */
export interface Retention {
  retentionDays: number;
  text: string;
}

export type Inline = string | Link | Retention;
/** A paragraph is a run of inline pieces; a list is a run of items. */
export type Block = { paragraph: Inline[] } | { list: Inline[][] };

export interface PrivacySection {
  /** The anchor of the section, linked from the page's table of contents. */
  id: string;
  title: string;
  blocks: Block[];
}

export interface DeploymentFacts {
  retentionDays: number;
  region: string;
}

/** 'a', 'a en b', 'a, b en c'. */
function inDutch(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} en ${items.at(-1)}`;
}

/** What the form collects, in a sentence's words: every field of the table (the optional ones when filled in), and when. */
function listOfFieldsCollected(fields: FieldList): Inline[][] {
  const named = (required: boolean) =>
    fieldNames(fields)
      .filter((name) => fields[name]!.required === required)
      .map((name) => fields[name]!.named.replace(/^./, (first) => first.toLocaleLowerCase('nl')));
  const optional = named(false);
  return [
    [`${inDutch(named(true))};`],
    ...(optional.length > 0 ? [[`${inDutch(optional)}, indien ingevuld;`]] : []),
    ['de datum en het tijdstip waarop u het verstuurde.'],
  ];
}

const p = (...inline: Inline[]): Block => ({ paragraph: inline });
const list = (...items: (Inline | Inline[])[]): Block => ({ list: items.map((item) => (Array.isArray(item) ? item : [item])) });

export const privacyPage = {
  eyebrow: 'Privacy',
  title: 'Privacyverklaring',
  seo: {
    title: `Privacyverklaring | ${firm.name}`,
    description: `Hoe ${firm.name} omgaat met de gegevens die u via de website en het contactformulier deelt: welke gegevens, waarom, waar en hoe lang, en uw rechten.`,
  },
  lead: `${firm.name} gaat zorgvuldig om met uw persoonsgegevens. Hier leest u welke gegevens we verwerken als u deze website bezoekt of ons via het contactformulier een bericht stuurt, waarom we dat doen, hoe lang we ze bewaren en welke rechten u heeft.`,
  updatedLabel: 'Laatst bijgewerkt:',
  breadcrumb: { label: 'Kruimelpad', home: { href: PATHS.home, label: 'Home' } },
  tocLabel: 'Op deze pagina',
  summary: {
    title: 'In het kort',
    points: [
      'We verwerken alleen wat u zelf in het contactformulier invult.',
      'Geen cookies, geen analytics en geen advertentienetwerken.',
      'Uw gegevens worden opgeslagen binnen de Europese Unie en nooit verkocht.',
      'U kunt uw gegevens altijd inzien, laten corrigeren of laten verwijderen.',
    ],
  },
} as const;

const { street, postalCode, city } = firm.address;
const postalAddress = `${firm.legalName}, ${street}, ${postalCode} ${city}`;
const privacyMail: Link = { href: `mailto:${privacyContact.email}`, text: privacyContact.email };
const supervisor: Link = { href: 'https://autoriteitpersoonsgegevens.nl', text: 'Autoriteit Persoonsgegevens' };

/** Who the controller is, and how to reach them about privacy. */
const controller: PrivacySection = {
  id: 'verantwoordelijke',
  title: 'Wie is verantwoordelijk?',
  blocks: [
    p(
      `${postalAddress}, ingeschreven bij de Kamer van Koophandel onder nummer ${firm.kvk}, is verantwoordelijk voor de verwerking van de persoonsgegevens in deze verklaring. Heeft u een vraag over privacy? Mail dan naar `,
      privacyMail,
      '.',
    ),
  ],
};

/** What the form collects (from the field list), and what every visit leaves in the access logs. */
function collected(fields: FieldList): PrivacySection {
  return {
    id: 'gegevens',
    title: 'Welke gegevens verwerken we?',
    blocks: [
      p('Als u het contactformulier verstuurt, ontvangen we:'),
      { list: listOfFieldsCollected(fields) },
      p(
        'Meer vragen we niet. Deel in uw bericht liever geen bijzondere persoonsgegevens, zoals gegevens over uw gezondheid: die hebben we niet nodig om u te antwoorden.',
      ),
      p(
        'Bij elk bezoek aan de website ontvangt onze hosting, zoals bij iedere website, technische gegevens van uw browser: uw IP-adres, het tijdstip, de opgevraagde pagina en het type browser. Deze gegevens komen in toegangslogboeken.',
      ),
    ],
  };
}

const noTracking: PrivacySection = {
  id: 'cookies',
  title: 'Geen cookies, geen tracking',
  blocks: [
    p(
      'Deze website plaatst geen cookies en gebruikt geen analyse-, advertentie- of socialemediadiensten. Alles wat de website laadt, komt van ons eigen domein: uw bezoek wordt niet aan andere partijen doorgegeven.',
    ),
  ],
};

/** Why, on which legal basis under the AVG. */
const purposes: PrivacySection = {
  id: 'doelen',
  title: 'Waarom verwerken we uw gegevens?',
  blocks: [
    p(
      'De gegevens uit het contactformulier gebruiken we alleen om uw bericht te beantwoorden en, als u dat wilt, een vervolggesprek of offerte met u te bespreken. Gaat uw bericht over een mogelijke opdracht, dan is de grondslag dat u ons vraagt stappen te zetten vóór het sluiten van een overeenkomst (artikel 6, lid 1, onder b AVG). In andere gevallen is de grondslag ons gerechtvaardigd belang om berichten die aan ons gericht zijn te kunnen beantwoorden (artikel 6, lid 1, onder f AVG).',
    ),
    p(
      'De toegangslogboeken gebruiken we alleen om de website veilig en bereikbaar te houden en om misbruik op te sporen, zoals aanvallen of spam via het formulier. De grondslag is ons gerechtvaardigd belang bij een veilige website (artikel 6, lid 1, onder f AVG).',
    ),
    p(
      'We gebruiken uw gegevens niet voor nieuwsbrieven of andere marketing, verkopen ze niet en nemen geen besluiten over u die alleen door een computer worden genomen.',
    ),
  ],
};

/** Where: the AWS region the stack is deployed to. */
function storage(region: string): PrivacySection {
  return {
    id: 'opslag',
    title: 'Waar worden uw gegevens opgeslagen?',
    blocks: [
      p(
        `De website draait bij Amazon Web Services (AWS). Uw bericht wordt opgeslagen in een database van AWS in ${regionLocation(region)} (AWS-regio ${region}), binnen de Europese Unie, en van daaruit per e-mail aan ons bezorgd via de e-maildienst van AWS (Amazon SES). Ook de toegangslogboeken worden in deze regio bewaard.`,
      ),
      p(
        'De pagina’s van de website worden geleverd via Amazon CloudFront, het wereldwijde netwerk van AWS, door de server die het dichtst bij u staat. Bezoekt u de website van buiten de Europese Unie, dan kan die server buiten de EU staan. AWS biedt daarvoor de waarborgen die de AVG vraagt, zoals de standaardcontractbepalingen van de Europese Commissie.',
      ),
      p('De verbinding met de website is altijd versleuteld (https) en uw bericht wordt versleuteld opgeslagen.'),
    ],
  };
}

/** How long: the retention the stack is configured with, as one piece a check can read. */
function retentionPeriods(retentionDays: number): PrivacySection {
  const retention: Retention = { retentionDays, text: formatDays(retentionDays) };
  return {
    id: 'bewaartermijn',
    title: 'Hoe lang bewaren we uw gegevens?',
    blocks: [
      list(
        ['Uw bericht bewaren we in de opslag van de website ', retention, ' na ontvangst. Daarna wordt het automatisch verwijderd.'],
        'De e-mail met uw bericht bewaren we zolang dat nodig is om uw vraag af te handelen. Volgt er een opdracht uit, dan bewaren we de correspondentie zolang de wet dat van ons vraagt, zoals de fiscale bewaarplicht van zeven jaar.',
        `Toegangslogboeken worden na ${formatDays(ACCESS_LOG_RETENTION_DAYS)} automatisch verwijderd.`,
      ),
    ],
  };
}

const recipients: PrivacySection = {
  id: 'ontvangers',
  title: 'Wie ontvangt uw gegevens?',
  blocks: [
    p(
      `Uw bericht is alleen bestemd voor ${firm.name}. AWS verwerkt de gegevens als onze verwerker: AWS host de website en bewaart en bezorgt uw bericht in onze opdracht, op grond van een verwerkersovereenkomst, en mag de gegevens niet voor eigen doeleinden gebruiken. We verkopen uw gegevens niet en geven ze niet aan anderen, tenzij de wet ons daartoe verplicht.`,
    ),
  ],
};

const rights: PrivacySection = {
  id: 'rechten',
  title: 'Uw rechten',
  blocks: [
    p('U heeft het recht om:'),
    list(
      'uw gegevens in te zien;',
      'onjuiste gegevens te laten corrigeren;',
      'uw gegevens te laten verwijderen;',
      'het gebruik van uw gegevens te laten beperken;',
      'bezwaar te maken tegen verwerking op grond van ons gerechtvaardigd belang;',
      'de gegevens die u ons gaf in een gangbaar bestandsformaat te ontvangen.',
    ),
  ],
};

/** How to exercise those rights, and where to complain. */
const requests: PrivacySection = {
  id: 'verzoek',
  title: 'Zo oefent u uw rechten uit',
  blocks: [
    p(
      'Stuur een e-mail naar ',
      privacyMail,
      ` of een brief naar ${postalAddress}. We reageren binnen een maand en het kost u niets. Om zeker te weten dat het verzoek van u komt, kunnen we u vragen het te bevestigen vanaf het e-mailadres waarmee u ons schreef.`,
    ),
    p(
      'Bent u niet tevreden over hoe we met uw gegevens omgaan? Laat het ons weten, dan zoeken we samen naar een oplossing. U heeft ook altijd het recht een klacht in te dienen bij de ',
      supervisor,
      ', de Nederlandse toezichthouder.',
    ),
  ],
};

const changes: PrivacySection = {
  id: 'wijzigingen',
  title: 'Wijzigingen',
  blocks: [
    p(
      'We passen deze verklaring aan als onze werkwijze verandert. De datum bovenaan de pagina laat zien wanneer dat voor het laatst is gebeurd.',
    ),
  ],
};

/** The sections of the statement, for the deployment the site is built for and the form's fields. */
export function privacySections({ retentionDays, region }: DeploymentFacts, fields: FieldList = CONTACT_FIELDS): PrivacySection[] {
  return [
    controller,
    collected(fields),
    noTracking,
    purposes,
    storage(region),
    retentionPeriods(retentionDays),
    recipients,
    rights,
    requests,
    changes,
  ];
}

/** The facts above still written as placeholder(…): a `prod` deploy refuses while any is left (see index.ts). */
export const PLACEHOLDERS = left;
