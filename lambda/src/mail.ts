/**
 * The notification the firm receives for each message: built as plain data (no I/O, so
 * every escaping rule can be tested directly) and sent through SES v1 SendEmail.
 */
import { SESClient, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { SES_CLIENT_OPTIONS } from './aws';
import { LINE_BREAKING } from './characters';
import type { StoredMessage } from './table';

let client: SESClient | undefined;

/** Created on first use, then kept for the container (see documents() in store.ts). */
function ses(): SESClient {
  client ??= new SESClient(SES_CLIENT_OPTIONS);
  return client;
}

export type NotifiedMessage = Pick<StoredMessage, 'id' | 'receivedAt' | 'name' | 'email' | 'phone' | 'company' | 'message'>;

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

function details(message: NotifiedMessage): [label: string, value: string][] {
  const rows: [string, string | undefined][] = [
    ['Naam', message.name],
    ['E-mail', message.email],
    ['Telefoon', message.phone],
    ['Bedrijf', message.company],
    ['Ontvangen', message.receivedAt],
    ['Kenmerk', message.id],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

function textBody(message: NotifiedMessage): string {
  const lines = details(message).map(([label, value]) => `${label}: ${value}`);
  return `Nieuw bericht via het contactformulier van de website.\n\n${lines.join('\n')}\n\nBericht:\n${message.message}\n`;
}

function htmlBody(message: NotifiedMessage): string {
  const rows = details(message)
    .map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  const paragraphs = escapeHtml(message.message).replace(/\r\n|\r|\n/g, '<br>');
  return (
    '<!doctype html><html lang="nl"><meta charset="utf-8"><body>' +
    '<p>Nieuw bericht via het contactformulier van de website.</p>' +
    `<table>${rows}</table><h3>Bericht</h3><p>${paragraphs}</p>` +
    '<p>Beantwoorden gaat rechtstreeks naar de afzender.</p></body></html>'
  );
}

/** The SendEmail request for a stored message. Replies go to the visitor, not to MAIL_FROM. */
export function buildNotification(message: NotifiedMessage, route: MailRoute): SendEmailCommandInput {
  return {
    Source: route.from,
    Destination: { ToAddresses: route.to },
    ReplyToAddresses: [message.email],
    Message: {
      Subject: { Data: subjectFor(message.name), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody(message), Charset: 'UTF-8' },
        Html: { Data: htmlBody(message), Charset: 'UTF-8' },
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
