/**
 * The contact-messages table: keys, index and TTL attribute. One definition, used by the
 * handler, the retry job, the CDK table and the local stack's CreateTable.
 */
import type { FieldValues } from './contract';
import type { HeldFor, SpamSignal } from './spam';

export const DEFAULT_TABLE_NAME = 'contact-messages';

/**
 * The id of the one item that holds the firm's digest's state (when the last went out, and the
 * last held message it counted). The retry job reads and claims it; its role may read and write
 * this item and no other (dynamodb:LeadingKeys).
 */
export const DIGEST_STATE_ID = 'digest#state';

/**
 * Every idempotency record's item id starts so. The contact function may delete such an item
 * (its own reservation of a key, taken back), and no other (dynamodb:LeadingKeys).
 */
export const IDEMPOTENCY_PREFIX = 'idempotency#';

/**
 * Every near-copy band's count of senders starts so: a keyed hash of the band and the day, never
 * the text. The contact function reads a message's bands in one BatchGetItem, a grant for these
 * items and no other (dynamodb:LeadingKeys).
 */
export const TEXT_PREFIX = 'text#';

/**
 * The outside check's posts (core/src/outside-check.ts) are kept under ids that start so, with
 * no status and no address: no index holds them, so the retry job, the digest and every
 * operator's command (list, wave, export) pass them by, and they expire within a day.
 */
export const CHECK_PREFIX = 'check#';

export const MESSAGE_TABLE = {
  /** Time-sortable message id (ULID); idempotency records use `idempotency#<key>`. */
  partitionKey: { name: 'id', type: 'S' },
  /** Epoch seconds; DynamoDB deletes the item some time after it passes (within a few days, AWS says). */
  timeToLiveAttribute: 'expiresAt',
  /**
   * Days back the table can be restored to (point-in-time recovery): how long what was
   * deleted, by its TTL or an erasure, stays in the backups. The privacy statement quotes it.
   */
  pointInTimeRecoveryDays: 35,
  /**
   * The global secondary indexes by name, each projecting whole items. The CDK table and
   * the local stack's CreateTable are both built from this map.
   */
  indexes: {
    /**
     * Sparse index over messages only (idempotency records carry no `status`), so the retry
     * job and `npm run messages` query by delivery status instead of scanning the table.
     */
    byStatus: {
      partitionKey: { name: 'status', type: 'S' },
      sortKey: { name: 'receivedAt', type: 'S' },
    },
    /**
     * Every message from one address (lower-cased, see emailKey), oldest first, so an access
     * or erasure request finds them all without scanning the table. Sparse like byStatus.
     */
    byEmail: {
      partitionKey: { name: 'emailKey', type: 'S' },
      sortKey: { name: 'receivedAt', type: 'S' },
    },
  },
} as const satisfies {
  partitionKey: KeyAttribute;
  timeToLiveAttribute: string;
  pointInTimeRecoveryDays: number;
  indexes: Record<string, { partitionKey: KeyAttribute; sortKey?: KeyAttribute }>;
};

export interface KeyAttribute {
  name: string;
  type: 'S' | 'N' | 'B';
}

export type IndexName = keyof typeof MESSAGE_TABLE.indexes;

/** Every attribute the table's keys and indexes use, once each: what CreateTable must declare. */
export function keyAttributes(): KeyAttribute[] {
  const indexKeys = Object.values<{ partitionKey: KeyAttribute; sortKey?: KeyAttribute }>(MESSAGE_TABLE.indexes).flatMap((index) =>
    index.sortKey ? [index.partitionKey, index.sortKey] : [index.partitionKey],
  );
  const byName = new Map([MESSAGE_TABLE.partitionKey, ...indexKeys].map((key) => [key.name, key]));
  return [...byName.values()];
}

/**
 * A message's delivery state. `received`: waiting for (another) e-mail attempt; `emailed`:
 * SES accepted it, its outcome not yet reported; `failed`: the retry job gave up; `held`:
 * suspect, or past the mail budget, so the firm hears of it in the digest and an operator
 * releases it (core/src/spam.ts); `spam`: marked so by the operator in a wave, kept for a
 * short time only. The rest are what SES's delivery events report about the last attempt
 * (DELIVERY_OUTCOMES).
 */
export const MESSAGE_STATUSES = [
  'received',
  'emailed',
  'delayed',
  'delivered',
  'complained',
  'bounced',
  'rejected',
  'failed',
  'held',
  'spam',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The statuses a delivery event sets, each with its precedence among the events of one
 * attempt: a higher one replaces a lower one, never the other way round, so events may
 * arrive late, twice or out of order. A delay only shows until the mail server answers; a
 * complaint (the firm's mail filter called it spam) follows a delivery; a bounce can come
 * after a delivery too (the server accepted, then returned it), and is what the firm must
 * hear of. `rejected`: SES did not send it at all (a Reject or a Rendering Failure).
 */
export const DELIVERY_OUTCOMES = { delayed: 1, delivered: 2, complained: 3, bounced: 4, rejected: 4 } as const satisfies Partial<
  Record<MessageStatus, number>
>;
export type DeliveryStatus = keyof typeof DELIVERY_OUTCOMES;

/** The statuses of a message SES accepted whose delivery it has not confirmed (yet). */
export const AWAITING_DELIVERY = ['emailed', 'delayed'] as const satisfies readonly MessageStatus[];

/** What SES reported about one attempt's e-mail: the status it set, when, and what the mail server said. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  /** The delivery attempt it is about: 1 for the contact function's e-mail, one more for each retry or resend. */
  attempt: number;
  /** DELIVERY_OUTCOMES[status], kept so a conditional update can compare without knowing the table above. */
  precedence: number;
  /** The event's own time (ISO), as SES reports it. */
  at: string;
  sesMessageId: string;
  /** Bounces: Permanent, Transient or Undetermined, and SES's subtype (General, MailboxFull, …). */
  bounceType?: string;
  bounceSubType?: string;
  /** What the receiving mail server answered (a bounce or a delay), e.g. `smtp; 550 5.1.1 user unknown`. */
  diagnosticCode?: string;
  /** A delay's kind (MailboxFull, TransientCommunicationFailure, …), a complaint's feedback type, or why SES rejected it. */
  reason?: string;
}

/** A stored contact message: what the visitor typed (the contact fields) plus our bookkeeping. */
export interface StoredMessage extends FieldValues {
  id: string;
  receivedAt: string;
  /** The address as the byEmail index holds it: emailKey(email). */
  emailKey: string;
  /** The Idempotency-Key the message was claimed under (a form post's is made from its content), so erasure finds its record. */
  idempotencyKey?: string;
  status: MessageStatus;
  attempts: number;
  lastError?: string;
  /** When delivery was last tried (ISO); the retry job backs off from it. */
  lastAttemptAt?: string;
  emailedAt?: string;
  /** SES's id of the last e-mail it accepted for this message: that of attempt `emailedAttempt`. */
  sesMessageId?: string;
  /**
   * The attempt `sesMessageId` and `emailedAt` belong to. A delivery event of that attempt
   * counts only with that SES message id; absent on messages e-mailed before it was kept.
   */
  emailedAttempt?: number;
  /** The SES configuration set the last e-mail went through: its delivery events come back to this message. */
  configurationSet?: string;
  /** The last delivery event that counted; a newer attempt's events replace it. */
  outcome?: DeliveryOutcome;
  expiresAt: number;
  /** The spam score and the signals it is made of (core/src/spam.ts); absent on messages stored before scoring. */
  score?: number;
  signals?: SpamSignal[];
  /** A keyed hash of the message's text (never the text), so a wave of the same text is found without reading it. */
  fingerprint?: string;
  /** Why a held message was not e-mailed on its own. */
  heldFor?: HeldFor;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * When a message that arrived at `receivedAt` (ISO) expires, kept `retentionDays` (the
 * deploy's retentionDays): the TTL the contact function writes, and the one
 * `npm run messages -- retention` brings stored messages to when the period gets shorter.
 */
export function expiresAtFor(receivedAt: string, retentionDays: number): number {
  return Math.floor(Date.parse(receivedAt) / 1000) + retentionDays * DAY_SECONDS;
}

/**
 * An address as the byEmail index keys it. Lower-cased whole: people type their address in
 * any case, and no mail provider the firm will meet treats the local part's case as meaningful.
 */
export function emailKey(address: string): string {
  return address.trim().toLowerCase();
}

/** Every attribute of a stored message besides the contact fields: the table's own bookkeeping. */
export const BOOKKEEPING_ATTRIBUTES = [
  'id',
  'emailKey',
  'idempotencyKey',
  'receivedAt',
  'status',
  'attempts',
  'lastError',
  'lastAttemptAt',
  'emailedAt',
  'sesMessageId',
  'emailedAttempt',
  'configurationSet',
  'outcome',
  'expiresAt',
  'score',
  'signals',
  'fingerprint',
  'heldFor',
] as const satisfies readonly (keyof StoredMessage)[];
