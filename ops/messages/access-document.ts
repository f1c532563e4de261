/**
 * The answer to an access request as a document the person can read (AVG article 12: concise,
 * intelligible, in plain language): Dutch, dates as dates, what each message holds and what
 * became of it, what else the table keeps beside it, why and until when, and where else copies
 * are (the firm's mailbox, the backups, the logs). The words are content (the access answer's
 * frame, the privacy statement's records); this lays them out as plain text, which every mail
 * program and editor opens. No I/O.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames } from '@site/core/contract';
import { dutchDate, dutchDateTime } from '@site/core/dutch-time';
import type { FieldList } from '@site/core/field-spec';
import type { StoredMessage } from '@site/core/table';
import { accessAnswer as text } from '@site/frontend/content/access-answer';
import { dataRecords, inlineText, RECORD_LABELS, type DataRecord, type DeploymentFacts } from '@site/frontend/content/privacy';
import { firm } from '@site/frontend/content/site';
import type { Found } from './render';

const WIDTH = 78;
const { what, why, basis, where, kept } = RECORD_LABELS;

/** Words wrapped to WIDTH after `indent`; a line break in the text (a form post's CRLF too) stays one. */
function wrap(paragraph: string, indent = ''): string {
  return paragraph
    .split(/\r\n?|\n/)
    .map((line) => {
      const lines: string[] = [];
      let current = '';
      for (const word of line.split(/ +/)) {
        if (current !== '' && indent.length + current.length + 1 + word.length > WIDTH) {
          lines.push(current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      lines.push(current);
      return lines.map((one) => `${indent}${one}`.trimEnd()).join('\n');
    })
    .join('\n');
}

const heading = (title: string) => `${title.toLocaleUpperCase('nl')}\n${'='.repeat(title.length)}`;
const subheading = (title: string) => `${title}\n${'-'.repeat(title.length)}`;

/** A record's row as one paragraph; a list's items each on a line of its own. */
function rowText(row: DataRecord['rows'][number]): string {
  const pieces = row.text;
  return pieces.every((piece) => Array.isArray(piece)) ? pieces.map((item) => `- ${inlineText(item)}`).join('\n') : inlineText(pieces);
}

/** Some rows of a privacy-statement record, as 'Label: text' paragraphs. */
function recordRows(record: DataRecord, labels: readonly string[]): string[] {
  return record.rows.filter((row) => labels.includes(row.label)).map((row) => wrap(`${row.label}: ${rowText(row)}`));
}

const at = (iso: string | undefined) => (iso === undefined ? undefined : dutchDateTime(iso));

/** What became of the message's e-mail, in words. */
function deliveryOf(message: StoredMessage): string {
  const when = message.outcome?.status === message.status ? at(message.outcome.at) : at(message.emailedAt);
  return text.delivery[message.status](when);
}

/** One message: when it came, under which kenmerk, every field as typed, its delivery, and until when it is kept. */
function messageText(message: StoredMessage, fields: FieldList): string {
  const item = message as unknown as Record<string, unknown>;
  const rows: [string, string][] = [
    [text.messages.reference, message.id],
    ...fieldNames(fields).flatMap((name): [string, string][] =>
      typeof item[name] === 'string' ? [[fields[name]!.label, item[name]]] : [],
    ),
    [text.messages.delivery, deliveryOf(message)],
    ...(message.score === undefined
      ? []
      : ([[text.messages.assessment, text.assessment(message.score, message.signals ?? [])]] as [string, string][])),
    ...(message.heldFor === undefined ? [] : ([[text.messages.heldFor, text.heldFor[message.heldFor]]] as [string, string][])),
    [text.messages.keptUntil, dutchDate(new Date(message.expiresAt * 1000))],
  ];
  // One column for the values of every message, whichever fields it has.
  const labels = [
    text.messages.reference,
    text.messages.delivery,
    text.messages.assessment,
    text.messages.heldFor,
    text.messages.keptUntil,
    ...fieldNames(fields).map((name) => fields[name]!.label),
  ];
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  const lines = rows.map(([label, value]) =>
    value.includes('\n') || width + 1 + value.length > WIDTH
      ? `${label}:\n${wrap(value, '    ')}`
      : `${`${label}:`.padEnd(width)} ${value}`,
  );
  return [subheading(text.messages.title(dutchDateTime(message.receivedAt))), ...lines].join('\n');
}

/** Until when the latest of `expiries` (epoch seconds) is kept, in words; none when there are none. */
function latest(expiries: readonly number[]): string[] {
  return expiries.length === 0 ? [] : [text.linked.until(dutchDateTime(new Date(Math.max(...expiries) * 1000)))];
}

export interface AccessDocument {
  address: string;
  found: Found;
  /** When the document is made. */
  at: Date;
  /** The deployment's settings the privacy statement quotes (cdk.json's). */
  facts: DeploymentFacts;
  /** The name of the JSON file beside it. */
  jsonFile: string;
  fields?: FieldList;
}

export function accessDocument({ address, found, at: madeAt, facts, jsonFile, fields = CONTACT_FIELDS }: AccessDocument): string {
  const records = dataRecords(facts, fields);
  const linkedCounts = { teller: found.visitorCounters, dubbel: found.idempotencyRecords, spam: found.stampRecords };
  /** What of a record is the person's, and until when; the spam record also says what of it cannot be linked to them. */
  const theirs = (id: string, items: readonly { expiresAt: number }[]) => {
    const until = latest(items.map((item) => item.expiresAt));
    return id === 'spam'
      ? [text.linked.spam.assessment, text.linked.spam.stamps(items.length), ...until, text.linked.spam.notLinked]
      : [text.linked.yours(items.length), ...until];
  };
  const sections = [
    [heading(text.title), firm.legalName, '', wrap(text.intro(address, dutchDateTime(madeAt)))],
    [
      heading(text.messages.heading(found.messages.length)),
      ...(found.messages.length === 0
        ? [wrap(text.messages.none)]
        : [
            ...found.messages.map((message) => `${messageText(message, fields)}\n`),
            subheading(text.about),
            ...recordRows(records.bericht!, [why, basis, where, kept]),
          ]),
    ],
    [
      heading(text.linked.heading),
      ...Object.entries(linkedCounts).flatMap(([id, items]) => [
        subheading(records[id]!.title),
        ...recordRows(records[id]!, [what, why, kept]),
        wrap(theirs(id, items).join(' ')),
        '',
      ]),
    ],
    [
      heading(text.elsewhere.heading),
      ...['mailbox', 'back-ups', 'toegangslogboeken', 'logboeken'].flatMap((id) => [
        subheading(records[id]!.title),
        ...recordRows(records[id]!, [what, where, kept]),
        ...(id === 'toegangslogboeken' ? [wrap(text.elsewhere.accessLogs)] : []),
        '',
      ]),
    ],
    [heading(text.rights.heading), wrap(text.rights.text), '', wrap(text.attachment(jsonFile))],
  ];
  return `${sections.map((lines) => lines.join('\n').trimEnd()).join('\n\n\n')}\n`;
}
