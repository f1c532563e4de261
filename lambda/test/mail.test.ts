import { describe, expect, it } from 'vitest';
import { hasLineBreaking } from '../src/characters';
import { buildNotification, escapeHtml, subjectFor, type NotifiedMessage } from '../src/mail';

const ROUTE = { from: 'website@firma.example', to: ['info@firma.example', 'partner@firma.example'] };

const HOSTILE = `<script>alert("x")</script> & 'quote'`;

const message: NotifiedMessage = {
  id: '01JD0000000000000000000000',
  receivedAt: '2026-11-22T10:00:00.000Z',
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

  it('goes from MAIL_FROM to MAIL_TO, with replies to the visitor', () => {
    expect(input.Source).toBe(ROUTE.from);
    expect(input.Destination).toEqual({ ToAddresses: ROUTE.to });
    expect(input.ReplyToAddresses).toEqual([message.email]);
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
