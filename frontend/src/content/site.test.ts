import { describe, expect, it } from 'vitest';
import contentGuide from '../../../docs/content.md?raw';
import * as facts from '@site/core/content/firm';
import { factProblems } from '@site/core/node/content-check';
import { e164 } from '@site/core/notation';
import { CONTENT_FACTS } from '../../build/content-files';
import {
  about,
  contact,
  contactForm,
  emailHref,
  expertise,
  errorScreen,
  firm,
  footer,
  hero,
  nav,
  notFound,
  phoneHref,
  sectionIds,
  services,
  servicesSection,
} from './site';
import { formResults } from './form-results';
import { privacyContact, privacyPage, privacySections } from './privacy';
import * as siteContent from './site';

/** The spec's fixed texts (docs: the product spec, sections 2, 3, 8 and 9), copied here word for word. */
const SPEC = {
  services: ['Management Consulting', 'Management Advisering', 'Interim Management'],
  featuresPerService: 5,
  expertise: [
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
  ],
  nav: ['Home', 'Over ons', 'Diensten', 'Contact'],
  sections: ['home', 'about', 'services', 'contact'],
  badge: 'Controlling Business',
  headline: 'Finance Professionals Met een streepje voor',
  primaryCta: 'Neem contact op',
  secondaryCta: 'Onze diensten',
  scrollDown: 'Scroll down',
  aboutHeadline: 'Professioneel advies en ondersteuning voor uw bedrijf',
  aboutCards: ['Verandermanager', 'Procesmanager', 'Projectmanager'],
  philosophy: 'Onze filosofie',
  servicesCta: 'Vraag meer informatie aan',
  whyPoints: ['Expertise', 'Snelheid', 'Betrokkenheid', 'Kwaliteit'],
  expertiseLabel: 'Onze expertise omvat:',
  formTitle: 'Stuur ons een bericht',
  messages: {
    required: 'Vul alle verplichte velden in.',
    sending: 'Uw bericht wordt verzonden...',
    success: 'Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.',
    failure: 'Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.',
  },
  tagline: 'Management Consulting - Management Advisering - Interim Management',
  rights: 'Alle rechten voorbehouden',
  notFound: 'Oops! Page not found',
  homeLink: 'Return to Home',
  errorScreen: 'Unexpected Application Error!',
  city: 'Apeldoorn',
} as const;

describe('the rules of the spec', () => {
  it('has the three services of the spec, with ids 1 to 3, in its order', () => {
    expect(
      services.map((s) => [s.id, s.title]),
      'rule: three services, 1 Management Consulting, 2 Management Advisering, 3 Interim Management',
    ).toEqual(SPEC.services.map((title, i) => [i + 1, title]));
  });

  it.each(services.map((service) => [service.title, service] as const))(
    'gives %s a description, an icon and five different features',
    (_, service) => {
      expect(service.description.trim(), `rule: every service has a description (${service.title})`).not.toBe('');
      expect(service.icon, `rule: every service has an icon (${service.title})`).toBeTruthy();
      expect(service.features, `rule: every service has ${SPEC.featuresPerService} features (${service.title})`).toHaveLength(
        SPEC.featuresPerService,
      );
      expect(new Set(service.features).size, `rule: a service's features are five different ones (${service.title})`).toBe(
        SPEC.featuresPerService,
      );
    },
  );

  it('lists the 16 expertise terms in the order of the spec', () => {
    expect(expertise, 'rule: the expertise list of the spec, in its order').toEqual(SPEC.expertise);
  });

  it('uses the fixed texts of the spec word for word', () => {
    expect(
      nav.links.map((l) => l.label),
      'rule: the navigation links',
    ).toEqual(SPEC.nav);
    expect(
      nav.links.map((l) => l.href),
      'rule: the anchored sections',
    ).toEqual(SPEC.sections.map((id) => `#${id}`));
    expect(Object.values(sectionIds), 'rule: the anchored sections').toEqual(SPEC.sections);
    expect(hero.badge, 'rule: the hero badge').toBe(SPEC.badge);
    expect(`${hero.headline.lead} ${hero.headline.accent}`, 'rule: the hero headline').toBe(SPEC.headline);
    expect(hero.primaryCta, 'rule: the hero buttons').toEqual({ href: '#contact', label: SPEC.primaryCta });
    expect(hero.secondaryCta, 'rule: the hero buttons').toEqual({ href: '#services', label: SPEC.secondaryCta });
    expect(hero.scrollDown, "rule: the 'Scroll down' link").toEqual({ href: '#about', label: SPEC.scrollDown });
    expect(about.headline, 'rule: the about headline').toBe(SPEC.aboutHeadline);
    expect(about.intro, 'rule: the about text presents a one-stop-shop').toMatch(
      /one-stop-shop voor Finance, IT, Governance en bedrijfsoptimalisatie/,
    );
    expect(
      about.cards.map((c) => c.title),
      'rule: the three about cards',
    ).toEqual(SPEC.aboutCards);
    expect(about.philosophy.title, "rule: the block 'Onze filosofie'").toBe(SPEC.philosophy);
    expect(servicesSection.cta, "rule: the services' button").toEqual({ href: '#contact', label: SPEC.servicesCta });
    expect(servicesSection.why.headline, "rule: 'Waarom', the firm's name and 'kiezen?'").toBe(`Waarom ${firm.name} kiezen?`);
    expect(
      servicesSection.why.points.map((p) => p.title),
      'rule: the four points of Waarom',
    ).toEqual(SPEC.whyPoints);
    expect(contact.expertiseLabel, 'rule: the expertise line').toBe(SPEC.expertiseLabel);
    expect(contactForm.title, 'rule: the form title').toBe(SPEC.formTitle);
    expect(contactForm.messages, 'rule: the toasts of the form').toEqual(SPEC.messages);
    expect(footer, 'rule: the footer').toMatchObject({ tagline: SPEC.tagline, rights: SPEC.rights });
    expect(notFound.headline, 'rule: the 404 page').toBe(SPEC.notFound);
    expect(notFound.homeLink, 'rule: the 404 link home').toEqual({ href: '/', label: SPEC.homeLink });
    expect(errorScreen.headline, 'rule: the error screen').toBe(SPEC.errorScreen);
  });

  it('has the street address in Apeldoorn, as the spec says', () => {
    expect(firm.address.city, 'rule: a street address in Apeldoorn').toBe(SPEC.city);
  });

  it('says the visitor limit in the same words in the toast and on the no-script page, the page’s time as the longest wait', () => {
    const toast = contactForm.limited.again(8);
    const page = formResults.limited.again(10);
    expect(toast).toBe('U hebt in korte tijd het maximale aantal berichten verzonden. U kunt over 8 minuten weer een bericht verzenden.');
    // The longest wait as a wait, not as a deadline ('uiterlijk over 10 minuten').
    expect(page).toBe('U hebt in korte tijd het maximale aantal berichten verzonden. U kunt binnen 10 minuten weer een bericht verzenden.');
    expect(contactForm.limited.again(undefined)).toMatch(
      /^U hebt in korte tijd .* U kunt over enkele minuten weer een bericht verzenden\.$/,
    );
    // One true thing: the spec's failure text (something went wrong) is not beside it.
    expect(formResults.limited.text).toBeUndefined();
    for (const line of [toast, page]) expect(line).not.toMatch(/fout|storing|mis/);
  });

  it('says the site is busy in the same words in the toast and on the no-script page, never as the visitor’s own limit', () => {
    expect(formResults.busy.text).toBe(contactForm.busy);
    expect(contactForm.busy).not.toBe(contactForm.limited.again(undefined));
    // Nothing the visitor did: it speaks neither of their messages nor of a fault.
    expect(contactForm.busy).not.toMatch(/u hebt|fout|storing|mis/i);
  });

  it('links the privacy statement from the form note and the footer', () => {
    expect(contactForm.privacyLink.href).toBe('/privacy');
    expect(footer.privacyLink.href).toBe('/privacy');
  });
});

describe("the firm's facts as the site links them", () => {
  it('dials the phone in E.164 and mails the address as written', () => {
    expect(phoneHref).toBe(`tel:${e164(firm.phone)}`);
    expect(phoneHref).toMatch(/^tel:\+31\d+$/);
    expect(emailHref).toBe(`mailto:${firm.email}`);
  });

  it("passes the build's check of the facts", () => {
    expect(factProblems(CONTENT_FACTS)).toEqual([]);
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
    ...texts(privacySections({ retentionDays: 365, region: 'eu-west-1', visitorWindowMinutes: 10, spamRetentionDays: 14 })),
    ...texts(privacyPage),
  ];

  it('says “we”, never “wij”, as the spec’s own success message does', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(
      all.filter((text) => /\bwij\b/i.test(text)),
      'house style: the copy says “we”, never “wij”, as the spec’s own success message does; write “we” in these',
    ).toEqual([]);
    expect(contactForm.messages.success).toMatch(/^Uw bericht is verzonden! We /);
  });

  it('writes the disciplines Finance, IT and Governance one way, as the spec’s one-stop-shop sentence does', () => {
    expect(
      all.filter((text) => /\bgovernance\b|\bfinance\b(?! professional)/.test(text)),
      'house style: the disciplines are written Finance, IT and Governance, with a capital; write them so in these',
    ).toEqual([]);
  });
});

describe('content placeholders', () => {
  /** What the content shows at a placeholder's key: 'firm.address.street', 'privacy.email', 'SITE_ORIGIN'. */
  const shownAt = (key: string): unknown => {
    const [head, ...path] = key.split('.');
    const root: unknown = head === 'privacy' ? privacyContact : head === 'firm' ? facts.firm : { [head!]: facts[head as 'SITE_ORIGIN'] };
    return (head === 'privacy' || head === 'firm' ? path : [head!]).reduce<unknown>(
      (value, part) => (value as Record<string, unknown> | undefined)?.[part],
      root,
    );
  };

  it('lists each sample value the firm has still to replace, by key, as the content shows it', async () => {
    const { CONTENT_PLACEHOLDERS } = await import('../../build/content-files');
    for (const [key, sample] of CONTENT_PLACEHOLDERS) expect(shownAt(key), key).toBe(sample);
  });

  it('are all in the content guide’s table of sample facts to replace, by key', async () => {
    const { CONTENT_PLACEHOLDERS } = await import('../../build/content-files');
    const start = contentGuide.indexOf('\n## The sample facts to replace\n');
    expect(start, 'docs/content.md has a "## The sample facts to replace" section').toBeGreaterThan(-1);
    const end = contentGuide.indexOf('\n## ', start + 1);
    const section = contentGuide.slice(start, end === -1 ? undefined : end);
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    for (const key of CONTENT_PLACEHOLDERS.keys()) {
      expect(
        rows.some((row) => row.includes(`\`${key}\``)),
        key,
      ).toBe(true);
    }
  });
});
