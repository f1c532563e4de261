import { describe, expect, it } from 'vitest';
import contentGuide from '../../../docs/content.md?raw';
import {
  about,
  contact,
  contactForm,
  expertise,
  errorScreen,
  firm,
  footer,
  formResults,
  hero,
  nav,
  notFound,
  phoneHref,
  sectionIds,
  services,
  servicesSection,
  SITE_ORIGIN,
} from './site';
import { privacyContact, privacyPage, privacySections } from './privacy';
import * as siteContent from './site';

describe('site content', () => {
  it('has the three services with ids 1 to 3, each with a description, an icon and five features', () => {
    expect(services.map((s) => [s.id, s.title])).toEqual([
      [1, 'Management Consulting'],
      [2, 'Management Advisering'],
      [3, 'Interim Management'],
    ]);
    for (const service of services) {
      expect(service.description.length).toBeGreaterThan(40);
      expect(service.icon).toBeTruthy();
      expect(service.features).toHaveLength(5);
      expect(new Set(service.features).size).toBe(5);
    }
  });

  it('lists the 16 expertise terms in the order of the spec', () => {
    expect(expertise).toEqual([
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
    ]);
  });

  it('uses the exact wording of the spec', () => {
    expect(nav.links.map((l) => [l.label, l.href])).toEqual([
      ['Home', '#home'],
      ['Over ons', '#about'],
      ['Diensten', '#services'],
      ['Contact', '#contact'],
    ]);
    expect(Object.values(sectionIds)).toEqual(['home', 'about', 'services', 'contact']);
    expect(hero.badge).toBe('Controlling Business');
    expect(`${hero.headline.lead} ${hero.headline.accent}`).toBe('Finance Professionals Met een streepje voor');
    expect(hero.primaryCta).toEqual({ href: '#contact', label: 'Neem contact op' });
    expect(hero.secondaryCta).toEqual({ href: '#services', label: 'Onze diensten' });
    expect(hero.scrollDown).toEqual({ href: '#about', label: 'Scroll down' });
    expect(about.headline).toBe('Professioneel advies en ondersteuning voor uw bedrijf');
    expect(about.intro).toMatch(/one-stop-shop voor Finance, IT, Governance en bedrijfsoptimalisatie/);
    expect(about.cards.map((c) => c.title)).toEqual(['Verandermanager', 'Procesmanager', 'Projectmanager']);
    expect(about.philosophy.title).toBe('Onze filosofie');
    expect(servicesSection.cta).toEqual({ href: '#contact', label: 'Vraag meer informatie aan' });
    expect(servicesSection.why.headline).toBe(`Waarom ${firm.name} kiezen?`);
    expect(servicesSection.why.points.map((p) => p.title)).toEqual(['Expertise', 'Snelheid', 'Betrokkenheid', 'Kwaliteit']);
    expect(contact.expertiseLabel).toBe('Onze expertise omvat:');
    expect(contactForm.title).toBe('Stuur ons een bericht');
    expect(contactForm.messages).toEqual({
      required: 'Vul alle verplichte velden in.',
      sending: 'Uw bericht wordt verzonden...',
      success: 'Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.',
      failure: 'Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.',
    });
    expect(footer).toMatchObject({
      tagline: 'Management Consulting - Management Advisering - Interim Management',
      rights: 'Alle rechten voorbehouden',
    });
    expect(notFound.headline).toBe('Oops! Page not found');
    expect(notFound.homeLink).toEqual({ href: '/', label: 'Return to Home' });
    expect(errorScreen.headline).toBe('Unexpected Application Error!');
  });

  it('has the firm in Apeldoorn with a valid e-mail, a dialable phone link and an https origin', () => {
    expect(firm.address.city).toBe('Apeldoorn');
    expect(firm.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(phoneHref).toMatch(/^tel:\+\d{9,15}$/);
    expect(new URL(SITE_ORIGIN).protocol).toBe('https:');
    expect(SITE_ORIGIN.endsWith('/')).toBe(false);
  });

  it('has a KvK number of eight digits and a Dutch btw-id (NL, nine digits, B, two digits)', () => {
    expect(firm.kvk).toMatch(/^\d{8}$/);
    expect(firm.vatId).toMatch(/^NL\d{9}B\d{2}$/);
  });

  it('says the visitor limit in the same words in the toast and on the no-script page, the page’s time as the longest wait', () => {
    const toast = contactForm.limited.again(8);
    const page = formResults.limited.again(10);
    expect(toast).toBe('U hebt in korte tijd het maximale aantal berichten verstuurd. U kunt over 8 minuten weer een bericht sturen.');
    expect(page).toBe(
      'U hebt in korte tijd het maximale aantal berichten verstuurd. U kunt uiterlijk over 10 minuten weer een bericht sturen.',
    );
    expect(contactForm.limited.again(undefined)).toMatch(/^U hebt in korte tijd .* U kunt over enkele minuten weer een bericht sturen\.$/);
    // The visitor's own limit, not a fault: the spec's failure text says something went wrong, this line does not.
    expect(formResults.limited.text).toBe(contactForm.messages.failure);
    for (const line of [toast, page]) expect(line).not.toMatch(/fout|storing|mis/);
  });

  it('links the privacy statement from the form note and the footer', () => {
    expect(contactForm.privacyLink.href).toBe('/privacy');
    expect(footer.privacyLink.href).toBe('/privacy');
  });
});

describe('the Dutch copy', () => {
  /** Every text of the site's content modules, functions called with a sample value. */
  const texts = (value: unknown): string[] => {
    if (typeof value === 'string') return [value];
    if (typeof value === 'function') return texts((value as (n: number) => unknown)(7));
    if (Array.isArray(value)) return value.flatMap(texts);
    if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
    return [];
  };
  const all = [
    ...texts(Object.values(siteContent)),
    ...texts(privacySections({ retentionDays: 365, region: 'eu-west-1' })),
    ...texts(privacyPage),
  ];

  it('says “we”, never “wij”, as the spec’s own success message does', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((text) => /\bwij\b/i.test(text))).toEqual([]);
    expect(contactForm.messages.success).toMatch(/^Uw bericht is verzonden! We /);
  });

  it('writes the disciplines Finance, IT and Governance one way, as the spec’s one-stop-shop sentence does', () => {
    expect(all.filter((text) => /\bgovernance\b|\bfinance\b(?! professional)/.test(text))).toEqual([]);
  });
});

describe('content placeholders', () => {
  it('lists every sample value the firm must replace, by key, as the content shows it', async () => {
    const { CONTENT_PLACEHOLDERS } = await import('./index');
    expect(Object.fromEntries(CONTENT_PLACEHOLDERS)).toEqual({
      SITE_ORIGIN,
      'firm.name': firm.name,
      'firm.address.street': firm.address.street,
      'firm.address.postalCode': firm.address.postalCode,
      'firm.email': firm.email,
      'firm.phone': firm.phone,
      'firm.legalName': firm.legalName,
      'firm.kvk': firm.kvk,
      'firm.vatId': firm.vatId,
      'privacy.email': privacyContact.email,
      'privacy.lastUpdated': privacyContact.lastUpdated,
    });
  });

  it('are all in the content guide’s table of sample facts to replace, by key with the sample value', async () => {
    const { CONTENT_PLACEHOLDERS } = await import('./index');
    const start = contentGuide.indexOf('\n## The sample facts to replace\n');
    expect(start, 'docs/content.md has a "## The sample facts to replace" section').toBeGreaterThan(-1);
    const end = contentGuide.indexOf('\n## ', start + 1);
    const section = contentGuide.slice(start, end === -1 ? undefined : end);
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    for (const [key, value] of CONTENT_PLACEHOLDERS) {
      expect(
        rows.some((row) => row.includes(`\`${key}\``) && row.includes(`\`${value}\``)),
        key,
      ).toBe(true);
    }
  });
});
