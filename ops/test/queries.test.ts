/**
 * What the operator's commands (`npm run messages`: list, show, export, erase, retention)
 * read from and change in the message table, through their queries (messages/queries.ts) against
 * dynalite: the newest messages across statuses, one address's messages in any case, every
 * message's expiry a page at a time, an expiry moved earlier and never later, the idempotency
 * records and visitor counters that name a person's messages, and erasure that removes exactly
 * what it names. Idempotency records share the table; none of these ever takes one for a message.
 */
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import { MESSAGE_STATUSES, type MessageStatus, type StoredMessage } from '@site/core/table';
import { claimIdempotencyKey, deleteIdempotencyRecord } from '@site/lambda/idempotency-records';
import { getMessage, storeMessage, type MessageTable } from '@site/lambda/store';
import {
  deleteEmptyCounter,
  deleteMessage,
  findLinkedRecords,
  forgetCountedMessage,
  listByEmail,
  listExpiries,
  listLatest,
  shortenExpiry,
  type MessageExpiry,
} from '../messages/queries';
import { useLocalTable } from './support/local-table';
import { messageMaker } from '@site/testing/stored-messages';

const RETENTION_DAYS = 365;
const START = Date.UTC(2026, 10, 2, 9, 0, 0);

/** A message as the contact function stores it; each one arrives a minute after the one before. */
const aMessage = messageMaker({ idPrefix: '01JDMSG', from: new Date(START), retentionDays: RETENTION_DAYS });

async function stored(table: MessageTable, more: Partial<StoredMessage> = {}): Promise<StoredMessage> {
  const message = aMessage(more);
  expect(await storeMessage(table, message)).toBe('stored');
  return message;
}

/** An idempotency record in the table, claimed as the contact function claims one. */
async function claimed(table: MessageTable, key: string, messageId: string) {
  const claim = await claimIdempotencyKey(table, {
    key,
    messageId,
    bodyHashes: { current: `hash-of-${messageId}` },
    hashKeyName: 'current',
    now: new Date(START),
  });
  expect(claim).toEqual({ outcome: 'claimed', messageId });
  return {
    id: `idempotency#${key}`,
    messageId,
    bodyHash: `hash-of-${messageId}`,
    hashKeyName: 'current',
    expiresAt: START / 1000 + IDEMPOTENCY_TTL_SECONDS,
  };
}

/** A table that is not there: a wrong stage or table name, which must be an error and never a quiet "nothing to do". */
const missingTable = (table: MessageTable): MessageTable => ({ name: 'contact-messages-not-there', client: table.client });

const expiryOf = ({ id, receivedAt, expiresAt }: StoredMessage): MessageExpiry => ({ id, receivedAt, expiresAt });
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

describe('listing every message’s expiry for the retention command', () => {
  const stack = useLocalTable();

  it('yields each message of every status once, with only its id, arrival and expiry, and no idempotency record', async () => {
    const { table } = stack.aws;
    const messages: StoredMessage[] = [];
    for (const status of MESSAGE_STATUSES) messages.push(await stored(table, { status }));
    // More of one status than fit a page, so the listing has to follow the pages.
    for (let extra = 0; extra < 4; extra += 1) messages.push(await stored(table, { status: 'delivered', attempts: 1 }));
    await claimed(table, 'b6a1c0de-0000-4000-8000-000000000001', messages[0]!.id);

    const expected = messages.map(expiryOf).sort(byId);
    expect((await collect(listExpiries(table, 2))).sort(byId)).toEqual(expected);
    expect((await collect(listExpiries(table))).sort(byId)).toEqual(expected);
  });
});

describe('shortening a message’s expiry', () => {
  const stack = useLocalTable();

  it('moves the expiry earlier and answers true, leaving the rest of the message as it was', async () => {
    const message = await stored(stack.aws.table);
    const earlier = message.expiresAt - 30 * 24 * 60 * 60;
    expect(await shortenExpiry(stack.aws.table, message.id, earlier)).toBe(true);
    expect(await stack.aws.message(message.id)).toEqual({ ...message, expiresAt: earlier });
  });

  it('never moves it later or to the same time, and answers false', async () => {
    const message = await stored(stack.aws.table);
    expect(await shortenExpiry(stack.aws.table, message.id, message.expiresAt + 60)).toBe(false);
    expect(await shortenExpiry(stack.aws.table, message.id, message.expiresAt)).toBe(false);
    expect(await stack.aws.message(message.id)).toEqual(message);
  });

  it('answers false for a message that is gone, and does not make an item of its own', async () => {
    expect(await shortenExpiry(stack.aws.table, '01JDGONE0000000000000000', 1_800_000_000)).toBe(false);
    expect(await stack.aws.message('01JDGONE0000000000000000')).toBeUndefined();
  });

  it('fails when the table is not there, rather than reporting nothing shortened', async () => {
    await expect(shortenExpiry(missingTable(stack.aws.table), '01JDANY00000000000000000', 1_800_000_000)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

describe('listing the newest messages', () => {
  const stack = useLocalTable();
  // Oldest first; the statuses interleave, and `delivered` holds more than the limit.
  const statuses: MessageStatus[] = ['received', 'emailed', 'delivered', 'received', 'delivered', 'emailed', 'delivered'];
  let messages: StoredMessage[] = [];
  const newest = (list: StoredMessage[], count: number) => [...list].reverse().slice(0, count);

  it('gives the newest of all statuses, newest first, no more than the limit', async () => {
    messages = [];
    for (const status of statuses) messages.push(await stored(stack.aws.table, { status }));
    await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000002', messages[0]!.id);

    expect(await listLatest(stack.aws.table, 2)).toEqual(newest(messages, 2));
    expect(await listLatest(stack.aws.table, 5)).toEqual(newest(messages, 5));
    expect(await listLatest(stack.aws.table, 50)).toEqual(newest(messages, messages.length));
  });

  it('gives only the newest of the status asked for', async () => {
    const delivered = messages.filter((message) => message.status === 'delivered');
    expect(await listLatest(stack.aws.table, 2, 'delivered')).toEqual(newest(delivered, 2));
    expect(await listLatest(stack.aws.table, 10, 'failed')).toEqual([]);
  });
});

describe('reading one message', () => {
  const stack = useLocalTable();

  it('gives the message stored under the id', async () => {
    const message = await stored(stack.aws.table);
    expect(await getMessage(stack.aws.table, message.id)).toEqual(message);
  });

  it('gives nothing for an idempotency record’s id, or for an id nothing is stored under', async () => {
    const message = await stored(stack.aws.table);
    const record = await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000003', message.id);
    expect(await getMessage(stack.aws.table, record.id)).toBeUndefined();
    expect(await getMessage(stack.aws.table, '01JDNOTHERE0000000000000')).toBeUndefined();
  });
});

describe('listing the messages of one address', () => {
  const stack = useLocalTable();

  it('gives every message from the address however it was typed, oldest first, and no one else’s', async () => {
    const { table } = stack.aws;
    const first = await stored(table, { email: 'Anna.Jansen@Voorbeeld.nl' });
    await stored(table, { email: 'piet@voorbeeld.nl' });
    const second = await stored(table, { email: 'anna.jansen@voorbeeld.nl', status: 'delivered', attempts: 1 });
    const third = await stored(table, { email: 'ANNA.JANSEN@VOORBEELD.NL', status: 'failed', attempts: 5 });

    expect(await listByEmail(table, ' anna.JANSEN@voorbeeld.NL ')).toEqual([first, second, third]);
    expect(await listByEmail(table, 'niemand@voorbeeld.nl')).toEqual([]);
  });
});

describe('what else names a person’s messages', () => {
  const stack = useLocalTable();
  const counterOf = (hash: string, ...entries: [messageId: string, at: number][]) => ({
    id: `visitor#${hash}#2941000`,
    messageCount: entries.length,
    expiresAt: 1_764_600_600,
    ...Object.fromEntries(entries.map(([messageId, at]) => [`message#${messageId}`, at])),
  });

  it('is every idempotency record and visitor counter that names one of them, and nothing of anyone else', async () => {
    const { table } = stack.aws;
    const [theirs, second, other] = [await stored(table), await stored(table), await stored(table)];
    const record = await claimed(table, 'b6a1c0de-0000-4000-8000-000000000010', theirs.id);
    // A record of a message stored before messages kept their key: found by the id it names.
    const unkeyed = await claimed(table, 'b6a1c0de-0000-4000-8000-000000000011', second.id);
    await claimed(table, 'b6a1c0de-0000-4000-8000-000000000012', other.id);
    await stack.aws.put(counterOf('a'.repeat(32), [theirs.id, 1_764_600_000_000], [other.id, 0]));
    await stack.aws.put(counterOf('b'.repeat(32), [theirs.id, 0], [second.id, 1_764_600_001_000]));
    await stack.aws.put(counterOf('c'.repeat(32), [other.id, 0]));

    const linked = await findLinkedRecords(table, new Set([theirs.id, second.id]));
    expect(linked.idempotencyRecords).toEqual([record, unkeyed].sort((a, b) => a.messageId.localeCompare(b.messageId)));
    expect(linked.visitorCounters).toEqual([
      { id: `visitor#${'a'.repeat(32)}#2941000`, expiresAt: 1_764_600_600, messageCount: 2, messageIds: [theirs.id] },
      { id: `visitor#${'b'.repeat(32)}#2941000`, expiresAt: 1_764_600_600, messageCount: 2, messageIds: [second.id, theirs.id].sort() },
    ]);
    expect(await findLinkedRecords(table, new Set())).toEqual({ idempotencyRecords: [], visitorCounters: [], stampRecords: [] });
  });

  it('leaves a counter’s count the number of its entries when one is taken out, and deletes it only once it counts nothing', async () => {
    const { table } = stack.aws;
    const counter = counterOf('d'.repeat(32), ['01JDMSGA0000000000000000', 1], ['01JDMSGB0000000000000000', 0]);
    await stack.aws.put(counter);
    expect(await forgetCountedMessage(table, counter.id, '01JDMSGA0000000000000000')).toBe(true);
    expect(await forgetCountedMessage(table, counter.id, '01JDMSGA0000000000000000')).toBe(false);
    expect(await stack.aws.message(counter.id)).toEqual({
      id: counter.id,
      messageCount: 1,
      expiresAt: counter.expiresAt,
      'message#01JDMSGB0000000000000000': 0,
    });
    expect(await deleteEmptyCounter(table, counter.id)).toBe(false);
    expect(await forgetCountedMessage(table, counter.id, '01JDMSGB0000000000000000')).toBe(true);
    expect(await deleteEmptyCounter(table, counter.id)).toBe(true);
    expect(await stack.aws.message(counter.id)).toBeUndefined();
  });

  it('never deletes a message as an empty counter', async () => {
    const message = await stored(stack.aws.table);
    expect(await deleteEmptyCounter(stack.aws.table, message.id)).toBe(false);
    expect(await stack.aws.message(message.id)).toEqual(message);
  });
});

describe('erasing a message', () => {
  const stack = useLocalTable();

  it('deletes it and answers true', async () => {
    const message = await stored(stack.aws.table);
    expect(await deleteMessage(stack.aws.table, message.id)).toBe(true);
    expect(await stack.aws.message(message.id)).toBeUndefined();
  });

  it('answers false when it is already gone', async () => {
    expect(await deleteMessage(stack.aws.table, '01JDGONE0000000000000001')).toBe(false);
  });

  it('never deletes an idempotency record named by its id', async () => {
    const record = await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000020', '01JDSOMEMESSAGE000000000');
    expect(await deleteMessage(stack.aws.table, record.id)).toBe(false);
    expect(await stack.aws.message(record.id)).toEqual(record);
  });

  it('fails when the table is not there, rather than reporting the message gone', async () => {
    await expect(deleteMessage(missingTable(stack.aws.table), '01JDANY00000000000000000')).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

describe('erasing a message’s idempotency record', () => {
  const stack = useLocalTable();

  it('deletes the record that reserved the message and answers true', async () => {
    const record = await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000030', '01JDERASED00000000000000');
    const key = { key: 'b6a1c0de-0000-4000-8000-000000000030', messageId: '01JDERASED00000000000000' };
    expect(await deleteIdempotencyRecord(stack.aws.table, key)).toBe(true);
    expect(await stack.aws.message(record.id)).toBeUndefined();
  });

  it('answers false and keeps the record when the key has since reserved another message', async () => {
    const record = await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000031', '01JDLATERMESSAGE00000000');
    const key = { key: 'b6a1c0de-0000-4000-8000-000000000031', messageId: '01JDEARLIERMESSAGE000000' };
    expect(await deleteIdempotencyRecord(stack.aws.table, key)).toBe(false);
    expect(await stack.aws.message(record.id)).toEqual(record);
  });

  it('answers false when there is no record', async () => {
    const key = { key: 'b6a1c0de-0000-4000-8000-000000000032', messageId: '01JDNORECORD000000000000' };
    expect(await deleteIdempotencyRecord(stack.aws.table, key)).toBe(false);
  });

  it('fails when the table is not there, rather than reporting no record', async () => {
    const key = { key: 'b6a1c0de-0000-4000-8000-000000000033', messageId: '01JDANY00000000000000000' };
    await expect(deleteIdempotencyRecord(missingTable(stack.aws.table), key)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('gives up when its time is up, leaving the record in place', async () => {
    // The contact function releases a claim with a deadline (AbortSignal.timeout); past it, nothing is deleted.
    const record = await claimed(stack.aws.table, 'b6a1c0de-0000-4000-8000-000000000034', '01JDDEADLINE000000000000');
    const key = { key: 'b6a1c0de-0000-4000-8000-000000000034', messageId: '01JDDEADLINE000000000000' };
    await expect(deleteIdempotencyRecord(stack.aws.table, key, AbortSignal.abort())).rejects.toThrow();
    expect(await stack.aws.message(record.id)).toEqual(record);
  });
});
