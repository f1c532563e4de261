import { emailKey, expiresAtFor, type StoredMessage } from '@site/core/table';

/**
 * Makes messages as the contact function stores them, each with an id and address of its
 * own, received `stepMs` after the one before (before it, when negative), starting one step
 * from `from`. What a test gives in `more` wins; a given address gets its own email key.
 */
export function messageMaker({
  idPrefix,
  from,
  stepMs = 60_000,
  retentionDays = 365,
}: {
  idPrefix: string;
  from: Date;
  stepMs?: number;
  retentionDays?: number;
}): (more?: Partial<StoredMessage>) => StoredMessage {
  let serial = 0;
  return (more = {}) => {
    serial += 1;
    const receivedAt = new Date(from.getTime() + serial * stepMs).toISOString();
    const email = more.email ?? `bezoeker${serial}@voorbeeld.nl`;
    return {
      id: `${idPrefix}${String(serial).padStart(8, '0')}`,
      name: 'Jan de Vries',
      email,
      message: 'Graag een offerte voor het voorjaar.',
      emailKey: emailKey(email),
      receivedAt,
      status: 'received',
      attempts: 0,
      expiresAt: expiresAtFor(receivedAt, retentionDays),
      ...more,
    };
  };
}
