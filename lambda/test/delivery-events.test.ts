/**
 * The consumer of SES's delivery events, fed the events SES documents (support/ses-events.ts)
 * against dynalite, for messages the contact function really stored and e-mailed: each
 * outcome recorded with its details and time; the same event twice, events out of order, a
 * late event of an attempt a resend replaced, a delivery after a timeout the sender took for
 * a refusal; events for an attempt never made or with another SES message id than the
 * attempt's (forged), and for no message it knows, counted and not failed; and not one name,
 * address or subject in its logs.
 */
import { describe, expect, it } from 'vitest';
import type { SesDetailType } from '@site/core/ses-events';
import type { StoredMessage } from '@site/core/table';
import { deliver } from '../src/mail/delivery';
import { deliverySetup } from '../src/dependencies';
import { createRetryJob } from '../src/retry/retry';
import { markDeliveryFailed, markEmailed } from '../src/store/store';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { ofMessage, useDeliveryStack } from './support/delivery-stack';
import { sesEvent, sesMessageId, VISITOR } from '@site/testing/ses-events';

const stack = useDeliveryStack();
const { emailedMessage, feed } = stack;

describe('each outcome', () => {
  it('Delivery: delivered, at the time SES reports, for the attempt and SES message it is about', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Delivered', ofMessage(message, { at: '2026-11-25T09:00:01.500Z' }));
    expect(await stack.aws.message(message.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      outcome: { status: 'delivered', attempt: 1, precedence: 2, at: '2026-11-25T09:00:01.500Z', sesMessageId: message.sesMessageId },
    });
    expect(line).toEqual({
      level: 'info',
      msg: 'delivery event',
      eventId: expect.any(String),
      eventType: 'Delivery',
      reports: 'delivered',
      messageId: message.id,
      attempt: 1,
      sesMessageId: message.sesMessageId,
      outcome: 'recorded',
    });
  });

  it('Bounce: bounced, with the bounce type, subtype and what the mail server answered', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Bounced', ofMessage(message));
    expect((await stack.aws.message(message.id))?.outcome).toEqual({
      status: 'bounced',
      attempt: 1,
      precedence: 4,
      at: '2017-08-05T00:41:02.669Z',
      sesMessageId: message.sesMessageId,
      bounceType: 'Permanent',
      bounceSubType: 'General',
      diagnosticCode: 'smtp; 550 5.1.1 user unknown',
    });
    expect((await stack.aws.message(message.id))?.status).toBe('bounced');
    expect(line).toMatchObject({
      level: 'info',
      reports: 'bounced',
      bounceType: 'Permanent',
      bounceSubType: 'General',
      outcome: 'recorded',
    });
  });

  it('Complaint: complained, with the feedback type', async () => {
    const message = await emailedMessage();
    await feed('Email Complaint Received', ofMessage(message));
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'complained', outcome: { status: 'complained', reason: 'abuse' } });
  });

  it('DeliveryDelay: delayed, with the kind of delay and the mail server’s answer', async () => {
    const message = await emailedMessage();
    await feed('Email Delivery Delayed', ofMessage(message));
    expect(await stack.aws.message(message.id)).toMatchObject({
      status: 'delayed',
      outcome: { reason: 'TransientCommunicationFailure', diagnosticCode: 'smtp; 421 4.4.1 Unable to connect to remote host' },
    });
  });

  it.each([
    ['Email Rejected', 'Bad content'],
    ['Email Rendering Failed', 'Rendering Failure'],
  ] as const)('%s: rejected, with the reason, at the time SES took the e-mail', async (detailType, reason) => {
    const message = await emailedMessage();
    await feed(detailType, ofMessage(message));
    expect(await stack.aws.message(message.id)).toMatchObject({
      status: 'rejected',
      outcome: { status: 'rejected', reason, at: '2017-08-05T00:40:02.012Z' },
    });
  });

  it('Send: nothing to record (the sender did), one line', async () => {
    const message = await emailedMessage();
    const before = await stack.aws.message(message.id);
    const line = await feed('Email Sent', ofMessage(message));
    expect(await stack.aws.message(message.id)).toEqual(before);
    expect(line).toMatchObject({ level: 'info', eventType: 'Send', messageId: message.id, outcome: 'sent' });
    expect(line).not.toHaveProperty('reports');
  });

  it('joins the answers of several recipients, each once', async () => {
    const message = await emailedMessage();
    await feed('Email Bounced', ofMessage(message), (record) => {
      const [first] = record.bounce.bouncedRecipients;
      record.bounce.bouncedRecipients = [
        first,
        { ...first, emailAddress: 'partner@example.com', diagnosticCode: 'smtp; 552 5.2.2 mailbox full' },
        { ...first, emailAddress: 'third@example.com' },
      ];
    });
    expect((await stack.aws.message(message.id))?.outcome?.diagnosticCode).toBe(
      'smtp; 550 5.1.1 user unknown | smtp; 552 5.2.2 mailbox full',
    );
  });
});

describe('order and repetition', () => {
  it('records the same event delivered twice once, and says the second was no news', async () => {
    const message = await emailedMessage();
    const event = sesEvent('Email Bounced', ofMessage(message));
    await stack.consume(event);
    const first = await stack.aws.message(message.id);
    await stack.consume(event);
    expect(await stack.aws.message(message.id)).toEqual(first);
    expect(stack.logs.entries().flatMap((line) => (line.msg === 'delivery event' ? [line.outcome] : []))).toEqual([
      'recorded',
      'superseded',
    ]);
  });

  it('keeps delivered when a DeliveryDelay arrives late, and moves a delay on to delivered', async () => {
    const late = await emailedMessage();
    await feed('Email Delivered', ofMessage(late));
    await feed('Email Delivery Delayed', ofMessage(late));
    expect(await stack.aws.message(late.id)).toMatchObject({ status: 'delivered', outcome: { status: 'delivered' } });

    const early = await emailedMessage();
    await feed('Email Delivery Delayed', ofMessage(early));
    await feed('Email Delivery Delayed', ofMessage(early, { at: '2020-06-16T01:25:40.095Z' }));
    await feed('Email Delivered', ofMessage(early));
    expect(await stack.aws.message(early.id)).toMatchObject({ status: 'delivered' });
  });

  it('lets a complaint or a bounce after a delivery stand, in whichever order they come', async () => {
    const complaint = await emailedMessage();
    await feed('Email Delivered', ofMessage(complaint));
    await feed('Email Complaint Received', ofMessage(complaint));
    expect((await stack.aws.message(complaint.id))?.status).toBe('complained');
    await feed('Email Delivered', ofMessage(complaint));
    expect((await stack.aws.message(complaint.id))?.status).toBe('complained');

    const bounce = await emailedMessage();
    await feed('Email Bounced', ofMessage(bounce));
    await feed('Email Delivered', ofMessage(bounce));
    await feed('Email Delivery Delayed', ofMessage(bounce));
    expect(await stack.aws.message(bounce.id)).toMatchObject({
      status: 'bounced',
      outcome: { status: 'bounced', bounceType: 'Permanent' },
    });
  });

  it('settles every order of the same events on the same state', async () => {
    const types: SesDetailType[] = ['Email Delivery Delayed', 'Email Delivered', 'Email Complaint Received'];
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
      [2, 0, 1],
    ];
    const states: unknown[] = [];
    for (const order of orders) {
      const message = await emailedMessage();
      for (const index of order) await feed(types[index]!, ofMessage(message));
      const { status, outcome } = (await stack.aws.message(message.id))!;
      states.push({ status, outcome: { ...outcome, sesMessageId: undefined } });
    }
    expect(new Set(states.map((state) => JSON.stringify(state))).size).toBe(1);
    expect(states[0]).toMatchObject({ status: 'complained' });
  });

  /** The message as it is between SES taking its first e-mail and the sender recording that. */
  async function beforeTheSenderRecords(message: StoredMessage): Promise<StoredMessage> {
    const { sesMessageId: _id, emailedAttempt: _n, emailedAt: _at, lastAttemptAt: _last, configurationSet: _set, ...untried } = message;
    const stored: StoredMessage = { ...untried, status: 'received', attempts: 0 };
    await stack.aws.put({ ...stored });
    return stored;
  }

  it('records a delivery SES reports after a timeout the sender took for a refusal, so the retry job sends nothing more', async () => {
    const untried = await beforeTheSenderRecords(await emailedMessage());
    // The request timed out although SES had taken the e-mail: the sender records a failed attempt 1, with no SES id.
    await markDeliveryFailed(stack.aws.table, untried.id, { error: 'TimeoutError', at: new Date(), giveUp: false, attempt: 1 });
    // Seconds later SES reports the e-mail it did take: attempt 1 was made, and its SES id is not known to contradict it.
    expect(await feed('Email Delivered', { messageId: untried.id, attempt: 1, sesMessageId: sesMessageId() })).toMatchObject({
      outcome: 'recorded',
    });
    expect(await stack.aws.message(untried.id)).toMatchObject({ status: 'delivered', lastError: 'TimeoutError', attempts: 1 });
    await stack.aws.clearEmails();
    const run = await createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered') })({
      minAgeMs: 0,
      backoffBaseMs: 0,
    });
    expect(run).toMatchObject({ delivered: 0 });
    expect(await stack.aws.sentEmails()).toEqual([]);
  });
});

describe('events that are not about an attempt the message made', () => {
  it('leave a delivered message delivered for an attempt never made, and the next real event still counts', async () => {
    const message = await emailedMessage();
    await feed('Email Delivered', ofMessage(message));
    expect(await feed('Email Bounced', ofMessage(message, { attempt: 999_999 }))).toMatchObject({
      level: 'warn',
      reports: 'bounced',
      attempt: 999_999,
      outcome: 'not_our_attempt',
    });
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'delivered', outcome: { status: 'delivered', attempt: 1 } });
    expect(await feed('Email Complaint Received', ofMessage(message))).toMatchObject({ outcome: 'recorded' });
    expect((await stack.aws.message(message.id))?.status).toBe('complained');
  });

  it('leave a message whose e-mail was never sent (its attempt not recorded) waiting for the retry job, which delivers it', async () => {
    const response = answer(await stack.handler(contactEvent({ body: VALID_BODY })));
    const waiting = (await stack.aws.message(response.json.id!))!;
    await stack.aws.put({ ...waiting, status: 'received', attempts: 0 });
    expect(await feed('Email Delivered', { messageId: waiting.id, attempt: 1, sesMessageId: sesMessageId() })).toMatchObject({
      outcome: 'not_our_attempt',
    });
    expect(await stack.aws.message(waiting.id)).toMatchObject({ status: 'received', attempts: 0 });
    expect((await stack.aws.message(waiting.id))?.outcome).toBeUndefined();
    await stack.aws.clearEmails();
    const run = await createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered') })({
      minAgeMs: 0,
      backoffBaseMs: 0,
    });
    expect(run).toMatchObject({ delivered: 1 });
    expect(await stack.aws.message(waiting.id)).toMatchObject({ status: 'emailed', attempts: 1 });
  });

  it('change nothing with another SES message id than the one recorded for the attempt', async () => {
    const message = await emailedMessage();
    expect(await stack.aws.message(message.id)).toMatchObject({ emailedAttempt: 1, sesMessageId: message.sesMessageId });
    expect(await feed('Email Bounced', ofMessage(message, { sesMessageId: sesMessageId() }))).toMatchObject({
      outcome: 'not_our_attempt',
    });
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'emailed' });
    expect(await feed('Email Bounced', ofMessage(message))).toMatchObject({ outcome: 'recorded' });
  });

  it('count by the attempt alone on a message e-mailed before the attempt of its SES id was kept', async () => {
    const { emailedAttempt: _kept, ...older } = await emailedMessage();
    await stack.aws.put({ ...older });
    expect(await feed('Email Bounced', ofMessage(older, { attempt: 2 }))).toMatchObject({ outcome: 'not_our_attempt' });
    expect(await feed('Email Delivered', ofMessage(older, { sesMessageId: sesMessageId() }))).toMatchObject({ outcome: 'recorded' });
  });
});

describe('a resend', () => {
  const setup = () => deliverySetup({ config: stack.aws.config, clients: stack.aws.clients });

  it('replaces the bounced attempt’s outcome with its own, and late events of the old attempt change nothing', async () => {
    const message = await emailedMessage();
    await feed('Email Bounced', ofMessage(message));
    const bounced = (await stack.aws.message(message.id))!;

    expect(await deliver(setup(), bounced, { at: new Date(), isLast: false })).toEqual({ outcome: 'emailed' });
    const resent = (await stack.aws.message(message.id)) as StoredMessage & { sesMessageId: string };
    expect(resent).toMatchObject({ status: 'emailed', attempts: 2, outcome: { status: 'bounced', attempt: 1 } });
    expect(resent.sesMessageId).not.toBe(message.sesMessageId);

    await feed('Email Complaint Received', ofMessage(message));
    expect((await stack.aws.message(message.id))?.status).toBe('emailed');
    await feed('Email Delivered', ofMessage(resent));
    await feed('Email Bounced', ofMessage(message));
    expect(await stack.aws.message(message.id)).toMatchObject({
      status: 'delivered',
      outcome: { status: 'delivered', attempt: 2, sesMessageId: resent.sesMessageId },
    });
    expect(stack.logs.entries().filter((line) => line.attempt === 1 && line.outcome === 'superseded')).toHaveLength(2);
  });

  it('ignores an event of an attempt made before the last, even when that attempt had no outcome yet', async () => {
    const message = await emailedMessage();
    expect(await deliver(setup(), message, { at: new Date(), isLast: false })).toEqual({ outcome: 'emailed' });
    expect(await feed('Email Bounced', ofMessage(message))).toMatchObject({ attempt: 1, outcome: 'superseded' });
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'emailed', attempts: 2 });
    expect((await stack.aws.message(message.id))?.outcome).toBeUndefined();
  });
});

describe('the record of an attempt', () => {
  it('counts the attempt once however often its write lands (the SDK sends it again after a timeout), so its events count', async () => {
    const message = await emailedMessage();
    const again = { sesMessageId: message.sesMessageId, at: new Date(), attempt: 1, configurationSet: stack.aws.config.configurationSet };
    await markEmailed(stack.aws.table, message.id, again);
    await markEmailed(stack.aws.table, message.id, again);
    expect(await stack.aws.message(message.id)).toMatchObject({ attempts: 1, emailedAttempt: 1, status: 'emailed' });
    expect(await feed('Email Delivered', ofMessage(message))).toMatchObject({ outcome: 'recorded' });
  });

  it('changes nothing when the write of an earlier attempt lands after a later one', async () => {
    const message = await emailedMessage();
    const resent = await deliver(deliverySetup({ config: stack.aws.config, clients: stack.aws.clients }), message, {
      at: new Date(),
      isLast: false,
    });
    expect(resent).toEqual({ outcome: 'emailed' });
    const before = await stack.aws.message(message.id);
    await markDeliveryFailed(stack.aws.table, message.id, { error: 'TimeoutError', at: new Date(), giveUp: false, attempt: 1 });
    expect(await stack.aws.message(message.id)).toEqual(before);
  });

  it('fails when the message is gone, so the sender reports the record it could not make', async () => {
    const message = await emailedMessage();
    await stack.aws.erase(message.id);
    await expect(
      markDeliveryFailed(stack.aws.table, message.id, { error: 'TimeoutError', at: new Date(), giveUp: false, attempt: 2 }),
    ).rejects.toThrow();
    expect(await stack.aws.message(message.id)).toBeUndefined();
  });
});

describe('events for no message it knows', () => {
  it('counts an event for a message that is not stored, or was erased, and creates nothing', async () => {
    const message = await emailedMessage();
    await stack.aws.erase(message.id);
    const before = await stack.aws.items();
    expect(await feed('Email Bounced', ofMessage(message))).toMatchObject({
      level: 'warn',
      reports: 'bounced',
      outcome: 'unknown_message',
    });
    expect(
      await feed('Email Delivered', { messageId: '01JD000000000000000000NONE', attempt: 1, sesMessageId: sesMessageId() }),
    ).toMatchObject({
      level: 'warn',
      outcome: 'unknown_message',
    });
    expect(await stack.aws.items()).toEqual(before);
  });

  it('counts an event without our tags, and one whose tags are not ours', async () => {
    expect(await feed('Email Delivered', { sesMessageId: sesMessageId() })).toMatchObject({ level: 'warn', outcome: 'untagged' });
    const forged = await feed('Email Bounced', { messageId: 'x', attempt: 1, sesMessageId: sesMessageId() }, (record) => {
      record.mail.tags['contact-message'] = ['not a tag value: spaces'];
    });
    expect(forged).toMatchObject({ outcome: 'untagged' });
    const noAttempt = await feed('Email Bounced', { messageId: 'x', attempt: 1, sesMessageId: sesMessageId() }, (record) => {
      record.mail.tags['contact-attempt'] = ['0'];
    });
    expect(noAttempt).toMatchObject({ outcome: 'untagged' });
  });

  it('answers something that is not an SES event with one line naming what is wrong, without failing', async () => {
    const message = await emailedMessage();
    for (const [input, problem] of [
      [{ source: 'stack.aws.events', 'detail-type': 'Scheduled Event', detail: {} }, /^detail-type: /],
      [sesEvent('Email Bounced', ofMessage(message), (record) => delete record.bounce.bounceType), /^detail\.bounce\.bounceType: /],
      [
        sesEvent('Email Delivered', ofMessage(message), (record) => (record.delivery.timestamp = 'gisteren')),
        /^detail\.delivery\.timestamp: /,
      ],
      [sesEvent('Email Delivered', ofMessage(message), (record) => delete record.mail), /^detail\.mail: /],
      [null, /./],
    ] as const) {
      await expect(stack.consume(input)).resolves.toBeUndefined();
      expect(stack.logs.entries().at(-1)).toMatchObject({ level: 'warn', outcome: 'malformed', problem: expect.stringMatching(problem) });
    }
    expect((await stack.aws.message(message.id))?.status).toBe('emailed');
  });
});

describe('the consumer’s logs', () => {
  it('hold no name, address, subject or mail server answer from any event', async () => {
    const message = await emailedMessage();
    stack.logs.clear();
    for (const type of ['Email Sent', 'Email Delivered', 'Email Bounced', 'Email Complaint Received', 'Email Delivery Delayed'] as const) {
      await feed(type, ofMessage(message));
      await feed(type, { sesMessageId: sesMessageId() });
    }
    await stack.consume(sesEvent('Email Bounced', ofMessage(message), (record) => delete record.bounce.bounceType));
    const raw = stack.logs.raw();
    for (const personal of [
      VISITOR.name,
      VISITOR.email,
      'recipient@example.com',
      'sender@example.com',
      'Nieuw contactbericht',
      'smtp;',
      '192.0.2.0',
    ]) {
      expect(raw).not.toContain(personal);
    }
  });

  it('fails the invocation when the table cannot be written, so Lambda tries again, and says so', async () => {
    const message = await emailedMessage();
    await stack.aws.stopDynamoDb();
    try {
      await expect(stack.consume(sesEvent('Email Delivered', ofMessage(message)))).rejects.toThrow();
      expect(stack.logs.entries().at(-1)).toMatchObject({
        level: 'error',
        outcome: 'record_failed',
        error: expect.any(String),
        messageId: message.id,
      });
    } finally {
      await stack.aws.startDynamoDb();
    }
  });
});

describe('the retry job’s count for the not-delivered alarm', () => {
  it('counts messages SES took through the set longer ago than the alarm’s time and has not confirmed, and no others', async () => {
    await stack.aws.stopDynamoDb();
    await stack.aws.startDynamoDb();
    const job = createRetryJob({
      config: { ...stack.aws.config, deliveryAlarmMinutes: 60 },
      clients: stack.aws.clientsOf('retry-undelivered'),
    });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const base = {
      ...VALID_BODY,
      emailKey: VALID_BODY.email,
      attempts: 1,
      expiresAt: 2_000_000_000,
      configurationSet: stack.aws.config.configurationSet,
    };
    await stack.aws.put({ ...base, id: 'OLD-EMAILED', status: 'emailed', receivedAt: hoursAgo(2) });
    await stack.aws.put({ ...base, id: 'OLD-DELAYED', status: 'delayed', receivedAt: hoursAgo(3) });
    await stack.aws.put({ ...base, id: 'NEW-EMAILED', status: 'emailed', receivedAt: hoursAgo(0.5) });
    await stack.aws.put({ ...base, id: 'OLD-DELIVERED', status: 'delivered', receivedAt: hoursAgo(5) });
    await stack.aws.put({ ...base, id: 'OLD-BOUNCED', status: 'bounced', receivedAt: hoursAgo(5) });
    // E-mailed before delivery events existed: no event will ever come for it.
    const { configurationSet: _set, ...beforeEvents } = base;
    await stack.aws.put({ ...beforeEvents, id: 'BEFORE-EVENTS', status: 'emailed', receivedAt: hoursAgo(48) });
    expect(await job({})).toMatchObject({ notDelivered: 2 });
  });
});
