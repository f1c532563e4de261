/**
 * The firm's e-mail for one message: subject, plain text and HTML, as pure functions of the
 * message and the contact-field list, in the words of core's content. The HTML is tables with inline
 * styles only (no <style>, no images, nothing fetched), the layout common mail clients
 * render alike and that fits a phone; the text part says the same in the same order.
 * Everything the visitor typed is escaped in the HTML, and kept to one line and without
 * invisible characters in the subject (characters.ts has the rule for each destination). Web
 * addresses the visitor typed are shown defanged (`hxxps://evil[.]nl`, links.ts), in the text
 * and the HTML, so no mail client makes a link of them; the Reply-To, the e-mail address's
 * mailto: and the phone number's tel: stay live.
 */
import { NOTIFICATION_TEXT as TEXT } from '@site/core/content/notification';
import { dutchDate, dutchDateTime } from '@site/core/dutch-time';
import { invisibleAsStored, LINE_BREAKING, withoutInvisible } from '../shared/characters';
import { defanged } from '../shared/links';
import { fieldNames, type ContactFields, type FieldValues } from '@site/core/contract';
import { type ContactFieldSpec, type FieldKind, type FieldList } from '@site/core/field-spec';
import type { StoredMessage } from '@site/core/table';

/** What the e-mail shows: the contact fields of a fields, and the message's id, time and expiry. */
export type NotifiedMessage<T extends FieldList = ContactFields> = FieldValues<T> & Pick<StoredMessage, 'id' | 'receivedAt' | 'expiresAt'>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** A header holds one line and no invisible character at all. */
const oneLine = (text: string) => withoutInvisible(text).replace(LINE_BREAKING, ' ').trim();

// The subject is a header: a line break there would start a new header.
export function subjectFor(name: string, company?: string): string {
  return TEXT.subject(oneLine(name), company === undefined || oneLine(company) === '' ? undefined : oneLine(company));
}

/** 'maandag 23 november 2026 om 08.42 uur': the firm's own time (Europe/Amsterdam, summer time included), in Dutch. */
export function receivedTime(iso: string): string {
  return dutchDateTime(iso);
}

/** The footer: kept until the message's own expiry, under its kenmerk, and what an erasure means for this copy. */
function keptNote(message: Pick<StoredMessage, 'id' | 'expiresAt'>): string {
  return TEXT.kept(dutchDate(new Date(message.expiresAt * 1000)), message.id);
}

/**
 * The number to dial, for a tel: link: digits with an optional leading +, and the Dutch
 * "(0)" after a country code left out. Undefined when the text is not a phone number.
 */
export function telHref(phone: string): string | undefined {
  if (!/^\+?[\d\s().\-/]+$/.test(phone)) return undefined;
  const digits = phone.replace(/\(0\)/g, '').replace(/[^\d+]/g, '');
  return /^\+?\d{6,}$/.test(digits) ? `tel:${digits}` : undefined;
}

/** A mailto: link for an address that passed validation (so it holds no spaces or commas). */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  return `mailto:${encodeURIComponent(address.slice(0, at))}${address.slice(at)}`;
}

interface Row {
  label: string;
  value: string;
  kind: FieldKind | 'meta';
}

interface Content {
  name: string;
  /** One-line fields. */
  rows: Row[];
  /** Multi-line fields, each under its own heading. */
  blocks: Row[];
  /** When and under which id it was received: bookkeeping, so last and small. */
  meta: Row[];
}

/** A value as the e-mail shows it: with the invisible characters it keeps, and any web address in typed text defanged. */
function shown(kind: FieldKind, value: string): string {
  const stored = invisibleAsStored(kind, value);
  return kind === 'text' || kind === 'multiline' ? defanged(stored) : stored;
}

function content(message: NotifiedMessage<FieldList> & { name: string }, fields: FieldList): Content {
  const values = message as unknown as Record<string, string | undefined>;
  const given = fieldNames(fields).flatMap((name): Row[] => {
    const value = values[name];
    const field: ContactFieldSpec = fields[name]!;
    // Validation stored it so; a message stored before that rule existed is shown by it too.
    return value === undefined ? [] : [{ label: field.mailLabel, value: shown(field.kind, value), kind: field.kind }];
  });
  return {
    name: shown('text', message.name),
    rows: given.filter((row) => row.kind !== 'multiline'),
    blocks: given.filter((row) => row.kind === 'multiline'),
    meta: [
      { label: TEXT.received, value: receivedTime(message.receivedAt), kind: 'meta' },
      { label: TEXT.reference, value: message.id, kind: 'meta' },
    ],
  };
}

export function textBody(message: NotifiedMessage<FieldList> & { name: string }, fields: FieldList): string {
  const { rows, blocks, meta } = content(message, fields);
  const line = ({ label, value }: Row) => `${label}: ${value}`;
  const sections = blocks.map(({ label, value }) => `${label}:\n${value}\n`);
  return [
    TEXT.intro,
    `${TEXT.promised.label}: ${TEXT.promised.promise}`,
    '',
    ...rows.map(line),
    '',
    ...sections,
    ...meta.map(line),
    '',
    TEXT.replyNote,
    '',
    '--',
    keptNote(message),
    '',
  ].join('\n');
}

// Mail clients drop <style> and inherit fonts unreliably: every text element carries its own.
const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const COLOURS = { navy: '#0b1f3f', accent: '#f2a93b', ink: '#0f1b2d', muted: '#4a5a70', line: '#e1e7ef', soft: '#f4f6fa', link: '#1d3b6b' };
const LABEL_STYLE = `margin:0;${FONT}font-size:12px;line-height:16px;letter-spacing:0.6px;text-transform:uppercase;color:${COLOURS.muted};`;
const VALUE_STYLE = `margin:2px 0 0;${FONT}font-size:16px;line-height:24px;color:${COLOURS.ink};word-break:break-word;`;
const LINK_STYLE = `color:${COLOURS.link};text-decoration:underline;`;
const TABLE = 'role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"';

/** The value as HTML: escaped, and a link where the kind has one. */
function valueHtml({ value, kind }: Row): string {
  const text = escapeHtml(value);
  const href = kind === 'email' ? mailtoHref(value) : kind === 'phone' ? telHref(value) : undefined;
  return href === undefined ? text : `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${text}</a>`;
}

function rowHtml(row: Row): string {
  return (
    `<tr><td style="padding:12px 0;border-bottom:1px solid ${COLOURS.line};">` +
    `<p style="${LABEL_STYLE}">${escapeHtml(row.label)}</p>` +
    `<p style="${VALUE_STYLE}">${valueHtml(row)}</p></td></tr>`
  );
}

function blockHtml({ label, value }: Row): string {
  const lines = escapeHtml(value).replace(/\r\n|\r|\n/g, '<br>');
  return (
    `<tr><td style="padding:20px 24px 0;"><p style="${LABEL_STYLE}">${escapeHtml(label)}</p>` +
    `<table ${TABLE} style="margin-top:8px;"><tr>` +
    `<td style="padding:14px 16px;background-color:${COLOURS.soft};border-left:4px solid ${COLOURS.accent};${FONT}font-size:16px;line-height:24px;color:${COLOURS.ink};word-break:break-word;">${lines}</td>` +
    '</tr></table></td></tr>'
  );
}

function metaHtml(meta: Row[]): string {
  const lines = meta.map(({ label, value }) => `${escapeHtml(label)}: ${escapeHtml(value)}`).join('<br>');
  return `<tr><td style="padding:20px 24px 0;"><p style="margin:0;${FONT}font-size:13px;line-height:20px;color:${COLOURS.muted};">${lines}</p></td></tr>`;
}

export function htmlBody(message: NotifiedMessage<FieldList> & { name: string }, fields: FieldList): string {
  const { name, rows, blocks, meta } = content(message, fields);
  return (
    '<!doctype html><html lang="nl"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light">' +
    `<title>${escapeHtml(TEXT.title)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:${COLOURS.soft};">` +
    `<table ${TABLE} style="background-color:${COLOURS.soft};"><tr><td align="center" style="padding:24px 12px;">` +
    `<table ${TABLE} style="max-width:600px;background-color:#ffffff;border:1px solid ${COLOURS.line};border-radius:12px;">` +
    `<tr><td style="padding:20px 24px;background-color:${COLOURS.navy};border-radius:12px 12px 0 0;">` +
    `<p style="margin:0;${FONT}font-size:12px;line-height:16px;font-weight:bold;letter-spacing:0.8px;text-transform:uppercase;color:${COLOURS.accent};">${escapeHtml(TEXT.eyebrow)}</p>` +
    `<p style="margin:6px 0 0;${FONT}font-size:20px;line-height:28px;font-weight:bold;color:#ffffff;word-break:break-word;">${escapeHtml(TEXT.heading(name))}</p>` +
    '</td></tr>' +
    `<tr><td style="padding:16px 24px 0;"><p style="margin:0;${FONT}font-size:15px;line-height:22px;color:${COLOURS.muted};">${escapeHtml(TEXT.intro)}</p>` +
    `<p style="margin:8px 0 0;${FONT}font-size:15px;line-height:22px;color:${COLOURS.ink};"><strong>${escapeHtml(TEXT.promised.label)}:</strong> ${escapeHtml(TEXT.promised.promise)}</p></td></tr>` +
    `<tr><td style="padding:4px 24px 0;"><table ${TABLE}>${rows.map(rowHtml).join('')}</table></td></tr>` +
    blocks.map(blockHtml).join('') +
    metaHtml(meta) +
    `<tr><td style="padding:12px 24px 20px;"><p style="margin:0;${FONT}font-size:14px;line-height:20px;color:${COLOURS.muted};">${escapeHtml(TEXT.replyNote)}</p></td></tr>` +
    `<tr><td style="padding:14px 24px 20px;border-top:1px solid ${COLOURS.line};"><p style="margin:0;${FONT}font-size:12px;line-height:18px;color:${COLOURS.muted};">${escapeHtml(keptNote(message))}</p></td></tr>` +
    '</table></td></tr></table></body></html>'
  );
}
