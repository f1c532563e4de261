/**
 * The notification the firm receives for each message: built as plain data (no I/O, so
 * every escaping rule can be tested directly) and sent through SES v1 SendEmail.
 */
import { SESClient, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { SES_CLIENT_OPTIONS } from './aws';
import { LINE_BREAKING } from './characters';
import { CONTACT_FIELDS, fieldNames, type ContactFields, type FieldTable, type FieldValues } from './contract';
import type { StoredMessage } from './table';

let client: SESClient | undefined;

/** Created on first use, then kept for the container (see documents() in store.ts). */
function ses(): SESClient {
  client ??= new SESClient(SES_CLIENT_OPTIONS);
  return client;
}

/** What the e-mail shows: the contact fields of `T` and the message's id and time. */
export type NotifiedMessage<T extends FieldTable = ContactFields> = FieldValues<T> & Pick<StoredMessage, 'id' | 'receivedAt'>;

export interface MailRoute {
  from: string;
  to: string[];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

// The subject is a header: a line break there would start a new header.
export function subjectFor(name: string): string {
  return `Nieuw contactbericht van ${name.replace(LINE_BREAKING, ' ').trim()}`;
}

interface Rendered {
  /** One-line fields and bookkeeping, as label and value. */
  rows: [label: string, value: string][];
  /** Multi-line fields, each under its own heading. */
  blocks: [label: string, value: string][];
}

function rendered(message: NotifiedMessage<FieldTable>, table: FieldTable): Rendered {
  const values = message as unknown as Record<string, string | undefined>;
  const given = fieldNames(table).flatMap((name) => {
    const value = values[name];
    return value === undefined ? [] : [{ field: table[name]!, value }];
  });
  return {
    rows: [
      ...given.filter(({ field }) => field.kind !== 'multiline').map(({ field, value }): [string, string] => [field.mailLabel, value]),
      ['Ontvangen', message.receivedAt],
      ['Kenmerk', message.id],
    ],
    blocks: given.filter(({ field }) => field.kind === 'multiline').map(({ field, value }) => [field.mailLabel, value]),
  };
}

function textBody({ rows, blocks }: Rendered): string {
  const lines = rows.map(([label, value]) => `${label}: ${value}`);
  const sections = blocks.map(([label, value]) => `${label}:\n${value}\n`);
  return `Nieuw bericht via het contactformulier van de website.\n\n${lines.join('\n')}\n\n${sections.join('\n')}`;
}

function htmlBody({ rows, blocks }: Rendered): string {
  const cells = rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('');
  const sections = blocks
    .map(([label, value]) => `<h3>${escapeHtml(label)}</h3><p>${escapeHtml(value).replace(/\r\n|\r|\n/g, '<br>')}</p>`)
    .join('');
  return (
    '<!doctype html><html lang="nl"><meta charset="utf-8"><body>' +
    '<p>Nieuw bericht via het contactformulier van de website.</p>' +
    `<table>${cells}</table>${sections}` +
    '<p>Beantwoorden gaat rechtstreeks naar de afzender.</p></body></html>'
  );
}

/** The SendEmail request for a stored message. Replies go to the visitor, not to MAIL_FROM. */
export function buildNotification<T extends FieldTable = ContactFields>(
  message: NotifiedMessage<T> & Pick<FieldValues, 'name' | 'email'>,
  route: MailRoute,
  table: T = CONTACT_FIELDS as FieldTable as T,
): SendEmailCommandInput {
  const content = rendered(message, table);
  return {
    Source: route.from,
    Destination: { ToAddresses: route.to },
    ReplyToAddresses: [message.email],
    Message: {
      Subject: { Data: subjectFor(message.name), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(content), Charset: 'UTF-8' },
        Html: { Data: htmlBody(content), Charset: 'UTF-8' },
      },
    },
  };
}

/** Sends and returns SES's message id; throws whatever SES or the network throws. */
export async function sendNotification(input: SendEmailCommandInput): Promise<string> {
  const { MessageId } = await ses().send(new SendEmailCommand(input));
  if (!MessageId) throw new Error('SES accepted the e-mail without a MessageId');
  return MessageId;
}
