/**
 * The firm's facts, in one place: the site shows them (header, footer, contact panel,
 * privacy statement, search engines' data) and the firm's e-mail names the firm. Write each
 * as you would on paper; the build checks every one and, when one is not right, stops with
 * a message naming the key and how to write it (core/node/content-check.ts).
 *
 * A value written as placeholder('key', 'sample') is a sample only the firm can replace:
 * write the plain value instead of the call (`name: 'Jansen & Zonen Advies',`). A `prod`
 * deploy refuses while any is left.
 */
import { placeholders } from '../placeholders';

const { placeholder, left } = placeholders();

/**
 * The public address of the site: https://, the domain, nothing after it. Used for the
 * canonical links, Open Graph, search engines' data, robots.txt and the sitemap.
 */
export const SITE_ORIGIN = placeholder('SITE_ORIGIN', 'https://www.example.nl');

export const firm = {
  /** The trading name, as shown in the header, footer and 'Waarom … kiezen?'. */
  name: placeholder('firm.name', 'Streepje Voor Finance'),
  /** The name in the trade register (KvK), as the privacy statement names the controller. */
  legalName: placeholder('firm.legalName', 'Streepje Voor Finance B.V.'),
  /** Kamer van Koophandel number: eight digits. Dutch law requires it on the website. */
  kvk: placeholder('firm.kvk', '12345678'),
  /** The btw-identificatienummer (VAT id): NL, nine digits, B and two digits, as 'NL123456789B01'. */
  vatId: placeholder('firm.vatId', 'NL123456789B01'),
  address: {
    street: placeholder('firm.address.street', 'Voorbeeldstraat 1'),
    /** Four digits and two letters; shown as PostNL writes it, '1234 AB'. */
    postalCode: placeholder('firm.address.postalCode', '7311 AA'),
    city: 'Apeldoorn',
    countryCode: 'NL',
  },
  email: placeholder('firm.email', 'info@example.nl'),
  /**
   * A Dutch number, written as visitors should read it: '055 123 45 67', '055-1234567',
   * '06 12345678', '+31 55 123 45 67'. Shown as written; links dial it as +31….
   */
  phone: placeholder('firm.phone', '055 000 00 00'),
} as const;

/** The facts above still written as placeholder(…): a `prod` deploy refuses while any is left. */
export const PLACEHOLDERS = left;
