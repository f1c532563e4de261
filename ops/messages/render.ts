/** What `npm run messages` prints: stored messages as a table, in full, or as JSON. No I/O. */
import { textTable } from '@site/ops/text-table';
import { MESSAGE_NOISE } from '@site/lambda/characters';
import { FIELD_LIMITS } from '@site/core/contract';
import { BOOKKEEPING_ATTRIBUTES, type StoredMessage } from '@site/core/table';

/**
 * Stored text as a terminal may show it: control characters (an escape sequence could
 * rewrite the operator's screen) become U+FFFD. Validation keeps them out; this does not rely on it.
 */
function printable(text: string): string {
  return text.replace(MESSAGE_NOISE, '\uFFFD').replace(/\r/g, '\uFFFD');
}

export function listTable(messages: readonly StoredMessage[]): string {
  return textTable([
    ['id', 'received', 'status', 'attempts', 'from', 'last error'],
    ...messages.map((message) =>
      [message.id, message.receivedAt, message.status, String(message.attempts), message.email, message.lastError ?? ''].map(printable),
    ),
  ]);
}

/** The delivery bookkeeping, in the order an operator reads it. */
const BOOKKEEPING_ROWS: [label: string, value: (message: StoredMessage) => string | undefined][] = [
  ['id', (message) => message.id],
  ['received', (message) => message.receivedAt],
  ['status', (message) => message.status],
  ['attempts', (message) => String(message.attempts)],
  ['last error', (message) => message.lastError],
  ['last attempt', (message) => message.lastAttemptAt],
  ['e-mailed', (message) => message.emailedAt],
  ['SES id', (message) => message.sesMessageId],
  ['expires', (message) => `${new Date(message.expiresAt * 1000).toISOString()} (deleted by DynamoDB some time after)`],
];
const BOOKKEEPING = new Set<string>(BOOKKEEPING_ATTRIBUTES);

/** An attribute as text: a string as it is, anything else (a number, a list someone stored) as JSON. */
function attributeText(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One message in full: its bookkeeping, then every field the visitor filled in (and any other attribute). */
export function messageText(message: StoredMessage): string {
  const item = message as unknown as Record<string, unknown>;
  const contactFields = Object.keys(FIELD_LIMITS);
  const others = Object.keys(item)
    .filter((key) => !BOOKKEEPING.has(key) && !contactFields.includes(key))
    .sort();
  const rows: [string, string][] = [
    ...BOOKKEEPING_ROWS.map(([label, value]): [string, string] => [label, value(message) ?? '—']),
    ...[...contactFields, ...others].map((key): [string, string] => [key, attributeText(item[key])]),
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

/** An access request's answer: every stored message from the address, as stored. */
export function exportJson(address: string, messages: readonly StoredMessage[], at: Date): string {
  return JSON.stringify({ address, exportedAt: at.toISOString(), count: messages.length, messages }, null, 2);
}

/** What an erasure will delete, one line a message. */
export function erasePreview(messages: readonly StoredMessage[]): string {
  return textTable([
    ['id', 'received', 'status', 'name', 'from'],
    ...messages.map((message) => [message.id, message.receivedAt, message.status, message.name, message.email].map(printable)),
  ]);
}
