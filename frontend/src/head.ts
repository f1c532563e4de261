import { BRAND_FILES, SHARE_IMAGE } from './brand/files';
import { privacyPage } from './content/privacy';
import { e164 } from '@site/core/notation';
import { expertise, firm, seo, services, SITE_ORIGIN } from './content/site';
import { formResults } from './content/form-results';
import { formResultOf, PATHS, type Route } from './routes';

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const meta = (attribute: 'name' | 'property', key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;

/** schema.org data for search engines: a data block, which the CSP neither runs nor blocks. */
function structuredData() {
  const url = `${SITE_ORIGIN}/`;
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${url}#organisatie`,
    name: firm.name,
    legalName: firm.legalName,
    vatID: firm.vatId,
    url,
    logo: `${SITE_ORIGIN}${BRAND_FILES.icon512}`,
    image: `${SITE_ORIGIN}${BRAND_FILES.shareImage}`,
    description: seo.description,
    email: firm.email,
    telephone: e164(firm.phone),
    address: {
      '@type': 'PostalAddress',
      streetAddress: firm.address.street,
      postalCode: firm.address.postalCode,
      addressLocality: firm.address.city,
      addressCountry: firm.address.countryCode,
    },
    areaServed: { '@type': 'Country', name: 'Nederland' },
    knowsAbout: [...expertise],
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Diensten',
      itemListElement: services.map((service) => ({
        '@type': 'Offer',
        itemOffered: { '@type': 'Service', name: service.title, description: service.description },
      })),
    },
  };
}

/** '<' is escaped so no text in the data can close the script element early. */
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;

/** Title, description, canonical address and Open Graph tags of a page search engines may list. */
function listedPage({ title, description, path }: { title: string; description: string; path: string }, common: string[]) {
  const url = `${SITE_ORIGIN}${path}`;
  const shareImage = `${SITE_ORIGIN}${BRAND_FILES.shareImage}`;
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${url}" />`,
    ...common,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:locale', seo.locale),
    meta('property', 'og:site_name', firm.name),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', shareImage),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(SHARE_IMAGE.width)),
    meta('property', 'og:image:height', String(SHARE_IMAGE.height)),
    meta('property', 'og:image:alt', SHARE_IMAGE.alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:image', shareImage),
    meta('name', 'twitter:image:alt', SHARE_IMAGE.alt),
  ];
}

/** The title of a page kept out of search results: the 404 page and the form's result pages. */
function unlistedTitle(route: Exclude<Route, 'home' | 'privacy'>): string {
  const result = formResultOf(route);
  return result === undefined ? seo.notFoundTitle : `${formResults[result.result].title} | ${firm.name}`;
}

/** The <head> tags of one prerendered page; only the home page and the privacy statement are meant for search results. */
export function renderHead(route: Route): string {
  // The SVG icon is the one browsers fetch; the .ico (by its sizes) only those without SVG
  // icons, the touch icon and the manifest only what bookmarks the page to a home screen.
  const common = [
    meta('name', 'theme-color', seo.themeColor),
    `<link rel="icon" href="${BRAND_FILES.faviconIco}" sizes="32x32" />`,
    `<link rel="icon" href="${BRAND_FILES.faviconSvg}" type="image/svg+xml" />`,
    `<link rel="apple-touch-icon" href="${BRAND_FILES.appleTouchIcon}" />`,
    `<link rel="manifest" href="${BRAND_FILES.manifest}" />`,
  ];
  switch (route) {
    case 'home':
      return [...listedPage({ title: seo.title, description: seo.description, path: PATHS.home }, common), jsonLd(structuredData())].join(
        '\n    ',
      );
    case 'privacy':
      return listedPage({ ...privacyPage.seo, path: PATHS.privacy }, common).join('\n    ');
    default:
      return [`<title>${escapeHtml(unlistedTitle(route))}</title>`, meta('name', 'robots', 'noindex'), ...common].join('\n    ');
  }
}
