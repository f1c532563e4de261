/**
 * What happens when SES or DynamoDB fail: a stored message is never lost and is delivered
 * by the retry job later; a message that cannot be stored is never e-mailed. Outages are
 * real (the stand-in servers are stopped or stop answering); aws-sdk-client-mock is used
 * only for errors the stand-ins cannot produce.
 */
import { randomUUID } from 'node:crypto';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { emailKey, type StoredMessage } from '@site/core/table';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { startFunctionAws, type FunctionAws } from './support/contact-stack';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';
import type { ContactHandler } from '../src/contact/contact-answer';
import { createContactHandler } from '../src/contact/contact-handler';
import { createRetryHandler, createRetryJob, nextAttemptAt, type RetryJob, type RetrySummary } from '../src/retry/retry';

let aws: FunctionAws;
let logs: CapturedLogs;
let handler: ContactHandler;
let retryUndelivered: RetryJob;
let retryHandler: () => Promise<RetrySummary>;

beforeAll(async () => {
  logs = captureLogs();
  aws = await startFunctionAws();
  handler = createContactHandler({ config: aws.config, clients: aws.clients });
  retryUndelivered = createRetryJob({ config: aws.config, clients: aws.clientsOf('retry-undelivered') });
  retryHandler = createRetryHandler({ config: aws.config, clients: aws.clientsOf('retry-undelivered') });
});

afterAll(async () => {
  await aws?.close();
  logs.restore();
});

// Every test starts from an empty table, a working SES and an empty outbox.
beforeEach(async () => {
  await aws.stopDynamoDb();
  await aws.startDynamoDb();
  await aws.stopSes();
  await aws.startSes();
  await aws.clearEmails();
});

const send = async (body: unknown = VALID_BODY, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  answer(await handler(contactEvent({ body, headers })));
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const lastLog = () => logs.entries().at(-1);

/** A message as the handler stores it, `ageMinutes` old, never tried (the handler stopped before SES). */
async function putUndelivered(ageMinutes: number, fields: Partial<StoredMessage> = {}): Promise<StoredMessage> {
  const receivedAt = new Date(Date.now() - ageMinutes * 60_000);
  const message: StoredMessage = {
    ...VALID_BODY,
    emailKey: emailKey(VALID_BODY.email),
    id: `01JD${randomUUID().replace(/-/g, '').slice(0, 22).toUpperCase()}`,
    receivedAt: receivedAt.toISOString(),
    status: 'received',
    attempts: 0,
    expiresAt: Math.floor(receivedAt.getTime() / 1000) + 86_400,
    ...fields,
  };
  await aws.put({ ...message });
  return message;
}

describe('when SES does not accept the e-mail', () => {
  it('keeps the message, answers 200, and the retry job delivers it once SES is back', async () => {
    await aws.stopSes();
    const response = await send();
    expect(response.statusCode).toBe(200);
    const id = response.json.id!;
    const deferred = await aws.message(id);
    expect(deferred).toMatchObject({ status: 'received', attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) });
    expect(deferred).not.toHaveProperty('emailedAt');
    expect(lastLog()).toMatchObject({ level: 'warn', outcome: 'stored_email_deferred', status: 200, attempts: 1, messageId: id });

    // Inside the grace period the message is left to the request that may still be sending it.
    expect(await retryUndelivered({ now: new Date() })).toEqual({
      examined: 0,
      delivered: 0,
      deferred: 0,
      failed: 0,
      skipped: 0,
      pending: 0,
      notDelivered: 0,
      digested: 0,
    });
    // After it, the backoff after one failed attempt still holds it back.
    expect(await retryUndelivered({ now: minutesFromNow(2) })).toMatchObject({ examined: 1, skipped: 1, pending: 1 });

    await aws.startSes();
    expect(await retryUndelivered({ now: minutesFromNow(6) })).toEqual({
      examined: 1,
      delivered: 1,
      deferred: 0,
      failed: 0,
      skipped: 0,
      pending: 0,
      notDelivered: 0,
      digested: 0,
    });
    const [email, ...others] = await aws.sentEmails();
    expect(others).toEqual([]);
    expect(email).toMatchObject({
      replyTo: [VALID_BODY.email],
      subject: `Nieuw contactbericht van ${VALID_BODY.name} (${VALID_BODY.company})`,
    });
    const delivered = await aws.message(id);
    expect(delivered).toMatchObject({ status: 'emailed', attempts: 2, sesMessageId: email!.messageId });
    expect(delivered).not.toHaveProperty('lastError');
    expect(lastLog()).toMatchObject({ msg: 'retry delivery', outcome: 'emailed', messageId: id, attempts: 2 });
  });

  it('answers within the function timeout when SES hangs, and records the timeout', async () => {
    await aws.hangSes();
    const started = Date.now();
    const response = await send();
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(response.statusCode).toBe(200);
    expect(await aws.message(response.json.id!)).toMatchObject({
      status: 'received',
      attempts: 1,
      lastError: expect.stringMatching(/Timeout/),
    });
    // A send that timed out may still be delivered: resending it would be a duplicate e-mail.
    expect(aws.hungSesRequests()).toBe(1);
  });

  it('gives up after the last attempt and marks the message failed', async () => {
    await aws.stopSes();
    const { json } = await send();
    const first = await retryUndelivered({ now: minutesFromNow(60), maxAttempts: 3 });
    expect(first).toMatchObject({ examined: 1, deferred: 1, failed: 0 });
    expect(await aws.message(json.id!)).toMatchObject({ status: 'received', attempts: 2 });

    const second = await retryUndelivered({ now: minutesFromNow(120), maxAttempts: 3 });
    expect(second).toMatchObject({ examined: 1, deferred: 0, failed: 1 });
    expect(await aws.message(json.id!)).toMatchObject({ status: 'failed', attempts: 3, lastError: expect.stringMatching(/ECONNREFUSED/) });

    await aws.startSes();
    expect(await retryUndelivered({ now: minutesFromNow(10_000), maxAttempts: 3 })).toMatchObject({ examined: 0 });
    expect(await aws.sentEmails()).toEqual([]);
  });

  it('waits twice as long after every failed attempt', () => {
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const at = (attempts: number) =>
      nextAttemptAt({ attempts, receivedAt: new Date(base).toISOString(), lastAttemptAt: new Date(base).toISOString() }, 60_000) - base;
    expect([0, 1, 2, 3, 4].map(at)).toEqual([0, 60_000, 120_000, 240_000, 480_000]);
  });

  it('delivers a stored message that was never tried', async () => {
    const message = await putUndelivered(2);
    expect(await retryUndelivered()).toMatchObject({ examined: 1, delivered: 1 });
    expect(await aws.message(message.id)).toMatchObject({ status: 'emailed', attempts: 1 });
    expect(await aws.sentEmails()).toHaveLength(1);
  });

  it('sends each message once when two retry runs overlap', async () => {
    const messages = await Promise.all([putUndelivered(5), putUndelivered(4), putUndelivered(3)]);
    const [a, b] = await Promise.all([retryUndelivered(), retryUndelivered()]);
    expect(a.delivered + b.delivered).toBe(3);
    expect(await aws.sentEmails()).toHaveLength(3);
    for (const message of messages) expect(await aws.message(message.id)).toMatchObject({ status: 'emailed', attempts: 1 });
  });

  it('stops a run after three failures in a row, and bounds the attempts per run', async () => {
    await Promise.all([1, 2, 3, 4, 5].map((age) => putUndelivered(age + 1)));
    await aws.stopSes();
    // The two it did not reach, and the three it tried, still wait: the undelivered alarm reads this.
    expect(await retryUndelivered()).toMatchObject({ examined: 3, deferred: 3, pending: 5 });
    await aws.startSes();
    expect(await retryUndelivered({ now: minutesFromNow(60), limit: 2 })).toMatchObject({ delivered: 2 });
    expect(await retryUndelivered({ now: minutesFromNow(60) })).toMatchObject({ delivered: 3 });
    expect(await aws.sentEmails()).toHaveLength(5);
  });

  it('runs from its scheduled handler and logs one summary line', async () => {
    await putUndelivered(2);
    logs.clear();
    expect(await retryHandler()).toMatchObject({ delivered: 1 });
    expect(logs.entries().map((entry) => entry.msg)).toEqual(['retry delivery', 'retry-undelivered']);
    expect(lastLog()).toMatchObject({ level: 'info', examined: 1, delivered: 1, pending: 0, failed: 0, durationMs: expect.any(Number) });
  });
});

describe('when DynamoDB is unavailable', () => {
  it.each([
    ['without', {}],
    ['with', { [IDEMPOTENCY_HEADER]: randomUUID() }],
  ])('answers 503 %s an Idempotency-Key and sends no e-mail', async (_, extraHeaders) => {
    await aws.stopDynamoDb();
    const response = await send(VALID_BODY, { 'content-type': 'application/json', ...extraHeaders });
    expect(response.statusCode).toBe(503);
    expect(response.json).toEqual({ error: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.' });
    expect(await aws.sentEmails()).toEqual([]);
    expect(lastLog()).toMatchObject({
      level: 'error',
      outcome: 'store_failed',
      status: 503,
      attempts: 0,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('fails the retry run with one line naming the error, and passes on no details to Lambda’s own log', async () => {
    await aws.stopDynamoDb();
    logs.clear();
    const failure = await retryHandler().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.name).toBe('FunctionFailed');
    // A refused connection is thrown from Node's own sockets: there is no frame of the function's to name.
    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 'error', msg: 'retry-undelivered failed', error: expect.stringMatching(/ECONNREFUSED/) }),
    ]);
  });

  it('stores the message when the visitor retries with the same key after DynamoDB is back', async () => {
    const headers = { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: randomUUID() };
    await aws.stopDynamoDb();
    expect((await send(VALID_BODY, headers)).statusCode).toBe(503);
    await aws.startDynamoDb();
    const retried = await send(VALID_BODY, headers);
    expect(retried.statusCode).toBe(200);
    expect(await aws.message(retried.json.id!)).toMatchObject({ status: 'emailed' });
    expect(await aws.sentEmails()).toHaveLength(1);
  });
});

describe('errors the stand-ins cannot produce', () => {
  it('answers 503 when DynamoDB throttles the writes', async () => {
    const dynamo = mockClient(DynamoDBDocumentClient);
    dynamo
      .onAnyCommand()
      .rejects(new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput.', $metadata: {} }));
    try {
      const response = await send();
      expect(response.statusCode).toBe(503);
      expect(lastLog()).toMatchObject({
        outcome: 'store_failed',
        error: expect.stringMatching(/^ProvisionedThroughputExceededException\b/),
      });
    } finally {
      dynamo.restore();
    }
    expect(await aws.sentEmails()).toEqual([]);
  });

  it('keeps the message for the retry job when SES refuses it, recording the error name but not its text', async () => {
    const ses = mockClient(SESClient);
    ses.on(SendEmailCommand).rejects(
      Object.assign(new Error(`Email address is not verified. The following identities failed the check: ${VALID_BODY.email}`), {
        name: 'MessageRejected',
      }),
    );
    try {
      const response = await send();
      expect(response.statusCode).toBe(200);
      const stored = await aws.message(response.json.id!);
      expect(stored).toMatchObject({ status: 'received', attempts: 1, lastError: 'MessageRejected' });
    } finally {
      ses.restore();
    }
  });

  it('still answers 200 when the e-mail went out but the status could not be recorded', async () => {
    const dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(PutCommand).resolves({});
    // The near-copy bands are read (none counted yet) and counted with the visitor; the status update after the e-mail fails.
    dynamo.on(BatchGetCommand).resolves({});
    dynamo.on(GetCommand).resolves({});
    dynamo.on(UpdateCommand).resolves({});
    dynamo
      .on(UpdateCommand, { ExpressionAttributeValues: { ':status': 'emailed' } })
      .rejects(Object.assign(new Error('Internal server error'), { name: 'InternalServerError' }));
    try {
      const response = await send();
      expect(response.statusCode).toBe(200);
      expect(await aws.sentEmails()).toHaveLength(1);
      expect(lastLog()).toMatchObject({ level: 'warn', outcome: 'stored_and_emailed', error: 'record: InternalServerError' });
    } finally {
      dynamo.restore();
    }
  });

  it('answers 500 without details when a bug throws', async () => {
    // A field list whose reading throws, as a bug in validation would, with visitor data in its message.
    const buggy: FieldList = Object.defineProperty({}, 'name', {
      enumerable: true,
      get() {
        throw new TypeError(`Cannot read properties of undefined (reading '${VALID_BODY.name}')`);
      },
    });
    const broken = createContactHandler({ config: aws.config, clients: aws.clients, fields: buggy });
    const response = answer(await broken(contactEvent({ body: VALID_BODY })));
    expect(response.statusCode).toBe(500);
    expect(response.json).toEqual({ error: 'Er is iets misgegaan. Probeer het over enkele minuten opnieuw.' });
    expect(lastLog()).toMatchObject({ level: 'error', outcome: 'unexpected_error', status: 500, error: 'TypeError' });
    // Where it was thrown, innermost first: the getter here, then the validation that read it.
    expect(lastLog()!.where).toMatch(/^delivery-failures\.test\.ts:\d+:\d+ < schema\.ts:\d+:\d+/);
  });
});

it('logs no visitor data, whatever failed', () => {
  const everything = logs.raw();
  expect(everything).not.toBe('');
  for (const value of Object.values(VALID_BODY)) expect(everything).not.toContain(value);
});
