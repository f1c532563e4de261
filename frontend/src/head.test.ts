import { describe, expect, it } from 'vitest';
import { e164 } from '@site/core/notation';
import { firm, seo, SITE_ORIGIN } from './content/site';
import { formResults } from './content/form-results';
import { renderHead } from './head';

function parse(head: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${head}</head></html>`, 'text/html');
}

describe('renderHead', () => {
  it('gives the home page a title, description, canonical, theme colour and Open Graph tags', () => {
    const doc = parse(renderHead('home'));
    const content = (selector: string) => doc.querySelector(selector)?.getAttribute('content');
    expect(doc.title).toBe(seo.title);
    expect(content('meta[name="description"]')).toBe(seo.description);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${SITE_ORIGIN}/`);
    expect(content('meta[name="theme-color"]')).toBe(seo.themeColor);
    expect(content('meta[property="og:title"]')).toBe(seo.title);
    expect(content('meta[property="og:url"]')).toBe(`${SITE_ORIGIN}/`);
    expect(content('meta[property="og:locale"]')).toBe('nl_NL');
    expect(doc.querySelector('link[rel="icon"][type="image/svg+xml"]')?.getAttribute('href')).toBe('/favicon.svg');
  });

  it.each(['home', 'privacy'] as const)('gives %s a large share picture on the site’s own origin, for Open Graph and X', (route) => {
    const doc = parse(renderHead(route));
    const content = (selector: string) => doc.querySelector(selector)?.getAttribute('content');
    expect(content('meta[property="og:image"]')).toBe(`${SITE_ORIGIN}/og-image.png`);
    expect([content('meta[property="og:image:width"]'), content('meta[property="og:image:height"]')]).toEqual(['1200', '630']);
    expect(content('meta[property="og:image:alt"]')).toBe(`${firm.name}: Finance Professionals. Met een streepje voor.`);
    expect(content('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(content('meta[name="twitter:image"]')).toBe(`${SITE_ORIGIN}/og-image.png`);
  });

  it.each(['home', 'privacy', 'not-found', 'form-sent'] as const)('links the icons and the web manifest from %s', (route) => {
    const doc = parse(renderHead(route));
    const href = (selector: string) => doc.querySelector(selector)?.getAttribute('href');
    expect(href('link[rel="icon"][sizes="32x32"]')).toBe('/favicon.ico');
    expect(href('link[rel="apple-touch-icon"]')).toBe('/apple-touch-icon.png');
    expect(href('link[rel="manifest"]')).toBe('/manifest.webmanifest');
  });

  it('describes the firm as a ProfessionalService in Apeldoorn in JSON-LD', () => {
    const doc = parse(renderHead('home'));
    const blocks = doc.querySelectorAll('script[type="application/ld+json"]');
    expect(blocks).toHaveLength(1);
    const data = JSON.parse(blocks[0]!.textContent);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ProfessionalService',
      name: firm.name,
      url: `${SITE_ORIGIN}/`,
      email: firm.email,
      address: { '@type': 'PostalAddress', addressLocality: 'Apeldoorn', addressCountry: 'NL', streetAddress: firm.address.street },
      legalName: firm.legalName,
      vatID: firm.vatId,
      telephone: e164(firm.phone),
    });
    expect(data.telephone).toMatch(/^\+31\d+$/);
    expect(data.hasOfferCatalog.itemListElement).toHaveLength(3);
  });

  it('gives the privacy statement its own title, description and canonical address, without the firm’s JSON-LD', () => {
    const doc = parse(renderHead('privacy'));
    expect(doc.title).toBe(`Privacyverklaring | ${firm.name}`);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^Hoe .* omgaat met de gegevens/);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${SITE_ORIGIN}/privacy`);
    expect(doc.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe(`${SITE_ORIGIN}/privacy`);
    expect(doc.querySelector('meta[name="robots"]')).toBeNull();
    expect(doc.querySelector('script')).toBeNull();
  });

  it('keeps the 404 page out of search results and gives it its own title', () => {
    const doc = parse(renderHead('not-found'));
    expect(doc.title).toBe(seo.notFoundTitle);
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(doc.querySelector('link[rel="canonical"]')).toBeNull();
    expect(doc.querySelector('script')).toBeNull();
  });

  it.each([
    ['form-sent', formResults.sent.title],
    ['form-check', formResults.check.title],
    ['form-check/name-email', formResults.check.title],
    ['form-failed', formResults.failed.title],
    ['form-limited', formResults.limited.title],
    ['form-busy', formResults.busy.title],
    ['form-crossSite', formResults.crossSite.title],
  ] as const)('keeps the form result page %s out of search results, with a Dutch title', (route, title) => {
    const doc = parse(renderHead(route));
    expect(doc.title).toBe(`${title} | ${firm.name}`);
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(doc.querySelector('link[rel="canonical"]')).toBeNull();
  });
});
