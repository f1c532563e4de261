/**
 * Web addresses as a person reads them, for the spam signals (how many a text holds) and for
 * the firm's e-mails (shown so that no mail client makes them clickable).
 *
 * Counting reads the text as it looks, not as it is encoded: NFKC first (fullwidth
 * `ｗｗｗ．` is `www.`), every invisible character removed (a soft hyphen inside `https://`
 * hides nothing), and the usual ways of writing an address so that no filter sees it turned
 * back (`hxxp`, `[.]`, `(dot)`, `[:]`). Then linkifyjs finds the addresses: it knows every
 * top-level domain IANA delegates (`evil.nl`, `bit.ly`, `x.ai` and the rest, not a list of our
 * own), and tells an e-mail address, which is not a link, from a web address. Each address
 * counts once, however it is written (`https://www.a.nl/`, `A.nl`).
 */
import { find } from 'linkifyjs';
import { INVISIBLE } from './characters';

/** The ways spam writes an address so that a filter misses it and a person still reads it. */
const OBFUSCATIONS: readonly [RegExp, string][] = [
  [/\bhxxp(s?)(?=:|\[:\])/giu, 'http$1'],
  [/\s*[[({]\s*(?:\.|dot|punt)\s*[\])}]\s*/giu, '.'],
  [/\s*[[({]\s*:\s*[\])}]\s*/gu, ':'],
  // The ideographic full stop, which NFKC leaves as it is (and makes of its halfwidth form).
  [/\u3002/gu, '.'],
];

/** The text as a person reads it: what counting addresses works on. */
export function asRead(text: string): string {
  return OBFUSCATIONS.reduce(
    (read, [pattern, replacement]) => read.replace(pattern, replacement),
    text.normalize('NFKC').replace(INVISIBLE, ''),
  );
}

/** One web address: the same one however it was written (scheme, `www.`, case, a closing slash). */
function addressKey(href: string): string {
  // An address no URL can be (a port past 65535) is still an address, as typed.
  const url = URL.parse(href);
  if (!url) return href.toLowerCase();
  return `${url.hostname.replace(/^www\./, '')}${url.port ? `:${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

/** The distinct web addresses in a text, each with whether it was written out (a scheme or `www.`), not just a name with a dot. */
export function webAddressesIn(text: string): { address: string; explicit: boolean }[] {
  const addresses = new Map<string, boolean>();
  for (const link of find(asRead(text), 'url')) {
    const key = addressKey(link.href);
    const explicit = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/iu.test(link.value);
    addresses.set(key, (addresses.get(key) ?? false) || explicit);
  }
  return [...addresses].map(([address, explicit]) => ({ address, explicit }));
}

/** How many distinct web addresses a text holds. */
export function linksIn(text: string): number {
  return webAddressesIn(text).length;
}

/**
 * The text with every web address in it defanged: `https://www.evil.nl/x` as
 * `hxxps://www[.]evil[.]nl/x`. No mail client makes that a link, and the firm still reads
 * what was typed. Only the addresses change; e-mail addresses and the rest stay as they are.
 */
export function defanged(text: string): string {
  let shown = '';
  let from = 0;
  for (const link of find(text, 'url')) {
    shown += text.slice(from, link.start) + defangedAddress(link.value);
    from = link.end;
  }
  return shown + text.slice(from);
}

function defangedAddress(address: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)(.*)$/isu.exec(address)!;
  const [, prefix = '', host = '', rest = ''] = scheme;
  return `${prefix.replace(/^http/i, 'hxxp')}${host.replaceAll('.', '[.]')}${rest}`;
}
