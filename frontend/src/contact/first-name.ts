/**
 * The name to thank a visitor by: the first word of the name as typed, when that is a given
 * name. A name that starts with a title, an initial or the surname ("dr. J. de Vries",
 * "Van den Berg", "Vries, Anna de") has no given name in front, and gets none: better no name
 * than "Bedankt, dr." or "Bedankt, Van". Written as typed; React escapes it.
 */

/** Dutch (and a few neighbouring) surname particles: a name that starts with one starts with its surname. */
const PARTICLES = new Set([
  'van',
  'de',
  'den',
  'der',
  'het',
  "'t",
  'ter',
  'ten',
  'te',
  'op',
  'in',
  'la',
  'le',
  'du',
  'da',
  'di',
  'von',
  'vd',
]);

/** Titles and forms of address, as people type them without a full stop (with one, the full stop tells). */
const TITLES = new Set([
  'dr',
  'drs',
  'ir',
  'ing',
  'mr',
  'prof',
  'ds',
  'dhr',
  'mevr',
  'mw',
  'mej',
  'heer',
  'meneer',
  'mevrouw',
  'fam',
  'familie',
]);

export function firstNameOf(name: string): string | undefined {
  const [first] = name.trim().split(/\s+/u);
  if (!first) return undefined;
  // A full stop marks an initial or an abbreviated title (J., dr.); a comma, a surname written first.
  if (/[.,]/u.test(first)) return undefined;
  // One letter is an initial without its full stop.
  if ([...first].length === 1) return undefined;
  const word = first.toLocaleLowerCase('nl');
  if (PARTICLES.has(word) || TITLES.has(word)) return undefined;
  return first;
}
