/**
 * What the suite reads back after each phase, and the rules it holds it to: the table (by
 * Scan, so nothing can hide outside an index) and the SES emulator's outbox. The rules
 * come from docs/design.md and core/src/contract.ts, not from the handler's code, so a
 * handler change that breaks the contract is caught here.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { hasLineBreaking, hasUnneededInvisible, isBlank } from '@site/lambda/characters';
import { mailbox } from '@site/lambda/mail-header';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { DIGEST_TEXT } from '@site/core/content/digest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FIELDS, TEXT_FIELDS } from './contact-fields';
import { HELD_FOR, scoreOf, type HeldFor, type SpamSignal } from '@site/core/spam';
import { BOOKKEEPING_ATTRIBUTES, DIGEST_STATE_ID, IDEMPOTENCY_PREFIX, MESSAGE_STATUSES } from '@site/core/table';
import { VISITOR_COUNTER_PREFIX } from '@site/lambda/visitor-limit';
import { BUDGET_HOUR_ATTRIBUTE, BUDGET_PREFIX } from '@site/lambda/mail-budget';
import { CHALLENGE_PREFIX } from '@site/lambda/challenge-limit';
import { TEXT_PREFIX } from '@site/core/table';
import { STAMP_PREFIX } from '@site/lambda/spam-store';
import { emulatorClientConfig } from '@site/emulators/connections';
import { fetchSentEmails, type SentEmail } from '@site/emulators/servers';

export type Item = Record<string, unknown> & { id: string };

export interface TableContents {
  messages: Item[];
  idempotency: Item[];
  /** The visitor limit's counters. */
  visitors: Item[];
  /** What the spam signals and the mail budget count: stamp uses, texts' senders, budget counters, the digest's state. */
  spamRecords: Item[];
}

/** The spam records' kinds, by id prefix, and the attributes each may hold: ids, keyed hashes, counts and times, never visitor text. */
const SPAM_RECORDS: { prefix: string; attributes: string[]; counts?: RegExp }[] = [
  { prefix: STAMP_PREFIX, attributes: ['id', 'messageId', 'expiresAt'] },
  { prefix: TEXT_PREFIX, attributes: ['id', 'senders', 'expiresAt'] },
  { prefix: BUDGET_PREFIX, attributes: ['id', 'sent', 'expiresAt'], counts: BUDGET_HOUR_ATTRIBUTE },
  { prefix: CHALLENGE_PREFIX, attributes: ['id', 'issued', 'expiresAt'] },
  { prefix: DIGEST_STATE_ID, attributes: ['id', 'sentAt', 'through'] },
];

/** Every item in the table, messages, idempotency records, visitor counters and spam records apart. */
export async function scanTable(endpoint: string, tableName: string): Promise<TableContents> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(emulatorClientConfig(endpoint)));
  const contents: TableContents = { messages: [], idempotency: [], visitors: [], spamRecords: [] };
  try {
    // Bounded: 10,000 pages of 1 MB is far beyond anything this suite writes.
    let pages = 0;
    for await (const page of paginateScan({ client, pageSize: 1000 }, { TableName: tableName, ConsistentRead: true })) {
      for (const item of (page.Items ?? []) as Item[]) {
        const id = String(item.id);
        if (id.startsWith(IDEMPOTENCY_PREFIX)) contents.idempotency.push(item);
        else if (id.startsWith(VISITOR_COUNTER_PREFIX)) contents.visitors.push(item);
        else if (SPAM_RECORDS.some(({ prefix }) => id.startsWith(prefix))) contents.spamRecords.push(item);
        else contents.messages.push(item);
      }
      if (++pages > 10_000) throw new Error('scan did not end after 10,000 pages');
    }
  } finally {
    client.destroy();
  }
  return contents;
}

export async function sentEmails(sesUrl: string): Promise<SentEmail[]> {
  return fetchSentEmails(sesUrl);
}

/** A message id as the handler makes it. */
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const STATUSES = new Set<unknown>(MESSAGE_STATUSES);
/** Every attribute a stored message may have: the contact fields and the table's bookkeeping. */
const KNOWN_ATTRIBUTES = new Set<string>([...FIELDS, ...BOOKKEEPING_ATTRIBUTES]);
// Characters that turn one address into two, or an address into a header.
// eslint-disable-next-line no-control-regex -- finds the characters that would split or end an address
const ADDRESS_BREAKERS = /[\s,;<>"\u0000-\u001F\u007F\u2028\u2029]/u;
const LINE_BREAKS = /[\r\n\u2028\u2029]/;

/** Length as the contract counts it: characters (code points), so an emoji is one. */
const characters = (text: string) => [...text].length;

export function isSingleAddress(address: unknown): boolean {
  if (typeof address !== 'string' || ADDRESS_BREAKERS.test(address)) return false;
  const parts = address.split('@');
  return parts.length === 2 && parts[0]!.length > 0 && parts[1]!.includes('.');
}

/** What is wrong with a stored message, by rule name (never the visitor's text). */
export function problemsOfStoredMessage(item: Item, now = Date.now()): string[] {
  const problems: string[] = [];
  if (!ULID.test(item.id)) problems.push('id is not a ULID');
  if (typeof item.receivedAt !== 'string' || Number.isNaN(Date.parse(item.receivedAt))) problems.push('receivedAt is not a date');
  for (const field of FIELDS) {
    const { limit, required, kind } = CONTACT_FIELDS[field];
    const value = item[field];
    if (value === undefined && !required) continue;
    if (typeof value !== 'string') {
      problems.push(`${field} is not a string`);
      continue;
    }
    if (isBlank(value)) problems.push(`${field} is empty`);
    if (hasUnneededInvisible(value)) problems.push(`${field} holds an invisible character text does not need`);
    if (characters(value) > limit) problems.push(`${field} longer than ${limit}`);
    if (kind !== 'multiline' && LINE_BREAKS.test(value)) problems.push(`${field} holds a line break`);
  }
  if (!isSingleAddress(item.email)) problems.push('email is not one plain address');
  if (typeof item.email === 'string' && item.emailKey !== item.email.toLowerCase())
    problems.push('emailKey is not the address lower-cased');
  if (!STATUSES.has(item.status)) problems.push(`status is not ${MESSAGE_STATUSES.join('/')}`);
  if (typeof item.attempts !== 'number' || !Number.isInteger(item.attempts) || item.attempts < 0) problems.push('attempts is not a count');
  if (typeof item.expiresAt !== 'number' || item.expiresAt * 1000 <= now) problems.push('expiresAt is not in the future');
  if (item.status === 'emailed' && typeof item.sesMessageId !== 'string') problems.push('emailed without sesMessageId');
  if (item.status === 'held' && !HELD_FOR.includes(item.heldFor as HeldFor)) problems.push('held without a reason');
  if (typeof item.score !== 'number' || !Array.isArray(item.signals)) problems.push('no spam score and signals');
  else if (item.score !== scoreOf(item.signals as SpamSignal[])) problems.push('score is not the sum of its signals');
  for (const key of Object.keys(item))
    if (!KNOWN_ATTRIBUTES.has(key)) problems.push(`unexpected attribute ${JSON.stringify(key.slice(0, 40))}`);
  return problems;
}

/** A spam record holds only what its kind may: no status (so no index), no address, no visitor text. */
export function problemsOfSpamRecord(item: Item): string[] {
  const kind = SPAM_RECORDS.find(({ prefix }) => item.id.startsWith(prefix));
  if (!kind) return ['not a spam record'];
  const extra = Object.keys(item).filter((key) => !kind.attributes.includes(key) && !kind.counts?.test(key));
  const problems =
    extra.length > 0 ? [`${kind.prefix} record holds ${extra.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`] : [];
  if (kind.prefix !== DIGEST_STATE_ID && typeof item.expiresAt !== 'number') problems.push(`${kind.prefix} record without a TTL`);
  return problems;
}

/** Idempotency records must stay out of the status index: no `status`, and a message id. */
export function problemsOfIdempotencyRecord(item: Item): string[] {
  const problems: string[] = [];
  if ('status' in item) problems.push('idempotency record has a status');
  if (typeof item.messageId !== 'string' || !ULID.test(item.messageId)) problems.push('idempotency record without a message id');
  return problems;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$|()[\]{}\\]/g, '\\$&');
/** The digest's subjects (one held message, or a count), learnt from the content, the count captured. */
const DIGEST_SUBJECT = new RegExp(
  '^(?:' +
    [DIGEST_TEXT.subject(1), DIGEST_TEXT.subject(2)].map((subject) => escapeRegExp(subject).replace(/\d+/, '(\\d+)')).join('|') +
    ')$',
);

/** How many held messages a digest e-mail counts, read from its subject; undefined for any other e-mail. */
export function digestCountOf(email: SentEmail): number | undefined {
  const match = DIGEST_SUBJECT.exec(email.subject);
  if (!match) return undefined;
  return Number(match[1] ?? match[2]);
}

/**
 * What is unsafe in a digest: it goes to MAIL_TO only, from the named MAIL_FROM, as plain
 * text, and answers no one (no Reply-To), since it speaks of many visitors.
 */
export function problemsOfDigest(email: SentEmail, expected: { mailFrom: string; mailTo: string[] }): string[] {
  const problems: string[] = [];
  if (email.from !== mailbox(DIGEST_TEXT.sender, expected.mailFrom)) problems.push('digest: from is not the named MAIL_FROM');
  if (JSON.stringify([...email.destination.to].sort()) !== JSON.stringify([...expected.mailTo].sort()))
    problems.push('digest: to is not exactly MAIL_TO');
  if (email.destination.cc.length + email.destination.bcc.length > 0) problems.push('digest: has Cc or Bcc');
  if (email.replyTo.length > 0) problems.push('digest: has a Reply-To');
  if (email.body.html) problems.push('digest: has an HTML body');
  return problems;
}

/** The message id the notification names ("Kenmerk: <id>"), to tie an e-mail to its item. */
export function messageIdOf(email: SentEmail): string | undefined {
  return (
    /Kenmerk: ([0-9A-HJKMNP-TV-Z]{26})/.exec(email.body.text ?? '')?.[1] ??
    /Kenmerk: ([0-9A-HJKMNP-TV-Z]{26})</.exec(email.body.html ?? '')?.[1]
  );
}

/** The load generator's content marker (see submissions.ts), if this text carries one. */
export function markerOf(text: string | undefined): string | undefined {
  return /Kenmerk: (RB[A-Za-z0-9]+)/.exec(text ?? '')?.[1];
}

/** The load generator's content marker in a stored message, read from its text fields. */
export function markerOfItem(item: Item): string | undefined {
  return markerOf(TEXT_FIELDS.map((field) => item[field]).join('\n'));
}

/** The tags the notification template uses, learnt from e-mails built from harmless text. */
export function templateTags(emails: SentEmail[]): Set<string> {
  const tags = new Set<string>();
  for (const email of emails)
    for (const match of (email.body.html ?? '').matchAll(/<\/?!?([A-Za-z][A-Za-z0-9]*)/g)) tags.add(match[1]!.toLowerCase());
  return tags;
}

/**
 * What is unsafe in one e-mail: a header injected through the subject, a recipient the
 * firm did not configure, a Reply-To that is not exactly the visitor's one address, or
 * visitor HTML that reached the HTML body unescaped.
 */
export function problemsOfEmail(
  email: SentEmail,
  expected: { mailFrom: string; mailTo: string[]; tags: Set<string>; skeleton: string },
  item?: Item,
): string[] {
  const problems: string[] = [];
  if (hasLineBreaking(email.subject)) problems.push('subject holds a control character or line break');
  if (email.from !== mailbox(NOTIFICATION_TEXT.sender, expected.mailFrom)) problems.push('from is not the named MAIL_FROM');
  if (JSON.stringify([...email.destination.to].sort()) !== JSON.stringify([...expected.mailTo].sort()))
    problems.push('to is not exactly MAIL_TO');
  if (email.destination.cc.length > 0) problems.push('has Cc');
  if (email.destination.bcc.length > 0) problems.push('has Bcc');
  if (email.replyTo.length !== 1 || !isSingleAddress(email.replyTo[0])) problems.push('reply-to is not one plain address');
  if (item && email.replyTo[0] !== item.email) problems.push("reply-to is not the stored visitor's address");
  const html = email.body.html ?? '';
  if (/<\s*script/i.test(html)) problems.push('html holds <script');
  // The hostile generator marks its HTML with this attribute: escaped, no raw '<' precedes it.
  if (/<[^<>]*data-rb-probe/i.test(html)) problems.push('html holds visitor markup unescaped');
  if (expected.tags.size > 0) {
    for (const match of html.matchAll(/<\/?!?([A-Za-z][A-Za-z0-9]*)/g)) {
      if (!expected.tags.has(match[1]!.toLowerCase())) {
        problems.push(`html holds a tag the template never uses (<${match[1]!.slice(0, 20)})`);
        break;
      }
    }
  }
  // Text from the visitor with '<' must appear escaped: its raw form must not be in the HTML.
  // A fragment the template itself contains (a visitor typing "<p>") proves nothing, so a
  // fragment is only tested when the HTML of a harmless e-mail (the skeleton) lacks it.
  if (item) {
    for (const field of FIELDS) {
      const value = item[field];
      if (typeof value !== 'string' || !value.includes('<')) continue;
      for (const line of value.split('\n')) {
        const at = line.indexOf('<');
        if (at < 0) continue;
        const fragment = line.slice(at, at + 12);
        if (!expected.skeleton.includes(fragment) && html.includes(fragment)) {
          problems.push(`${field}: visitor '<' unescaped in html`);
          break;
        }
      }
    }
  }
  return problems;
}

/** Counts per key, and the keys seen more than once. */
export function tally<T>(values: Iterable<T>): { counts: Map<T, number>; repeated: T[] } {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return { counts, repeated: [...counts].filter(([, n]) => n > 1).map(([value]) => value) };
}

const COUNTER_ID = new RegExp(`^${VISITOR_COUNTER_PREFIX}[0-9a-f]{32}#\\d+$`);

/** A message a counter counts: its id, and when it was counted (epoch ms; 0 once found stored). */
const COUNTED_MESSAGE = /^message#[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * A visitor counter holds the hash of an address, its window, the messages it counts (by id,
 * never their content), their number and a short TTL (its window's end): nothing else.
 */
export function problemsOfVisitorCounter(item: Item, windowSeconds: number): string[] {
  const problems: string[] = [];
  if (!COUNTER_ID.test(item.id)) problems.push('id is not visitor#<hash>#<window>');
  const entries = Object.keys(item).filter((key) => COUNTED_MESSAGE.test(key));
  const extra = Object.keys(item).filter((key) => !['id', 'messageCount', 'expiresAt'].includes(key) && !COUNTED_MESSAGE.test(key));
  if (extra.length > 0) problems.push(`attributes beyond id, messageCount, expiresAt and message#<id>: ${extra.join(', ')}`);
  if (entries.some((key) => typeof item[key] !== 'number')) problems.push('a message entry is not a time');
  if (item.messageCount !== entries.length) problems.push('messageCount is not the number of messages it counts');
  const window = Number(item.id.split('#')[2]);
  if (item.expiresAt !== (window + 1) * windowSeconds) problems.push("expiresAt is not its window's end");
  if (typeof item.expiresAt !== 'number' || item.expiresAt > Date.now() / 1000 + windowSeconds)
    problems.push('expiresAt is further away than one window');
  return problems;
}
