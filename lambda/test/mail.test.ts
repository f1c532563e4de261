import { describe, expect, it } from 'vitest';
import { find } from 'linkifyjs';
import { hasLineBreaking } from '../src/shared/characters';
import { addressParser } from 'postal-mime';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { REPLY_PROMISE } from '@site/core/content/promise';
import { buildNotification, mailRoute } from '../src/mail/mail';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import { escapeHtml, receivedTime, subjectFor, telHref, type NotifiedMessage } from '../src/mail/notification';

const ROUTE = mailRoute({
  mailFrom: 'website@firma.example',
  mailTo: ['info@firma.example', 'partner@firma.example'],
  configurationSet: 'consultancy-site-test',
});

const HOSTILE = `<script>alert("x")</script> & 'quote'`;

const message: NotifiedMessage & { attempts: number } = {
  id: '01JD0000000000000000000000',
  attempts: 0,
  receivedAt: '2026-11-22T10:00:00.000Z',
  expiresAt: Date.parse('2027-11-22T10:00:00.000Z') / 1000,
  name: `Jan ${HOSTILE}`,
  email: "o'brien@voorbeeld.nl",
  phone: `06 ${HOSTILE}`,
  company: `Bedrijf ${HOSTILE}`,
  message: `Regel één ${HOSTILE}\nRegel twee\n\nRegel vier`,
};

describe('buildNotification', () => {
  const input = buildNotification(message, ROUTE);
  const html = input.Message?.Body?.Html?.Data ?? '';
  const text = input.Message?.Body?.Text?.Data ?? '';

  it('goes from MAIL_FROM, named as content says, to MAIL_TO, with replies to the visitor', () => {
    expect(addressParser(input.Source!)).toEqual([{ name: NOTIFICATION_TEXT.sender, address: 'website@firma.example' }]);
    expect(input.Destination).toEqual({ ToAddresses: ROUTE.to });
    expect(input.ReplyToAddresses).toEqual([message.email]);
  });

  it('goes through the configuration set, tagged with the message and the number of the attempt it is', () => {
    expect(input.ConfigurationSetName).toBe(ROUTE.configurationSet);
    expect(input.Tags).toEqual([
      { Name: DELIVERY_TAGS.messageId, Value: message.id },
      { Name: DELIVERY_TAGS.attempt, Value: '1' },
    ]);
    expect(buildNotification({ ...message, attempts: 7 }, ROUTE).Tags).toContainEqual({ Name: DELIVERY_TAGS.attempt, Value: '8' });
    // SES takes only ASCII letters, digits, _ and - in tags.
    for (const tag of input.Tags ?? []) {
      expect(tag.Name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(tag.Value).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });

  it('declares UTF-8 for subject and both bodies', () => {
    expect(input.Message?.Subject?.Charset).toBe('UTF-8');
    expect(input.Message?.Body?.Text?.Charset).toBe('UTF-8');
    expect(input.Message?.Body?.Html?.Charset).toBe('UTF-8');
  });

  it('escapes every visitor value in the HTML body', () => {
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('"x"');
    expect(html).not.toContain(`'quote'`);
    expect(html).not.toContain("o'brien");
    const escaped = escapeHtml(HOSTILE);
    expect(escaped).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39;');
    for (const value of [`Jan ${escaped}`, `06 ${escaped}`, `Bedrijf ${escaped}`, `Regel één ${escaped}`, 'o&#39;brien@voorbeeld.nl']) {
      expect(html).toContain(value);
    }
  });

  it('shows the message line breaks as <br> in HTML and keeps them in the text body', () => {
    expect(html).toContain('Regel twee<br><br>Regel vier');
    expect(text).toContain(`Bericht:\n${message.message}\n`);
  });

  it('lists every field in the text body as typed', () => {
    for (const line of [
      `Naam: ${message.name}`,
      `E-mail: ${message.email}`,
      `Telefoon: ${message.phone}`,
      `Bedrijf: ${message.company}`,
      `Kenmerk: ${message.id}`,
    ]) {
      expect(text).toContain(line);
    }
  });

  it('leaves out rows for optional fields that were not given', () => {
    const { phone: _phone, company: _company, ...required } = message;
    const bare = buildNotification(required, ROUTE);
    expect(bare.Message?.Body?.Text?.Data).not.toMatch(/Telefoon|Bedrijf/);
    expect(bare.Message?.Body?.Html?.Data).not.toMatch(/Telefoon|Bedrijf/);
  });
});

describe('subjectFor', () => {
  it('names the sender', () => {
    expect(subjectFor('Jan de Vries')).toBe('Nieuw contactbericht van Jan de Vries');
  });

  it('cannot carry a line break or control character into the header', () => {
    const subject = subjectFor('Jan\r\nBcc: piet@voorbeeld.nl\u0000\u2028\u0085x');
    expect(subject).toBe('Nieuw contactbericht van Jan Bcc: piet@voorbeeld.nl x');
    expect(hasLineBreaking(subject)).toBe(false);
  });
});

describe('the e-mail as the firm reads it', () => {
  const plain: NotifiedMessage & { attempts: number } = {
    id: '01JD0000000000000000000000',
    attempts: 0,
    receivedAt: '2026-11-23T07:42:20.340Z',
    expiresAt: Date.parse('2027-11-23T07:42:20.340Z') / 1000,
    name: 'Anna de Vries',
    email: 'anna+offerte@bedrijf.nl',
    phone: '+31 (0)6 1234 5678',
    company: 'De Vries BV',
    message: 'Wij zoeken een interim controller.\nVoor drie maanden.',
  };
  const mail = buildNotification(plain, ROUTE);
  const html = mail.Message?.Body?.Html?.Data ?? '';
  const text = mail.Message?.Body?.Text?.Data ?? '';

  it('gives the weekday and time received in Dutch, in Amsterdam time (winter and summer)', () => {
    expect(receivedTime('2026-11-23T07:42:20.340Z')).toBe('maandag 23 november 2026 om 08.42 uur');
    expect(receivedTime('2026-07-03T22:05:00.000Z')).toBe('zaterdag 4 juli 2026 om 00.05 uur');
    expect(text).toContain('Ontvangen: maandag 23 november 2026 om 08.42 uur');
    expect(html).toContain('maandag 23 november 2026 om 08.42 uur');
    expect(`${html}${text}`).not.toContain('2026-11-23T');
  });

  it('repeats the promise the visitor read once the message was sent, from the site’s content', () => {
    expect(text).toContain(`${NOTIFICATION_TEXT.promised.label}: ${REPLY_PROMISE}`);
    expect(html).toContain(escapeHtml(REPLY_PROMISE));
  });

  it('ends with how long the message is kept, under which kenmerk, and what an erasure request means for this copy', () => {
    const footer = text.trimEnd().split('\n').at(-1)!;
    expect(footer).toBe(
      `De website bewaart dit bericht tot dinsdag 23 november 2027 onder kenmerk ${plain.id} en verwijdert het daarna automatisch. ` +
        'Vraagt de afzender om verwijdering van zijn of haar gegevens, dan wist de beheerder van de website het opgeslagen bericht; ' +
        'deze e-mail en uw antwoorden verwijdert u zelf uit de mailbox.',
    );
    expect(html).toContain(escapeHtml(footer));
  });

  it('makes the address a mailto: link and the phone a tel: link', () => {
    expect(html).toContain('<a href="mailto:anna%2Bofferte@bedrijf.nl"');
    expect(html).toContain('>anna+offerte@bedrijf.nl</a>');
    expect(html).toContain('<a href="tel:+31612345678"');
    expect(html).toContain('>+31 (0)6 1234 5678</a>');
  });

  it.each([
    ['055 - 123 45 67', 'tel:0551234567'],
    ['06/12345678', 'tel:0612345678'],
    ['+32 2 555 12 12', 'tel:+3225551212'],
    ['bel na 17:00', undefined],
    ['12 34', undefined],
    ['06 "><script>', undefined],
  ])('links the phone %j as %s', (phone, href) => {
    expect(telHref(phone)).toBe(href);
  });

  it('shows the web addresses the visitor typed defanged, in text and HTML, and keeps the reply, mailto: and tel: live', () => {
    const linked = buildNotification(
      {
        ...plain,
        name: 'Anna van evil.nl',
        company: 'https://www.devries.nl',
        message: 'Zie https://www.devries.nl/over-ons en bit.ly/x.\nGroet',
      },
      ROUTE,
    );
    const linkedText = linked.Message?.Body?.Text?.Data ?? '';
    const linkedHtml = linked.Message?.Body?.Html?.Data ?? '';
    for (const body of [linkedText, linkedHtml]) {
      expect(body).toContain('Zie hxxps://www[.]devries[.]nl/over-ons en bit[.]ly/x.');
      expect(body).toContain('hxxps://www[.]devries[.]nl');
      expect(body).toContain('Anna van evil[.]nl');
      // The only links left: the mailto: of the reply address.
      expect(find(body, 'url').filter((link) => !link.value.startsWith('mailto:'))).toEqual([]);
    }
    expect(linkedHtml.match(/href="[^"]*"/g)).toEqual(['href="mailto:anna%2Bofferte@bedrijf.nl"', 'href="tel:+31612345678"']);
    expect(linked.ReplyToAddresses).toEqual(['anna+offerte@bedrijf.nl']);
  });

  it('puts the company in the subject when one is given, on one line', () => {
    expect(mail.Message?.Subject?.Data).toBe('Nieuw contactbericht van Anna de Vries (De Vries BV)');
    const { company: _company, ...withoutCompany } = plain;
    expect(buildNotification(withoutCompany, ROUTE).Message?.Subject?.Data).toBe('Nieuw contactbericht van Anna de Vries');
    const subject = subjectFor('Anna\r\nBcc: x@y.nl', 'Bedrijf\nTo: z@y.nl\u2028');
    expect(subject).toBe('Nieuw contactbericht van Anna Bcc: x@y.nl (Bedrijf To: z@y.nl)');
    expect(hasLineBreaking(subject)).toBe(false);
  });

  it('is laid out with tables and inline styles only: no <style>, no classes, nothing fetched', () => {
    expect(html).not.toMatch(/<style|<link|<img|<script|\sclass=|\ssrc=|url\(|https?:/i);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<table role="presentation" width="100%"[^>]*style="max-width:600px;/);
    // Every element that shows text sets its own font and colour (clients drop inherited styles).
    for (const [, style] of html.matchAll(/<p style="([^"]*)"/g)) expect(style).toMatch(/font-family:[^;]+;.*color:#/);
  });

  it('has a text part that says what the HTML says, in the same order', () => {
    // Both as a list of texts, a "Label: value" line counting as the label and the value.
    const entries = (parts: string[]) =>
      parts
        .map((part) => part.trim())
        .filter(Boolean)
        .flatMap((part) => {
          const row = /^([^:]+): (.+)$/.exec(part);
          return row ? [row[1]!, row[2]!] : [part.replace(/:$/, '')];
        });
    // The text part's own signature separator ("--") has no place in the HTML.
    const textParts = text.split('\n').filter((line) => line !== '--');
    const htmlParts = html
      .replace(/<head>.*<\/head>/, '')
      .split(/<[^>]+>/)
      .filter((part) => !['Contactformulier website', `Bericht van ${plain.name}`].includes(part));
    expect(entries(htmlParts)).toEqual(entries(textParts));
  });

  it('keeps hostile input inert in every field and in the links', () => {
    const hostile = `"><script>alert(1)</script><a href="javascript:x">`;
    const input = buildNotification(
      {
        ...plain,
        name: hostile,
        phone: `06 ${hostile}`,
        company: hostile,
        message: `${hostile}\n${hostile}`,
        email: "o'brien@voorbeeld.nl",
      },
      ROUTE,
    );
    const hostileHtml = input.Message?.Body?.Html?.Data ?? '';
    expect(hostileHtml).not.toMatch(/<script|javascript:x"|<a href="javascript/);
    expect(hostileHtml.match(/<a /g)).toHaveLength(1);
    expect(hostileHtml).toContain('<a href="mailto:o&#39;brien@voorbeeld.nl"');
    expect(hostileHtml).toContain(escapeHtml(hostile));
    expect(input.Message?.Subject?.Data).toBe(`Nieuw contactbericht van ${hostile} (${hostile})`);
  });
});
