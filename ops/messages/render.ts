/** What `npm run messages` prints: stored messages as a table, in full, or as JSON. No I/O. */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { BOOKKEEPING_ATTRIBUTES, type DeliveryOutcome, type StoredMessage } from '@site/core/table';
import { MESSAGE_NOISE, withInvisibleShown } from '@site/lambda/characters';
import { alignedColumns } from '@site/ops/columns';
import { scoreCell, signalsCell, SPAM_ROWS, statusCell } from './spam-text';
import type { LinkedRecords } from './queries';

/**
 * Stored text as a terminal may show it: control characters (an escape sequence could
 * rewrite the operator's screen) become U+FFFD, and invisible characters (a direction
 * override, a braille blank, a joiner) are written as `<U+202E>`, so nothing reorders or
 * hides what the operator reads. Validation keeps most of them out; this does not rely on it.
 */
function printable(text: string): string {
  return withInvisibleShown(text.replace(MESSAGE_NOISE, '\uFFFD').replace(/\r/g, '\uFFFD'));
}

/** What the mail server said, in a few words: a bounce's type and answer, a delay's kind and answer, a complaint's or rejection's reason. */
export function outcomeDetail(outcome: DeliveryOutcome): string {
  const kind = outcome.bounceType ? `${outcome.bounceType}/${outcome.bounceSubType ?? '?'}` : outcome.reason;
  return [kind, outcome.diagnosticCode].filter(Boolean).join(': ');
}

/**
 * A message's delivery outcome as SES reported it: when, and what the mail server said. An
 * outcome of an earlier attempt than the message's status is about (before a resend) says so.
 */
export function outcomeText(message: Pick<StoredMessage, 'status' | 'outcome'>): string {
  const { outcome } = message;
  if (!outcome) return '';
  const detail = outcomeDetail(outcome);
  const own = outcome.status === message.status ? outcome.at : `attempt ${outcome.attempt} ${outcome.status} ${outcome.at}`;
  return detail ? `${own} ${detail}` : own;
}

export function listTable(messages: readonly StoredMessage[]): string {
  return alignedColumns([
    ['id', 'received', 'status', 'score', 'signals', 'attempts', 'from', 'last error', 'outcome'],
    ...messages.map((message) =>
      [
        message.id,
        message.receivedAt,
        statusCell(message),
        scoreCell(message),
        signalsCell(message),
        String(message.attempts),
        message.email,
        message.lastError ?? '',
        outcomeText(message),
      ].map(printable),
    ),
  ]);
}

/** The delivery bookkeeping, in the order an operator reads it. */
const BOOKKEEPING_ROWS: [label: string, value: (message: StoredMessage) => string | undefined][] = [
  ['id', (message) => message.id],
  ['idempotency key', (message) => message.idempotencyKey],
  ['received', (message) => message.receivedAt],
  ['status', (message) => message.status],
  ...SPAM_ROWS,
  ['attempts', (message) => String(message.attempts)],
  ['last error', (message) => message.lastError],
  ['last attempt', (message) => message.lastAttemptAt],
  ['e-mailed', (message) => message.emailedAt],
  ['SES id', (message) => message.sesMessageId],
  ['sent through', (message) => message.configurationSet],
  [
    'outcome',
    (message) =>
      message.outcome && `${message.outcome.status} (attempt ${message.outcome.attempt}, SES id ${message.outcome.sesMessageId})`,
  ],
  ['outcome at', (message) => message.outcome?.at],
  ['mail server', (message) => (message.outcome && outcomeDetail(message.outcome)) || undefined],
  ['expires', (message) => `${new Date(message.expiresAt * 1000).toISOString()} (deleted by DynamoDB some time after)`],
];
const BOOKKEEPING = new Set<string>(BOOKKEEPING_ATTRIBUTES);

/** An attribute as text: a string as it is, anything else (a number, a list someone stored) as JSON. */
function attributeText(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Attributes that are neither the table's fields nor bookkeeping (written by hand, or by an older version), sorted. */
function otherAttributes(item: object, fields: FieldList): string[] {
  return Object.keys(item)
    .filter((key) => !BOOKKEEPING.has(key) && !Object.hasOwn(fields, key))
    .sort();
}

/** One message in full: its bookkeeping, then every field of the table (filled in or not) and any other attribute. */
export function messageText(message: StoredMessage, fields: FieldList = CONTACT_FIELDS): string {
  const item = message as unknown as Record<string, unknown>;
  const rows: [string, string][] = [
    ...BOOKKEEPING_ROWS.map(([label, value]): [string, string] => [label, value(message) ?? '—']),
    ...[...fieldNames(fields), ...otherAttributes(item, fields)].map((key): [string, string] => [key, attributeText(item[key])]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows
    .map(([label, value]) =>
      printable(value)
        .split('\n')
        .map((line, index) => `${(index === 0 ? label : '').padEnd(width)}  ${line}`.trimEnd())
        .join('\n'),
    )
    .join('\n');
}

/**
 * A message as the person it is from reads it: what they typed first, in the form's order,
 * then the bookkeeping, then anything else stored with it. Every attribute, as stored.
 */
function forReading(message: StoredMessage, fields: FieldList): Record<string, unknown> {
  const item = message as unknown as Record<string, unknown>;
  const order = [...fieldNames(fields), ...BOOKKEEPING_ATTRIBUTES, ...otherAttributes(item, fields)];
  return Object.fromEntries(order.filter((key) => Object.hasOwn(item, key)).map((key) => [key, item[key]]));
}

/** What is stored about an address: its messages, and what else names them (idempotency records, visitor counters). */
export interface Found extends LinkedRecords {
  messages: readonly StoredMessage[];
}

/**
 * An access request's answer, for portability: every stored message from the address, with
 * every attribute as stored, the idempotency records of those messages (a keyed hash of the
 * fields, no text), the visitor counters that count them (a keyed hash of the network) and
 * the records of the proof-of-work stamps they used.
 */
export function exportJson(address: string, found: Found, at: Date, fields: FieldList = CONTACT_FIELDS): string {
  const readable = found.messages.map((message) => forReading(message, fields));
  return JSON.stringify(
    {
      address,
      exportedAt: at.toISOString(),
      count: found.messages.length,
      messages: readable,
      idempotencyRecords: found.idempotencyRecords,
      visitorCounters: found.visitorCounters,
      stampRecords: found.stampRecords,
    },
    null,
    2,
  );
}

/** What an erasure will delete, one line a message. */
export function erasePreview(messages: readonly StoredMessage[]): string {
  return alignedColumns([
    ['id', 'received', 'status', 'name', 'from'],
    ...messages.map((message) => [message.id, message.receivedAt, message.status, message.name, message.email].map(printable)),
  ]);
}
