/**
 * The privacy statement (/privacy). The firm-specific facts are placeholders like those in
 * site.ts. Every fact that a setting or the code decides comes in from there, never as typed
 * text: the deployment's settings (how long a message is kept, the AWS region, the visitor
 * limit's window) as arguments from the build, which reads them from the stack's own settings;
 * the rest (the backups, the access logs, the idempotency records, the networks counted) from
 * the constants the stack and the function use. Each such fact is a piece the page marks
 * (data-*), so the synth can refuse a build that states another value (infra/lib/stated-facts.ts).
 * What the form collects comes from the contact-field list.
 */
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames, IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { placeholders } from '@site/core/placeholders';
import { CONTACT_REQUEST_LOG, type ContactRequestLogField } from '@site/core/log-lines';
import { DAY_ITEMS_KEPT_DAYS_AFTER, DIGEST_INTERVAL_MINUTES, STAMP_DIFFICULTY } from '@site/core/spam';
import { MESSAGE_TABLE } from '@site/core/table';
import { BUDGET_NETWORK_PREFIXES, IPV6_COUNTED_PREFIXES } from '@site/core/visitor-networks';
import { PATHS } from '../routes';
import { firm } from './site';

const { placeholder, left } = placeholders();

export const privacyContact = {
  /** Where visitors send requests about their data (access, correction, erasure…). */
  email: placeholder('privacy.email', 'privacy@example.nl'),
  /** The date the firm last reviewed this statement, as shown under its title. */
  lastUpdated: placeholder('privacy.lastUpdated', '1 januari 2026'),
  /**
   * The company that keeps the firm's mailbox, where every message arrives as an e-mail, and
   * where it keeps the e-mail, as it reads after "in" ('Nederland', 'de EER').
   */
  mailProvider: {
    name: placeholder('privacy.mailProvider.name', 'Voorbeeld Mail B.V.'),
    location: placeholder('privacy.mailProvider.location', 'Nederland'),
  },
} as const;

/**
 * The AWS regions in the European Economic Area (EER), where they are. The statement promises
 * storage within the EER; London and Zürich are outside it.
 */
const EEA_REGIONS: Readonly<Record<string, string>> = {
  'eu-west-1': 'Ierland',
  'eu-central-1': 'Duitsland (Frankfurt)',
  'eu-west-3': 'Frankrijk (Parijs)',
  'eu-north-1': 'Zweden (Stockholm)',
  'eu-south-1': 'Italië (Milaan)',
  'eu-south-2': 'Spanje (Aragón)',
};

/** Where an AWS region is, in Dutch; a region outside the EER would make the statement untrue. */
export function regionLocation(region: string): string {
  const location = EEA_REGIONS[region];
  if (location === undefined) {
    throw new Error(
      `The privacy statement says messages are stored in the EEA (EER), but the region is ${region}. ` +
        `Deploy to one of ${Object.keys(EEA_REGIONS).join(', ')}, or rewrite src/content/privacy.ts for storage outside the EEA.`,
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

const formatMinutes = (minutes: number) => (minutes === 1 ? '1 minuut' : `${minutes} minuten`);
const formatHours = (hours: number) => (hours === 1 ? '1 uur' : `${hours} uur`);

export interface Link {
  href: string;
  text: string;
}

/**
 * The facts the statement quotes that a setting or the code decides, each by name. The page
 * marks each as data-<name in kebab case> (data-retention-days="365"), where the synth reads it.
 */
export type FactName =
  'retentionDays' | 'awsRegion' | 'visitorWindowMinutes' | 'backupDays' | 'accessLogDays' | 'idempotencyHours' | 'spamRetentionDays';

/** A fact in a sentence: its value, for the check, and how the sentence says it. */
export interface Fact {
  fact: FactName;
  value: number | string;
  text: string;
}

export type Inline = string | Link | Fact;
/** What one kind of data is, why, on which basis, where and for how long: a row each. */
export interface DataRecord {
  /** The anchor of the record, within its section. */
  id: string;
  title: string;
  rows: { label: string; text: Inline[] | Inline[][] }[];
}
/** A paragraph is a run of inline pieces; a list is a run of items; a record is one kind of data. */
export type Block = { paragraph: Inline[] } | { list: Inline[][] } | { record: DataRecord };

export interface PrivacySection {
  /** The anchor of the section, linked from the page's table of contents. */
  id: string;
  title: string;
  blocks: Block[];
}

/** The deployment's settings the statement quotes: the build reads them from the stack's settings. */
export interface DeploymentFacts {
  retentionDays: number;
  region: string;
  /** The visitor limit's window. */
  visitorWindowMinutes: number;
  /** How long a message marked as spam is kept from then on. */
  spamRetentionDays: number;
}

/** The labels of a record's rows, in the order every record has them. */
export const RECORD_LABELS = {
  what: 'Wat',
  why: 'Waarom',
  basis: 'Grondslag',
  where: 'Waar',
  kept: 'Hoe lang',
} as const;

/** 'a', 'a en b', 'a, b en c'. */
function inDutch(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} en ${items.at(-1)}`;
}

/** The fields of the form that are (not) required, as a sentence names them: 'uw naam, uw e-mailadres en uw bericht'. */
function fieldsNamed(fields: FieldList, required: boolean): string {
  return inDutch(
    fieldNames(fields)
      .filter((name) => fields[name]!.required === required)
      .map((name) => fields[name]!.named.replace(/^./, (first) => first.toLocaleLowerCase('nl'))),
  );
}

const p = (...inline: Inline[]): Block => ({ paragraph: inline });
const list = (...items: (Inline | Inline[])[]): Block => ({ list: items.map((item) => (Array.isArray(item) ? item : [item])) });
const record = (id: string, title: string, rows: Record<keyof typeof RECORD_LABELS, Inline[] | Inline[][]>): Block => ({
  record: {
    id,
    title,
    rows: Object.entries(RECORD_LABELS).map(([key, label]) => ({ label, text: rows[key as keyof typeof RECORD_LABELS] })),
  },
});

export const privacyPage = {
  eyebrow: 'Privacy',
  title: 'Privacyverklaring',
  seo: {
    title: `Privacyverklaring | ${firm.name}`,
    description: `Hoe ${firm.name} omgaat met de gegevens die u via de website en het contactformulier deelt: welke gegevens, waarom, waar en hoe lang, en uw rechten.`,
  },
  lead: `${firm.name} gaat zorgvuldig om met uw persoonsgegevens. Hier leest u welke gegevens we verwerken als u deze website bezoekt of ons via het contactformulier een bericht verzendt, waarom we dat doen, hoe lang we ze bewaren en welke rechten u hebt.`,
  updatedLabel: 'Laatst bijgewerkt:',
  breadcrumb: { label: 'Kruimelpad', home: { href: PATHS.home, label: 'Home' } },
  tocLabel: 'Op deze pagina',
  summary: {
    title: 'In het kort',
    points: [
      'We verwerken wat u in het contactformulier invult en, om de website te beveiligen, uw IP-adres.',
      'Geen cookies, geen analytics en geen advertentienetwerken.',
      'De website bewaart uw gegevens binnen de Europese Economische Ruimte (EER). We verkopen ze nooit.',
      'U kunt uw gegevens inzien, laten corrigeren of laten verwijderen, voor zover de wet ons niet verplicht ze te bewaren.',
    ],
  },
} as const;

const { street, postalCode, city } = firm.address;
const postalAddress = `${firm.legalName}, ${street}, ${postalCode} ${city}`;
const privacyMail: Link = { href: `mailto:${privacyContact.email}`, text: privacyContact.email };
const supervisor: Link = { href: 'https://autoriteitpersoonsgegevens.nl', text: 'Autoriteit Persoonsgegevens' };
const mailProvider = privacyContact.mailProvider;

/** The facts the code decides, as the statement says them. */
const backups: Fact = {
  fact: 'backupDays',
  value: MESSAGE_TABLE.pointInTimeRecoveryDays,
  text: formatDays(MESSAGE_TABLE.pointInTimeRecoveryDays),
};
const accessLogs: Fact = { fact: 'accessLogDays', value: ACCESS_LOG_RETENTION_DAYS, text: formatDays(ACCESS_LOG_RETENTION_DAYS) };
const idempotencyHours = IDEMPOTENCY_TTL_SECONDS / 3600;
const idempotency: Fact = { fact: 'idempotencyHours', value: idempotencyHours, text: formatHours(idempotencyHours) };

/** How often the digest of held messages comes, as the statement says it (DIGEST_INTERVAL_MINUTES). */
export const digestEvery = DIGEST_INTERVAL_MINUTES === 60 ? 'elk uur' : `elke ${formatMinutes(DIGEST_INTERVAL_MINUTES)}`;

/** Until when the spam defence's per-day items live (DAY_ITEMS_KEPT_DAYS_AFTER). */
export const dayItemsKept =
  DAY_ITEMS_KEPT_DAYS_AFTER === 1
    ? 'tot het einde van de volgende dag (UTC)'
    : `tot het einde van de ${DAY_ITEMS_KEPT_DAYS_AFTER}e dag daarna (UTC)`;

/** Until when the record of a used challenge lives: the challenge's own lifetime (STAMP_DIFFICULTY). */
export const challengeMinutes = formatMinutes(STAMP_DIFFICULTY.expiresSeconds / 60);

/**
 * What each key of the contact request's log line holds, in the order the statement names
 * them: a key the code adds to CONTACT_REQUEST_LOG.fields does not compile until it is said here.
 */
export const LOGGED: Record<ContactRequestLogField, string> = {
  msg: 'het soort regel',
  outcome: 'de uitkomst (zoals doorgestuurd, aangehouden of geweigerd)',
  heldFor: 'waarom een bericht is aangehouden',
  messageId: 'het kenmerk van het bericht',
  level: 'of er iets misging',
  requestId: 'een technisch nummer van het verzoek',
  format: 'of het formulier met of zonder script werd verzonden',
  status: 'de code van het antwoord aan uw browser',
  durationMs: 'hoe lang de afhandeling duurde',
  attempts: 'hoe vaak de website het bericht per e-mail probeerde te bezorgen',
  error: 'bij een storing de naam van de fout',
  where: 'de plaats in de programmacode waar die optrad',
  crossSite: 'bij een geweigerd formulier de reden van die weigering',
  visitorLimit: 'of de teller per internetaansluiting kon worden toegepast',
};
CONTACT_REQUEST_LOG.fields satisfies readonly (keyof typeof LOGGED)[];

/** The legal bases, as the records name them. */
const BASIS = {
  interest: 'ons gerechtvaardigd belang',
  f: 'artikel 6, lid 1, onder f AVG',
  c: 'artikel 6, lid 1, onder c AVG',
} as const;

/** DynamoDB deletes what has expired some time later: AWS says within a few days. */
const deletedAfterwards = 'Daarna verwijdert de database het automatisch, doorgaans binnen enkele dagen.';

/** Who the controller is, and how to reach them about privacy. */
const controller: PrivacySection = {
  id: 'verantwoordelijke',
  title: 'Wie is verantwoordelijk?',
  blocks: [
    p(
      `${postalAddress}, ingeschreven bij de Kamer van Koophandel onder nummer ${firm.kvk}, is verantwoordelijk voor de verwerking van de persoonsgegevens in deze verklaring. Hebt u een vraag over privacy? Mail dan naar `,
      privacyMail,
      '.',
    ),
  ],
};

/** Every kind of data stored or logged about a visitor: what, why, on which basis, where and how long. */
function collected(facts: DeploymentFacts, fields: FieldList): PrivacySection {
  const retention: Fact = { fact: 'retentionDays', value: facts.retentionDays, text: formatDays(facts.retentionDays) };
  const region: Fact = { fact: 'awsRegion', value: facts.region, text: `${regionLocation(facts.region)} (AWS-regio ${facts.region})` };
  const window: Fact = { fact: 'visitorWindowMinutes', value: facts.visitorWindowMinutes, text: formatMinutes(facts.visitorWindowMinutes) };
  const spamRetention: Fact = { fact: 'spamRetentionDays', value: facts.spamRetentionDays, text: formatDays(facts.spamRetentionDays) };
  const optional = fieldsNamed(fields, false);
  const sameDatabase = 'In dezelfde database als uw bericht.';
  return {
    id: 'gegevens',
    title: 'Welke gegevens verwerken we, waarom en hoe lang?',
    blocks: [
      p(
        'Per soort gegevens staat hieronder wat we vastleggen, waarvoor, op welke grondslag van de Algemene verordening gegevensbescherming (AVG), waar het staat en hoe lang we het bewaren.',
      ),
      record('bericht', 'Uw bericht', {
        what: [
          [`${fieldsNamed(fields, true)};`],
          ...(optional === '' ? [] : [[`${optional}, indien ingevuld;`]]),
          ['de datum en het tijdstip waarop u het verzond, en een kenmerk: een uniek nummer voor uw bericht;'],
          ['of en wanneer het in onze mailbox is afgeleverd: de bezorgstatus, de tijdstippen en het antwoord van onze mailserver;'],
          ['hoe het op spam is beoordeeld (zie hieronder).'],
        ],
        why: ['Om uw bericht te lezen en te beantwoorden, en om na te gaan dat geen bericht onderweg verloren gaat.'],
        basis: [`${capitalised(BASIS.interest)} om berichten die aan ons gericht zijn te ontvangen en te beantwoorden (${BASIS.f}).`],
        where: ['In een database van Amazon Web Services (AWS) in ', region, ', versleuteld opgeslagen.'],
        kept: [retention, ` na ontvangst. ${deletedAfterwards} In de back-ups staat het daarna nog `, backups, '.'],
      }),
      record('mailbox', 'De e-mail in onze mailbox', {
        what: [
          `Een bericht komt als e-mail binnen in onze mailbox, met de gegevens hierboven. Houdt de website een bericht aan (zie De beoordeling op spam), dan komt het eerst in het overzicht van aangehouden berichten dat we ${digestEvery} per e-mail ontvangen, en op een beveiligde pagina waar een medewerker het leest; wordt het daar alsnog doorgestuurd, dan komt het ook als gewone e-mail binnen. Beantwoorden we het, dan staat ook die correspondentie in onze mailbox.`,
        ],
        why: ['Om uw vraag af te handelen.'],
        basis: [
          `${capitalised(BASIS.interest)} (${BASIS.f}). Volgt er een opdracht, dan bewaren we de correspondentie die bij onze administratie hoort omdat de wet dat van ons vraagt (${BASIS.c}).`,
        ],
        where: [`Bij onze e-mailprovider, ${mailProvider.name}, die onze e-mail bewaart in ${mailProvider.location}.`],
        kept: [
          'Zolang dat nodig is om uw vraag af te handelen. Volgt er een opdracht, dan zolang de wet dat vraagt, zoals de fiscale bewaarplicht van zeven jaar.',
        ],
      }),
      record('teller', 'De teller per internetaansluiting', {
        what: [
          `Om misbruik te beperken, telt de website hoeveel berichten er van één internetaansluiting komen. Daarvoor bewaren we niet uw IP-adres zelf, maar een code die er met een geheime sleutel van is afgeleid (een keyed hash, HMAC), met de kenmerken van de berichten die meetellen. Bij een IPv6-adres doen we dat voor het netwerk van uw aansluiting (de eerste ${IPV6_COUNTED_PREFIXES.visitor} bits, /${IPV6_COUNTED_PREFIXES.visitor}) en voor het grotere netwerk daaromheen (de eerste ${IPV6_COUNTED_PREFIXES.ipv6Network} bits, /${IPV6_COUNTED_PREFIXES.ipv6Network}). Omdat we de sleutel hebben, blijft die code een persoonsgegeven, ook al staat uw IP-adres er niet in. Op dezelfde manier tellen we hoe vaak uw browser de website om een rekenopgave vraagt (zie de beoordeling op spam).`,
        ],
        why: [
          'Om te voorkomen dat één afzender het formulier overspoelt: per aansluiting nemen we per ',
          window,
          ' maar een beperkt aantal berichten aan.',
        ],
        basis: [`${capitalised(BASIS.interest)} bij een formulier dat bruikbaar blijft (${BASIS.f}).`],
        where: [sameDatabase],
        kept: ['Tot het einde van het tijdvak van ', window, ` waarin u uw bericht verzond. ${deletedAfterwards}`],
      }),
      record('spam', 'De beoordeling op spam', {
        what: [
          [
            'Bij elk bericht slaan we op hoe het op spam is beoordeeld: een score en de kenmerken die eraan bijdroegen, zoals hoe snel het formulier werd ingevuld, of er webadressen in staan en of uw browser het rekenwerk heeft gedaan dat de website ongemerkt laat uitvoeren terwijl u typt (een zogeheten proof of work, van onze eigen website). Ook of en waarom het bericht is aangehouden.',
          ],
          [
            'Om te herkennen dat dezelfde tekst van meerdere internetaansluitingen komt, bewaren we per dag een code die met een geheime sleutel van de tekst is afgeleid (een keyed hash), met zulke codes van de aansluitingen. Uw tekst, uw IP-adres en het kenmerk van uw bericht staan er niet in.',
          ],
          [
            'Van het rekenwerk bewaren we welk bericht het heeft gebruikt, zodat het niet nog een keer kan worden gebruikt. De opgave die uw browser daarvoor krijgt, bevat een code die met een geheime sleutel van het netwerk van uw IP-adres is afgeleid, zodat ze alleen vanaf dat netwerk geldt; die code bewaren we niet.',
          ],
          [
            `Om te voorkomen dat berichten uit één netwerk alle ruimte in onze mailbox opgebruiken, tellen we per dag hoeveel berichten uit het netwerk van uw IP-adres ons al per e-mail bereikten: de eerste ${BUDGET_NETWORK_PREFIXES.ipv4.network} en de eerste ${BUDGET_NETWORK_PREFIXES.ipv4.wider} bits van een IPv4-adres, de eerste ${BUDGET_NETWORK_PREFIXES.ipv6.network} en de eerste ${BUDGET_NETWORK_PREFIXES.ipv6.wider} bits van een IPv6-adres. Daarvoor bewaren we een code die met een geheime sleutel van het netwerk is afgeleid (een keyed hash), met alleen die aantallen.`,
          ],
        ],
        why: [
          `Om te voorkomen dat een golf van spam onze mailbox overspoelt, zonder dat er een bericht verloren gaat. De website beslist automatisch, op de kenmerken hierboven, of een bericht meteen als e-mail wordt doorgestuurd of wordt aangehouden: als het verdacht lijkt, of als het binnenkomt terwijl er in korte tijd meer berichten komen dan de website per uur doorstuurt. Een aangehouden bericht weigeren we niet en gooien we niet weg: we bewaren het. We ontvangen dan ${digestEvery} een overzicht, en een medewerker leest elk aangehouden bericht en beslist zelf of het echt is. Voor u betekent het alleen dat ons antwoord later kan komen. We schakelen hiervoor geen andere partij in.`,
        ],
        basis: [
          `${capitalised(BASIS.interest)} bij een formulier dat bruikbaar blijft en een mailbox die niet overspoeld raakt (${BASIS.f}).`,
        ],
        where: [sameDatabase],
        kept: [
          ['De beoordeling: zolang uw bericht, ', retention, ' na ontvangst.'],
          [
            'Markeren we een aangehouden bericht als spam, dan bewaren we het met alles wat erbij hoort nog ',
            spamRetention,
            ` vanaf dat moment, of korter als de gewone bewaartermijn eerder afloopt. ${deletedAfterwards}`,
          ],
          [`De code van de tekst en de aantallen per netwerk: ${dayItemsKept}.`],
          [`Het gebruik van het rekenwerk: ${challengeMinutes} nadat de website de opgave gaf.`],
        ],
      }),
      record('dubbel', 'De controle op dubbel verzenden', {
        what: [
          'Verzendt uw browser hetzelfde bericht twee keer, bijvoorbeeld na een haperende verbinding, dan komt het maar één keer bij ons aan. Daarvoor bewaren we een code die met een geheime sleutel van de inhoud van het formulier is afgeleid (een keyed hash), met het kenmerk van uw bericht. Uw tekst zelf staat er niet in.',
        ],
        why: ['Om te voorkomen dat hetzelfde bericht twee keer wordt opgeslagen en bezorgd.'],
        basis: [`${capitalised(BASIS.interest)} bij een betrouwbaar formulier (${BASIS.f}).`],
        where: [sameDatabase],
        kept: [idempotency, ` na het verzenden. ${deletedAfterwards}`],
      }),
      record('toegangslogboeken', 'Toegangslogboeken', {
        what: [
          'Bij elk bezoek aan de website ontvangt onze hostingprovider, zoals bij iedere website, technische gegevens van uw browser: uw IP-adres, het tijdstip, de opgevraagde pagina met wat er in het adres na het vraagteken staat, de pagina waar u vandaan kwam (de verwijzer) en het type browser. Deze gegevens komen in toegangslogboeken.',
        ],
        why: ['Om de website veilig en bereikbaar te houden en misbruik op te sporen, zoals aanvallen of spam via het formulier.'],
        basis: [`${capitalised(BASIS.interest)} bij een veilige website (${BASIS.f}).`],
        where: ['Bij AWS in ', region, '.'],
        kept: [accessLogs, ', daarna worden ze automatisch verwijderd.'],
      }),
      record('logboeken', 'Technische logboeken', {
        what: [
          `Van elk verzonden formulier legt de website in één regel vast wanneer het binnenkwam, ${inDutch(Object.values(LOGGED))}. Uw naam, e-mailadres, bericht, IP-adres en de beoordeling op spam (de score en de kenmerken) staan er niet in.`,
        ],
        why: ['Om storingen op te sporen en te zien dat elk bericht wordt bezorgd.'],
        basis: [`${capitalised(BASIS.interest)} bij een website die werkt (${BASIS.f}).`],
        where: ['Bij AWS in ', region, '.'],
        kept: [retention, ', daarna worden ze automatisch verwijderd.'],
      }),
      record('back-ups', 'Back-ups', {
        what: ['Van de database met de berichten, de tellers en de controles op dubbel verzenden maakt AWS doorlopend back-ups.'],
        why: ['Om berichten terug te kunnen zetten na een storing of een vergissing.'],
        basis: [`${capitalised(BASIS.interest)} (${BASIS.f}).`],
        where: ['Bij AWS in ', region, ', alleen bereikbaar voor wie de website beheert.'],
        kept: [
          'Een back-up gaat ',
          backups,
          ' terug. Wat uit de database verdwijnt, staat dus nog zo lang in de back-ups; we gebruiken het daar nergens voor.',
        ],
      }),
      p(
        'We gebruiken uw gegevens niet voor nieuwsbrieven of andere marketing en verkopen ze niet. Dat de website een bericht automatisch aanhoudt, is geen besluit over u: een medewerker leest elk aangehouden bericht en beslist zelf. Andere automatische beslissingen over u neemt de website niet.',
      ),
    ],
  };
}

function capitalised(text: string): string {
  return text.replace(/^./, (first) => first.toLocaleUpperCase('nl'));
}

const noTracking: PrivacySection = {
  id: 'cookies',
  title: 'Geen cookies, geen tracking',
  blocks: [
    p(
      'Deze website plaatst geen cookies en gebruikt geen analyse-, advertentie- of socialemediadiensten. Alles wat de website laadt, komt van ons eigen domein: behalve onze hostingprovider ziet geen andere partij uw bezoek.',
    ),
  ],
};

/** Article 13(2)(e) AVG: whether the visitor must provide the data, and what follows if not. */
function required(fields: FieldList): PrivacySection {
  const optional = fieldsNamed(fields, false);
  return {
    id: 'verplicht',
    title: 'Bent u verplicht uw gegevens te geven?',
    blocks: [
      p(
        `Nee. U kiest zelf of u ons een bericht verzendt. Zonder ${fieldsNamed(fields, true)} kunnen we uw bericht niet beantwoorden, daarom vraagt het formulier die.${
          optional === '' ? '' : ` ${capitalised(optional)} mag u weglaten.`
        } Zonder IP-adres kan uw browser geen website laden, dus dat ontvangt onze hostingprovider bij elk bezoek.`,
      ),
    ],
  };
}

const recipients: PrivacySection = {
  id: 'ontvangers',
  title: 'Wie ontvangt uw gegevens?',
  blocks: [
    p(
      `Uw bericht is alleen bestemd voor ${firm.name}. Deze partijen verwerken gegevens in onze opdracht, als verwerker, op grond van een verwerkersovereenkomst, en mogen ze niet voor eigen doeleinden gebruiken:`,
    ),
    list(
      'Amazon Web Services EMEA SARL (Luxemburg), onderdeel van het Amerikaanse Amazon.com, Inc. (AWS): AWS host de website, bewaart uw bericht en bezorgt het per e-mail bij ons (Amazon SES);',
      `${mailProvider.name}: onze e-mailprovider, die onze mailbox beheert.`,
    ),
    p('We verkopen uw gegevens niet en geven ze niet aan anderen, tenzij de wet ons daartoe verplicht.'),
  ],
};

/** Transfers outside the EER: CloudFront's edges, and AWS's US parent. */
const transfers: PrivacySection = {
  id: 'doorgifte',
  title: 'Gegevens buiten de Europese Economische Ruimte',
  blocks: [
    p(
      'De website bewaart uw gegevens binnen de Europese Economische Ruimte (EER). De pagina’s worden wel geleverd via Amazon CloudFront, het netwerk van AWS, vanaf servers in Europa, Noord-Amerika en Israël. Meestal is dat een server dicht bij u, maar ook als u in de EER bent, kan een server buiten de EER uw bezoek verwerken, met uw IP-adres; een bericht dat u verzendt, gaat dan versleuteld via die server naar de database.',
    ),
    p(
      'AWS hoort bij het Amerikaanse Amazon.com, Inc. Verwerkt AWS gegevens in de Verenigde Staten, dan is dat toegestaan omdat Amazon zich heeft aangesloten bij het EU-VS Data Privacy Framework, waarvan de Europese Commissie heeft vastgesteld dat het een passend beschermingsniveau biedt. Daarnaast gelden de standaardcontractbepalingen van de Europese Commissie, die in onze overeenkomst met AWS zijn opgenomen.',
    ),
    p('De verbinding met de website is altijd versleuteld (https) en uw bericht wordt versleuteld opgeslagen.'),
  ],
};

const rights: PrivacySection = {
  id: 'rechten',
  title: 'Uw rechten',
  blocks: [
    p('U hebt het recht om:'),
    list(
      'uw gegevens in te zien;',
      'onjuiste gegevens te laten corrigeren;',
      'uw gegevens te laten verwijderen;',
      'het gebruik van uw gegevens te laten beperken;',
      'bezwaar te maken tegen het gebruik van uw gegevens op grond van ons gerechtvaardigd belang.',
    ),
    p(
      'Wilt u de gegevens die u ons gaf in een gangbaar bestandsformaat ontvangen, dan krijgt u ze ook van ons. Dat is geen wettelijk recht bij deze gegevens (artikel 20 AVG geldt niet voor gegevens die we op grond van ons gerechtvaardigd belang of een wettelijke plicht verwerken), maar we doen het wel.',
    ),
    p(
      'Vraagt u ons uw gegevens te verwijderen, dan doen we dat zonder onnodige vertraging: uw berichten, de tellers en de controles op dubbel verzenden die erbij horen, en de e-mails in onze mailbox, de overzichten van aangehouden berichten daarin meegerekend. Dat geldt niet voor gegevens die we volgens de wet moeten bewaren, zoals de correspondentie over een opdracht voor de fiscale bewaarplicht, of die we nodig hebben voor een rechtsvordering (artikel 17, lid 3 AVG). In de back-ups blijven verwijderde gegevens nog ',
      backups,
      ' staan; we gebruiken ze daar nergens voor, en zetten we ooit een back-up terug, dan verwijderen we ze opnieuw.',
    ),
    p(
      'Maakt u bezwaar, dan stoppen we met het gebruik van uw gegevens, tenzij we dwingende redenen hebben die zwaarder wegen dan uw belang, of de gegevens nodig hebben voor een rechtsvordering (artikel 21 AVG).',
    ),
  ],
};

/** How to exercise those rights, and where to complain. */
const requests: PrivacySection = {
  id: 'verzoek',
  title: 'Zo oefent u uw rechten uit',
  blocks: [
    p(
      'Mail uw verzoek naar ',
      privacyMail,
      ` of schrijf ons: ${postalAddress}. We reageren binnen een maand en het kost u niets. Om zeker te weten dat het verzoek van u komt, kunnen we u vragen het te bevestigen vanaf het e-mailadres waarmee u ons schreef. Vraagt u om inzage, dan krijgt u een overzicht in gewoon Nederlands van alles wat we van u hebben opgeslagen, met een bestand dat u in andere programma’s kunt gebruiken.`,
    ),
    p(
      'Bent u niet tevreden over hoe we met uw gegevens omgaan? Laat het ons weten, dan zoeken we samen naar een oplossing. U hebt ook altijd het recht een klacht in te dienen bij de ',
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
export function privacySections(facts: DeploymentFacts, fields: FieldList = CONTACT_FIELDS): PrivacySection[] {
  return [controller, collected(facts, fields), noTracking, required(fields), recipients, transfers, rights, requests, changes];
}

/** Every record of the statement (one kind of data each), by id: what the access answer quotes. */
export function dataRecords(facts: DeploymentFacts, fields: FieldList = CONTACT_FIELDS): Record<string, DataRecord> {
  const blocks = privacySections(facts, fields).flatMap((section) => section.blocks);
  return Object.fromEntries(blocks.flatMap((block) => ('record' in block ? [[block.record.id, block.record]] : [])));
}

/** A run of pieces as plain text. */
export function inlineText(pieces: readonly Inline[]): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text)).join('');
}

/** The facts above still written as placeholder(…): a `prod` deploy refuses while any is left (see index.ts). */
export const PLACEHOLDERS = left;
