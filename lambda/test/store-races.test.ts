/**
 * The store's once-only writes when they meet what happens on a live table, against dynalite:
 * a message stored twice, an Idempotency-Key claimed again with the same or another body or
 * under a hash key since retired, a record the TTL sweeper removes between the write and
 * the read (once, or twice in a row), a restore putting records back, an attempt recorded for
 * a message erased meanwhile, a delivery event whose write DynamoDB throttles, and a retry
 * lease on a message never tried. Where DynamoDB itself must misbehave (the sweeper, the
 * throttle), the table's client is wrapped to do so at that moment; every other read and
 * write goes to dynalite.
 */
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import { DELIVERY_OUTCOMES, type DeliveryOutcome } from '@site/core/table';
import { claimIdempotencyKey, putIdempotencyRecord, type IdempotencyRecord } from '../src/store/idempotency-records';
import { leaseForRetry, markDeliveryFailed, markEmailed, recordDeliveryOutcome, storeMessage, type MessageTable } from '../src/store/store';
import { useContactStack } from './support/contact-stack';
import { messageMaker } from '@site/testing/stored-messages';

const NOW = new Date('2026-11-02T09:00:00.000Z');
const NOW_SECONDS = NOW.getTime() / 1000;
/** A message as the contact function stores it; each one arrived a minute before the one made before it. */
const aMessage = messageMaker({ idPrefix: '01JDRACE', from: NOW, stepMs: -60_000 });

const claimOf = (key: string, messageId: string, bodyHashes: Record<string, string>) => ({
  key,
  messageId,
  bodyHashes,
  hashKeyName: 'current',
  now: NOW,
});

type Send = (command: object) => Promise<unknown>;

/** The table, its client's sends passed through `intercept` (which forwards with `send`). */
function intercepted(table: MessageTable, intercept: (command: object, send: Send) => Promise<unknown>): MessageTable {
  const send: Send = (command) => table.client.send(command as GetCommand);
  return { name: table.name, client: { send: (command: object) => intercept(command, send) } as unknown as DynamoDBDocumentClient };
}

/** A table that is not there: a wrong stage or table name, which must be an error and never a quiet "already there". */
/** A table of this name, which is not there (deleted): the stand-ins' administrator reaches it, as the function's role reaches its own stage's. */
const missingTable = (client: DynamoDBDocumentClient): MessageTable => ({ name: 'contact-messages-not-there', client });

describe('storing a message', () => {
  const stack = useContactStack();

  it('answers stored the first time and exists the second, keeping the first', async () => {
    const message = aMessage();
    expect(await storeMessage(stack.aws.table, message)).toBe('stored');
    expect(await storeMessage(stack.aws.table, { ...message, message: 'Iets anders.' })).toBe('exists');
    expect(await stack.aws.message(message.id)).toEqual(message);
  });
});

describe('claiming an Idempotency-Key', () => {
  const stack = useContactStack();

  it('gives a retry with the same body the id of the first claim', async () => {
    const key = 'c1a1c0de-0000-4000-8000-000000000001';
    expect(await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDFIRST000000000000000', { current: 'hash-a' }))).toEqual({
      outcome: 'claimed',
      messageId: '01JDFIRST000000000000000',
    });
    expect(await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDSECOND00000000000000', { current: 'hash-a' }))).toEqual({
      outcome: 'replayed',
      messageId: '01JDFIRST000000000000000',
    });
  });

  it('refuses another body under the same key', async () => {
    const key = 'c1a1c0de-0000-4000-8000-000000000002';
    await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDFIRST000000000000001', { current: 'hash-a' }));
    expect(await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDSECOND00000000000001', { current: 'hash-b' }))).toEqual({
      outcome: 'conflict',
    });
  });

  it('honours a key claimed under a hash key since retired, whatever the body, since it can no longer be checked', async () => {
    const key = 'c1a1c0de-0000-4000-8000-000000000003';
    const before: IdempotencyRecord = {
      id: `idempotency#${key}`,
      messageId: '01JDBEFOREROTATION000000',
      bodyHash: 'hash-under-the-retired-key',
      hashKeyName: 'retired',
      expiresAt: NOW_SECONDS + 3600,
    };
    await stack.aws.put({ ...before });
    expect(
      await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDAFTERROTATION0000000', { current: 'hash-under-the-new-key' })),
    ).toEqual({ outcome: 'replayed', messageId: '01JDBEFOREROTATION000000' });
  });

  it('claims the key when the record it met expires and is removed before it can be read', async () => {
    const key = 'c1a1c0de-0000-4000-8000-000000000004';
    await claimIdempotencyKey(stack.aws.table, claimOf(key, '01JDEXPIRING000000000000', { current: 'hash-a' }));
    // The TTL sweeper removes the record between the refused put and the read.
    const table = intercepted(stack.aws.table, async (command, send) => {
      if (command instanceof GetCommand)
        await stack.aws.documents.send(new DeleteCommand({ TableName: stack.aws.tableName, Key: { id: `idempotency#${key}` } }));
      return send(command);
    });
    expect(await claimIdempotencyKey(table, claimOf(key, '01JDNEWCLAIM000000000000', { current: 'hash-b' }))).toEqual({
      outcome: 'claimed',
      messageId: '01JDNEWCLAIM000000000000',
    });
    expect(await stack.aws.message(`idempotency#${key}`)).toMatchObject({ messageId: '01JDNEWCLAIM000000000000', bodyHash: 'hash-b' });
  });

  it('gives up with an error when the record vanishes twice in a row, rather than trying for ever', async () => {
    const key = 'c1a1c0de-0000-4000-8000-000000000005';
    const held = { id: `idempotency#${key}`, messageId: '01JDOTHERS00000000000000', bodyHash: 'hash-a', hashKeyName: 'current' };
    await stack.aws.put({ ...held, expiresAt: NOW_SECONDS + 3600 });
    // Each read finds it gone, and another request claims it again right after: twice. A third read would find it.
    let vanished = 0;
    const table = intercepted(stack.aws.table, async (command, send) => {
      if (!(command instanceof GetCommand) || vanished === 2) return send(command);
      vanished += 1;
      await stack.aws.documents.send(new DeleteCommand({ TableName: stack.aws.tableName, Key: { id: held.id } }));
      const answer = await send(command);
      await send(new PutCommand({ TableName: stack.aws.tableName, Item: { ...held, expiresAt: NOW_SECONDS + 3600 } }));
      return answer;
    });
    await expect(claimIdempotencyKey(table, claimOf(key, '01JDUNLUCKY0000000000000', { current: 'hash-a' }))).rejects.toThrow(
      new Error('Idempotency record vanished twice while being claimed'),
    );
  });
});

describe('putting an idempotency record back (restore)', () => {
  const stack = useContactStack();
  const record = (key: string, expiresAt: number): IdempotencyRecord => ({
    id: `idempotency#${key}`,
    messageId: '01JDRESTORED000000000000',
    bodyHash: 'hash-a',
    hashKeyName: 'current',
    expiresAt,
  });

  it('puts it when the key is free or its record has expired, and not over a record still held', async () => {
    const free = record('c1a1c0de-0000-4000-8000-000000000010', NOW_SECONDS + IDEMPOTENCY_TTL_SECONDS);
    expect(await putIdempotencyRecord(stack.aws.table, free, NOW_SECONDS)).toBe(true);

    const held = { ...free, messageId: '01JDSOMEONEELSE000000000' };
    expect(await putIdempotencyRecord(stack.aws.table, held, NOW_SECONDS)).toBe(false);
    expect(await stack.aws.message(free.id)).toEqual(free);

    expect(await putIdempotencyRecord(stack.aws.table, held, free.expiresAt + 1)).toBe(true);
    expect(await stack.aws.message(free.id)).toEqual(held);
  });

  it('fails when the table is not there, rather than counting the record as already held', async () => {
    const any = record('c1a1c0de-0000-4000-8000-000000000011', NOW_SECONDS + 60);
    await expect(putIdempotencyRecord(missingTable(stack.aws.documents), any, NOW_SECONDS)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

describe('recording a delivery attempt for a message erased meanwhile', () => {
  const stack = useContactStack();

  it('fails with DynamoDB’s refusal, whether the attempt was e-mailed or failed', async () => {
    const message = aMessage();
    await storeMessage(stack.aws.table, message);
    await stack.aws.erase(message.id);

    const emailed = { sesMessageId: 'ses-0001', at: NOW, attempt: 1, configurationSet: 'set' };
    await expect(markEmailed(stack.aws.table, message.id, emailed)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const failed = { error: 'SES unavailable', at: NOW, giveUp: false, attempt: 1 };
    await expect(markDeliveryFailed(stack.aws.table, message.id, failed)).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(await stack.aws.message(message.id)).toBeUndefined();
  });
});

describe('a delivery event whose write DynamoDB throttles', () => {
  const stack = useContactStack();

  it('fails, so the event comes again, and is not counted as old news', async () => {
    const message = aMessage({ status: 'emailed', attempts: 1, emailedAttempt: 1, sesMessageId: 'ses-0002' });
    await storeMessage(stack.aws.table, message);
    const throttled = intercepted(stack.aws.table, async (command, send) => {
      if (command instanceof UpdateCommand) {
        throw new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput.', $metadata: {} });
      }
      return send(command);
    });
    const outcome: DeliveryOutcome = {
      status: 'delivered',
      attempt: 1,
      precedence: DELIVERY_OUTCOMES.delivered,
      at: NOW.toISOString(),
      sesMessageId: 'ses-0002',
    };
    await expect(recordDeliveryOutcome(throttled, message.id, outcome)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(await stack.aws.message(message.id)).toEqual(message);
  });
});

describe('leasing a message for a retry', () => {
  const stack = useContactStack();

  it('takes a message that was stored but never tried, once', async () => {
    // The contact function stopped between storing and its first attempt: no lastAttemptAt yet.
    const message = aMessage();
    await storeMessage(stack.aws.table, message);
    expect(await leaseForRetry(stack.aws.table, message, NOW)).toBe(true);
    expect(await stack.aws.message(message.id)).toEqual({ ...message, lastAttemptAt: NOW.toISOString() });
    // A second run that read the message before the lease does not get it.
    expect(await leaseForRetry(stack.aws.table, message, new Date(NOW.getTime() + 1000))).toBe(false);
  });

  it('fails when the table is not there, rather than leaving the message to another run', async () => {
    await expect(leaseForRetry(missingTable(stack.aws.documents), aMessage(), NOW)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
