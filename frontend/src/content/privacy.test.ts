import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import { CONTACT_REQUEST_LOG } from '@site/core/log-lines';
import { DAY_ITEMS_KEPT_DAYS_AFTER, DIGEST_INTERVAL_MINUTES, STAMP_DIFFICULTY } from '@site/core/spam';
import { MESSAGE_TABLE } from '@site/core/table';
import { IPV6_COUNTED_PREFIXES } from '@site/core/visitor-networks';
import { describe, expect, it } from 'vitest';
import {
  dataRecords,
  formatDays,
  LOGGED,
  inlineText,
  privacyContact,
  privacyPage,
  privacySections,
  RECORD_LABELS,
  regionLocation,
  type Block,
  type DeploymentFacts,
  type Fact,
  type Inline,
  type PrivacySection,
} from './privacy';
import { firm } from './site';

const FACTS: DeploymentFacts = { retentionDays: 365, region: 'eu-west-1', visitorWindowMinutes: 10, spamRetentionDays: 14 };

const isList = (text: Inline[] | Inline[][]): text is Inline[][] => text.every((piece) => Array.isArray(piece));
const recordText = (rows: { label: string; text: Inline[] | Inline[][] }[]) =>
  rows.map(({ label, text }) => `${label}: ${isList(text) ? text.map(inlineText).join('\n') : inlineText(text)}`);
const blockText = (block: Block) =>
  'paragraph' in block
    ? inlineText(block.paragraph)
    : 'list' in block
      ? block.list.map(inlineText).join('\n')
      : [block.record.title, ...recordText(block.record.rows)].join('\n');
const sectionText = (section: PrivacySection) => section.blocks.map(blockText).join('\n');

function statement(facts: DeploymentFacts = FACTS) {
  const sections = privacySections(facts);
  const byId = (id: string) => sectionText(sections.find((section) => section.id === id)!);
  const pieces = sections
    .flatMap((section) => section.blocks)
    .flatMap((block): Inline[] =>
      'paragraph' in block
        ? block.paragraph
        : 'list' in block
          ? block.list.flat()
          : block.record.rows.flatMap(({ text }) => text.flatMap((piece) => (Array.isArray(piece) ? piece : [piece]))),
    );
  const facts_ = pieces.filter((piece): piece is Fact => typeof piece === 'object' && 'fact' in piece);
  return { sections, byId, pieces, facts: facts_, all: sections.map(sectionText).join('\n') };
}

describe('formatDays', () => {
  it('counts days as the stack does, and adds whole years where the days make whole years', () => {
    expect(formatDays(1)).toBe('1 dag');
    expect(formatDays(30)).toBe('30 dagen');
    expect(formatDays(90)).toBe('90 dagen');
    expect(formatDays(365)).toBe('365 dagen (1 jaar)');
    expect(formatDays(400)).toBe('400 dagen');
    expect(formatDays(545)).toBe('545 dagen');
    expect(formatDays(731)).toBe('731 dagen (2 jaar)');
    expect(formatDays(1827)).toBe('1827 dagen (5 jaar)');
    expect(formatDays(3653)).toBe('3653 dagen (10 jaar)');
  });
});

describe('regionLocation', () => {
  it('names the regions in the EER in Dutch', () => {
    expect(regionLocation('eu-west-1')).toBe('Ierland');
    expect(regionLocation('eu-central-1')).toBe('Duitsland (Frankfurt)');
  });

  it('refuses a region outside the EER (London, Zürich, the US), where the statement would be untrue', () => {
    expect(() => regionLocation('us-east-1')).toThrow(/stored in the EEA \(EER\), but the region is us-east-1/);
    expect(() => privacySections({ ...FACTS, region: 'eu-west-2' })).toThrow(/eu-west-2/);
    expect(() => regionLocation('eu-central-2')).toThrow(/eu-central-2/);
  });
});

describe('privacy statement', () => {
  it('names the controller with its legal name, address, KvK number and privacy contact', () => {
    const text = statement().byId('verantwoordelijke');
    for (const fact of [firm.legalName, firm.address.street, firm.address.city, firm.kvk, privacyContact.email])
      expect(text).toContain(fact);
  });

  it('describes every kind of data stored or logged about a visitor with what, why, basis, where and how long', () => {
    const records = dataRecords(FACTS);
    expect(Object.keys(records)).toEqual(['bericht', 'mailbox', 'teller', 'spam', 'dubbel', 'toegangslogboeken', 'logboeken', 'back-ups']);
    for (const record of Object.values(records)) {
      expect(record.rows.map((row) => row.label)).toEqual(Object.values(RECORD_LABELS));
      for (const row of record.rows) expect(row.text.length, `${record.id} ${row.label}`).toBeGreaterThan(0);
    }
  });

  it('lists exactly what the form collects, from the field list, and what the delivery adds', () => {
    const text = statement().byId('gegevens');
    expect(text).toContain(
      'Wat: uw naam, uw e-mailadres en uw bericht;\nuw telefoonnummer en de bedrijfsnaam, indien ingevuld;\nde datum en het tijdstip waarop u het verzond',
    );
    expect(text).toContain('de bezorgstatus, de tijdstippen en het antwoord van onze mailserver');
    const withOneMore = privacySections(FACTS, {
      ...CONTACT_FIELDS,
      website: { ...CONTACT_FIELDS.company, named: 'Uw website' },
    })[1]!;
    expect(sectionText(withOneMore)).toContain('uw telefoonnummer, de bedrijfsnaam en uw website, indien ingevuld;');
  });

  it('rests on legitimate interest, article 6(1)(f), with the legal duty for an assignment’s records; never on (b)', () => {
    const { byId } = statement();
    const text = byId('gegevens');
    for (const record of Object.values(dataRecords(FACTS))) {
      expect(inlineText(record.rows.find((row) => row.label === RECORD_LABELS.basis)!.text as Inline[])).toContain(
        'artikel 6, lid 1, onder f AVG',
      );
    }
    expect(text).toContain('artikel 6, lid 1, onder c AVG');
    expect(statement().all).not.toContain('onder b');
  });

  it('says what is hashed: not the IP address but a keyed hash of it, IPv6 by the prefixes the function counts', () => {
    const text = statement().byId('gegevens');
    expect(text).toContain('niet uw IP-adres zelf, maar een code die er met een geheime sleutel van is afgeleid (een keyed hash, HMAC)');
    expect(text).toContain(`/${IPV6_COUNTED_PREFIXES.visitor})`);
    expect(text).toContain(`/${IPV6_COUNTED_PREFIXES.ipv6Network})`);
    expect(text).toContain('Uw tekst zelf staat er niet in.');
  });

  it('quotes every fact a setting or the code decides as a marked piece with its value', () => {
    for (const facts of [FACTS, { retentionDays: 30, region: 'eu-central-1', visitorWindowMinutes: 60, spamRetentionDays: 7 }]) {
      const stated = statement(facts).facts;
      const values = (name: Fact['fact']) => [...new Set(stated.filter((fact) => fact.fact === name).map((fact) => fact.value))];
      expect(values('retentionDays')).toEqual([facts.retentionDays]);
      expect(values('awsRegion')).toEqual([facts.region]);
      expect(values('visitorWindowMinutes')).toEqual([facts.visitorWindowMinutes]);
      expect(values('backupDays')).toEqual([MESSAGE_TABLE.pointInTimeRecoveryDays]);
      expect(values('accessLogDays')).toEqual([ACCESS_LOG_RETENTION_DAYS]);
      expect(values('idempotencyHours')).toEqual([IDEMPOTENCY_TTL_SECONDS / 3600]);
      expect(values('spamRetentionDays')).toEqual([facts.spamRetentionDays]);
    }
    const text = statement().byId('gegevens');
    expect(text).toContain('Hoe lang: 365 dagen (1 jaar) na ontvangst.');
    expect(text).toContain(`Hoe lang: ${ACCESS_LOG_RETENTION_DAYS} dagen, daarna worden ze automatisch verwijderd.`);
    expect(text).toContain('Tot het einde van het tijdvak van 10 minuten waarin u uw bericht verzond.');
  });

  it('names the deletion delay and the backups wherever data expires', () => {
    const records = dataRecords(FACTS);
    for (const id of ['bericht', 'teller', 'dubbel']) {
      expect(recordText(records[id]!.rows).join('\n')).toContain('doorgaans binnen enkele dagen');
    }
    expect(recordText(records.bericht!.rows).join('\n')).toContain(
      `In de back-ups staat het daarna nog ${MESSAGE_TABLE.pointInTimeRecoveryDays} dagen.`,
    );
  });

  it('says where the data is stored: AWS in the deployment’s region, within the EER', () => {
    expect(statement().byId('gegevens')).toContain('Amazon Web Services (AWS) in Ierland (AWS-regio eu-west-1)');
    expect(statement({ ...FACTS, region: 'eu-central-1' }).byId('gegevens')).toContain('in Duitsland (Frankfurt) (AWS-regio eu-central-1)');
    // Storage is promised in the EER; the EU appears only in the name of the EU–US framework.
    expect(statement().all).not.toMatch(/Europese Unie|\bEU\b(?!-VS)/);
    expect(statement().byId('doorgifte')).toContain('Europese Economische Ruimte (EER)');
  });

  it('names every recipient: the firm, AWS with its US parent, and the firm’s own mail provider', () => {
    const text = statement().byId('ontvangers');
    expect(text).toContain(`alleen bestemd voor ${firm.name}`);
    expect(text).toContain('Amazon Web Services EMEA SARL (Luxemburg), onderdeel van het Amerikaanse Amazon.com, Inc.');
    expect(text).toContain(`${privacyContact.mailProvider.name}: onze e-mailprovider`);
    expect(statement().byId('gegevens')).toContain(
      `Bij onze e-mailprovider, ${privacyContact.mailProvider.name}, die onze e-mail bewaart in ${privacyContact.mailProvider.location}.`,
    );
  });

  it('covers transfers outside the EER: CloudFront’s servers and the EU–US Data Privacy Framework', () => {
    const text = statement().byId('doorgifte');
    expect(text).toContain('Amazon CloudFront');
    expect(text).toContain('EU-VS Data Privacy Framework');
    expect(text).toContain('standaardcontractbepalingen');
  });

  it('says whether the data must be given (article 13(2)(e)): the required fields from the field list', () => {
    const text = statement().byId('verplicht');
    expect(text).toContain('Zonder uw naam, uw e-mailadres en uw bericht kunnen we uw bericht niet beantwoorden');
    expect(text).toContain('Uw telefoonnummer en de bedrijfsnaam mag u weglaten.');
  });

  it('lists the rights with the limits of erasure (article 17(3)) and the right to object', () => {
    const { byId, sections } = statement();
    const rights = byId('rechten');
    for (const right of ['in te zien', 'te laten corrigeren', 'te laten verwijderen', 'bezwaar te maken']) expect(rights).toContain(right);
    expect(rights).toContain('artikel 17, lid 3 AVG');
    expect(rights).toContain('fiscale bewaarplicht');
    expect(rights).toContain(`In de back-ups blijven verwijderde gegevens nog ${MESSAGE_TABLE.pointInTimeRecoveryDays} dagen staan`);
    expect(rights).toContain('artikel 21 AVG');
    expect(privacyPage.summary.points.join(' ')).not.toMatch(/altijd/);
    expect(byId('verzoek')).toContain(`Mail uw verzoek naar ${privacyContact.email}`);
    const links = sections.flatMap((s) => s.blocks).flatMap((b) => ('paragraph' in b ? b.paragraph : 'list' in b ? b.list.flat() : []));
    expect(links).toContainEqual({ href: `mailto:${privacyContact.email}`, text: privacyContact.email });
    expect(links).toContainEqual({ href: 'https://autoriteitpersoonsgegevens.nl', text: 'Autoriteit Persoonsgegevens' });
  });

  it('never claims that only what the visitor typed is processed: the summary names the IP address', () => {
    expect(statement().all).not.toContain('alleen wat u zelf');
    expect(privacyPage.summary.points[0]).toContain('IP-adres');
  });

  it('gives every section and record a unique anchor and a title', () => {
    const ids = [...statement().sections.map((section) => section.id), ...Object.keys(dataRecords(FACTS))];
    expect(new Set(ids).size).toBe(ids.length);
    for (const section of statement().sections) expect(section.title.length).toBeGreaterThan(3);
  });
});

describe('what the statement says the code decides (lambda/test/statement-facts.test.ts checks the code keeps to it)', () => {
  const records = dataRecords(FACTS);
  const text = (id: string) => recordText(records[id]!.rows).join('\n');

  it('says the firm gets an overview of held messages as often as the digest comes: "elk uur een overzicht"', () => {
    expect(DIGEST_INTERVAL_MINUTES).toBe(60);
    expect(text('spam')).toContain('We ontvangen dan elk uur een overzicht, en een medewerker leest elk aangehouden bericht');
    expect(text('mailbox')).toContain('het overzicht van aangehouden berichten dat we elk uur per e-mail ontvangen');
  });

  it('says a text’s code and the counts per network live to the end of the next day (UTC), and a used challenge as long as the challenge', () => {
    expect(DAY_ITEMS_KEPT_DAYS_AFTER).toBe(1);
    expect(text('spam')).toContain('De code van de tekst en de aantallen per netwerk: tot het einde van de volgende dag (UTC).');
    expect(STAMP_DIFFICULTY.expiresSeconds).toBe(15 * 60);
    expect(text('spam')).toContain('Het gebruik van het rekenwerk: 15 minuten nadat de website de opgave gaf.');
  });

  it('names what every key of the contact request’s log line holds, and what it never holds', () => {
    expect(Object.keys(LOGGED).sort()).toEqual([...CONTACT_REQUEST_LOG.fields].sort());
    const logs = text('logboeken');
    for (const words of Object.values(LOGGED)) expect(logs).toContain(words);
    expect(logs).toContain(
      'Uw naam, e-mailadres, bericht, IP-adres en de beoordeling op spam (de score en de kenmerken) staan er niet in.',
    );
    expect(logs).not.toMatch(/\bscore\b(?! en de kenmerken\))/);
  });
});
