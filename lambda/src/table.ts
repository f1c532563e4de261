/**
 * The contact-messages table: keys, index and TTL attribute. One definition, used by the
 * handler, the retry job, the CDK table and the local stack's CreateTable.
 */

export const DEFAULT_TABLE_NAME = 'contact-messages';

export const MESSAGE_TABLE = {
  /** Time-sortable message id (ULID); idempotency records use `idempotency#<key>`. */
  partitionKey: { name: 'id', type: 'S' },
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  timeToLiveAttribute: 'expiresAt',
  /**
   * Sparse index over messages only (idempotency records carry no `status`), so the retry
   * job and `npm run messages` query by delivery status instead of scanning the table.
   */
  statusIndex: {
    indexName: 'byStatus',
    partitionKey: { name: 'status', type: 'S' },
    sortKey: { name: 'receivedAt', type: 'S' },
  },
} as const;

export type MessageStatus = 'received' | 'emailed' | 'failed';

/** A stored contact message, as in DESIGN.md. */
export interface StoredMessage {
  id: string;
  receivedAt: string;
  name: string;
  email: string;
  phone?: string;
  company?: string;
  message: string;
  status: MessageStatus;
  attempts: number;
  lastError?: string;
  /** When delivery was last tried (ISO); the retry job backs off from it. */
  lastAttemptAt?: string;
  emailedAt?: string;
  sesMessageId?: string;
  expiresAt: number;
}
