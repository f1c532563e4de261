import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { describe, expect, it } from 'vitest';
import { formatDays, privacyContact, privacySections, regionLocation, type Block, type Inline, type PrivacySection } from './privacy';
import { firm } from './site';

const inlineText = (pieces: Inline[]) => pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text)).join('');
const blockText = (block: Block) => ('paragraph' in block ? inlineText(block.paragraph) : block.list.map(inlineText).join('\n'));
const sectionText = (section: PrivacySection) => section.blocks.map(blockText).join('\n');

function statement(facts = { retentionDays: 365, region: 'eu-west-1' }) {
  const sections = privacySections(facts);
  const byId = (id: string) => sectionText(sections.find((section) => section.id === id)!);
  return { sections, byId, all: sections.map(sectionText).join('\n') };
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
  it('names the EU regions in Dutch', () => {
    expect(regionLocation('eu-west-1')).toBe('Ierland');
    expect(regionLocation('eu-central-1')).toBe('Duitsland (Frankfurt)');
  });

  it('refuses a region outside the EU, where the statement would be untrue', () => {
    expect(() => regionLocation('us-east-1')).toThrow(/stored in the EU, but the region is us-east-1/);
    expect(() => privacySections({ retentionDays: 365, region: 'eu-west-2' })).toThrow(/eu-west-2/);
  });
});

describe('privacy statement', () => {
  it('names the controller with its legal name, address, KvK number and privacy contact', () => {
    const text = statement().byId('verantwoordelijke');
    for (const fact of [firm.legalName, firm.address.street, firm.address.city, firm.kvk, privacyContact.email])
      expect(text).toContain(fact);
  });

  it('lists exactly what the form collects, and says there are no cookies or trackers', () => {
    const { byId } = statement();
    expect(byId('gegevens')).toContain(
      'uw naam, uw e-mailadres en uw bericht;\nuw telefoonnummer en de bedrijfsnaam, indien ingevuld;\nde datum en het tijdstip waarop u het verstuurde.',
    );
    expect(byId('gegevens')).toContain('IP-adres');
    expect(byId('cookies')).toContain('geen cookies');
    expect(byId('cookies')).toMatch(/geen analyse-, advertentie- of socialemediadiensten/);
  });

  it('gives the purposes with their legal basis under the AVG', () => {
    const text = statement().byId('doelen');
    expect(text).toContain('artikel 6, lid 1, onder b AVG');
    expect(text).toContain('artikel 6, lid 1, onder f AVG');
  });

  it('says where the data is stored: AWS in the deployment’s region, delivered through CloudFront', () => {
    expect(statement().byId('opslag')).toMatch(/Amazon Web Services \(AWS\).*in Ierland \(AWS-regio eu-west-1\), binnen de Europese Unie/);
    expect(statement().byId('opslag')).toContain('Amazon CloudFront');
    expect(statement({ retentionDays: 365, region: 'eu-central-1' }).byId('opslag')).toContain(
      'in Duitsland (Frankfurt) (AWS-regio eu-central-1)',
    );
  });

  it('states the retention the deployment uses, as one piece a check can read, and the access logs’ period', () => {
    for (const retentionDays of [30, 365, 731]) {
      const { sections, byId } = statement({ retentionDays, region: 'eu-west-1' });
      const retention = sections
        .flatMap((section) => section.blocks)
        .flatMap((block) => ('paragraph' in block ? block.paragraph : block.list.flat()))
        .filter((piece) => typeof piece === 'object' && 'retentionDays' in piece);
      expect(retention).toEqual([{ retentionDays, text: formatDays(retentionDays) }]);
      expect(byId('bewaartermijn')).toContain(`website ${formatDays(retentionDays)} na ontvangst`);
    }
    expect(statement().byId('bewaartermijn')).toContain(
      `Toegangslogboeken worden na ${ACCESS_LOG_RETENTION_DAYS} dagen automatisch verwijderd.`,
    );
  });

  it('names who receives the data: the firm, and AWS as its processor', () => {
    const text = statement().byId('ontvangers');
    expect(text).toContain(`alleen bestemd voor ${firm.name}`);
    expect(text).toContain('AWS verwerkt de gegevens als onze verwerker');
  });

  it('lists the visitor’s rights, how to exercise them by e-mail, and the complaint to the Autoriteit Persoonsgegevens', () => {
    const { byId, sections } = statement();
    const rights = byId('rechten');
    for (const right of ['in te zien', 'te laten corrigeren', 'te laten verwijderen', 'bezwaar te maken']) expect(rights).toContain(right);
    expect(byId('verzoek')).toContain(`Stuur een e-mail naar ${privacyContact.email}`);
    const links = sections.flatMap((s) => s.blocks).flatMap((b) => ('paragraph' in b ? b.paragraph : b.list.flat()));
    expect(links).toContainEqual({ href: `mailto:${privacyContact.email}`, text: privacyContact.email });
    expect(links).toContainEqual({ href: 'https://autoriteitpersoonsgegevens.nl', text: 'Autoriteit Persoonsgegevens' });
  });

  it('gives every section a unique anchor and a title', () => {
    const ids = statement().sections.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const section of statement().sections) expect(section.title.length).toBeGreaterThan(3);
  });
});
