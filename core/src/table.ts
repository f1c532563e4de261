/**
 * The contact-messages table: keys, index and TTL attribute. One definition, used by the
 * handler, the retry job, the CDK table and the local stack's CreateTable.
 */
import type { FieldValues } from './contract';

export const DEFAULT_TABLE_NAME = 'contact-messages';

export const MESSAGE_TABLE = {
  /** Time-sortable message id (ULID); idempotency records use `idempotency#<key>`. */
  partitionKey: { name: 'id', type: 'S' },
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  timeToLiveAttribute: 'expiresAt',
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

/** A message's delivery state: waiting for (another) e-mail attempt, e-mailed, or given up on. */
export const MESSAGE_STATUSES = ['received', 'emailed', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

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
  sesMessageId?: string;
  expiresAt: number;
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
  'expiresAt',
] as const satisfies readonly (keyof StoredMessage)[];
