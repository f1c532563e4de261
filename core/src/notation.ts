/**
 * The firm's facts as they are linked and shown, from the way they are written. Small on
 * purpose: the site's script carries it. It trusts what the build's check (facts.ts) let
 * through, which proves for every fact it passes that these give the right result.
 */

/**
 * A checked Dutch number in E.164, the form a tel: link and search engines' data take:
 * '055 123 45 67', '0031 (0)55-1234567' and '+31 55 123 45 67' are all '+31551234567'.
 */
export function e164(phone: string): string {
  const digits = phone.replace(/\(0\)/g, '').replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return `+31${digits.slice(1)}`;
}

/** The tel: link of a checked Dutch number. */
export const telHref = (phone: string) => `tel:${e164(phone)}`;

/**
 * A postal code as PostNL writes it, four digits, a space and two capitals ('1234 AB'),
 * however it was typed ('1234AB', '1234 ab'): a code has one right notation, and an
 * address block shows that one.
 */
export function postalCodeShown(code: string): string {
  const compact = code.replace(/\s+/g, '').toUpperCase();
  return `${compact.slice(0, 4)} ${compact.slice(4)}`;
}
