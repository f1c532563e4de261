/**
 * The delivery-event consumer at the edges of SES's documented shapes: the exact words
 * an operator reads in the `problem` of a malformed event (a time that is no time, an event
 * of another kind, a payload that is no object at all); the objects SES documents for Send
 * and Rendering Failure, whose absence is malformed too; the mail servers' answers (none at
 * all, recipients without one, more than the stored outcome keeps); and attempt tags that
 * only look like a number. Events are SES's documented examples (@site/testing/ses-events), fed
 * to the consumer against dynalite for messages the contact function really stored.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import { ofMessage, useDeliveryStack } from './support/delivery-stack';
import { sesMessageId } from '@site/testing/ses-events';

const stack = useDeliveryStack();
const { emailedMessage, feed } = stack;

describe('the problem named for an event that is not as documented', () => {
  it('says a time that cannot be read is not a time, where it is', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Delivered', ofMessage(message), (record) => (record.delivery.timestamp = 'gisteren'));
    expect(line).toMatchObject({ level: 'warn', outcome: 'malformed', problem: 'detail.delivery.timestamp: not a time' });
    expect((await stack.aws.message(message.id))?.status).toBe('emailed');
  });

  it('says an event of another kind on the bus is not an SES e-mail event', async () => {
    await stack.consume({
      version: '0',
      id: 'b1f6e2f5-0000-4000-8000-000000000001',
      source: 'stack.aws.events',
      'detail-type': 'Scheduled Event',
      detail: {},
    });
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'malformed', problem: 'detail-type: not an SES e-mail event' });
  });

  it('names what is wrong, without a path, when the payload is no object at all', async () => {
    // A root-level problem has no path: the line must not invent one, nor hide what was wrong.
    for (const [input, problem] of [
      [null, 'Invalid type: Expected Object but received null'],
      ['Email Delivered', 'Invalid type: Expected Object but received "Email Delivered"'],
    ] as const) {
      await expect(stack.consume(input)).resolves.toBeUndefined();
      expect(stack.logs.entries().at(-1), String(input)).toMatchObject({ level: 'warn', outcome: 'malformed', problem });
    }
  });
});

describe('the object each event type must carry', () => {
  it('refuses a Send event without its send object, which SES always includes', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Sent', ofMessage(message), (record) => delete record.send);
    expect(line).toMatchObject({ outcome: 'malformed', problem: expect.stringMatching(/^detail\.send: /) });
    expect(line).not.toHaveProperty('messageId');
  });

  it('refuses a Rendering Failure without the error message SES documents, and records nothing', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Rendering Failed', ofMessage(message), (record) => delete record.failure.errorMessage);
    expect(line).toMatchObject({ outcome: 'malformed', problem: expect.stringMatching(/^detail\.failure\.errorMessage: /) });
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'emailed' });
    expect((await stack.aws.message(message.id))?.outcome).toBeUndefined();
  });
});

describe('the mail servers’ answers kept on the outcome', () => {
  it('records a delay that lists no recipients, with no answer', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Delivery Delayed', ofMessage(message), (record) => delete record.deliveryDelay.delayedRecipients);
    expect(line).toMatchObject({ outcome: 'recorded' });
    const { outcome } = (await stack.aws.message(message.id))!;
    expect(outcome).toMatchObject({ status: 'delayed', reason: 'TransientCommunicationFailure' });
    // No empty attribute stands in for an answer no server gave.
    expect(outcome).not.toHaveProperty('diagnosticCode');
  });

  it('records a bounce that lists no recipients, with no answer', async () => {
    const message = await emailedMessage();
    const line = await feed('Email Bounced', ofMessage(message), (record) => delete record.bounce.bouncedRecipients);
    expect(line).toMatchObject({ outcome: 'recorded' });
    const { outcome } = (await stack.aws.message(message.id))!;
    expect(outcome).toMatchObject({ status: 'bounced', bounceType: 'Permanent', bounceSubType: 'General' });
    expect(outcome).not.toHaveProperty('diagnosticCode');
  });

  it('keeps only the answers servers gave, none when no recipient has one', async () => {
    const withoutAnswer = { emailAddress: 'recipient@example.com', action: 'failed', status: '5.1.1' };
    const none = await emailedMessage();
    await feed('Email Bounced', ofMessage(none), (record) => (record.bounce.bouncedRecipients = [withoutAnswer]));
    expect((await stack.aws.message(none.id))?.outcome).not.toHaveProperty('diagnosticCode');

    const some = await emailedMessage();
    await feed('Email Bounced', ofMessage(some), (record) => {
      record.bounce.bouncedRecipients = [withoutAnswer, { ...withoutAnswer, diagnosticCode: 'smtp; 552 5.2.2 mailbox full' }];
    });
    expect((await stack.aws.message(some.id))?.outcome?.diagnosticCode).toBe('smtp; 552 5.2.2 mailbox full');
  });

  it('keeps the first thousand characters of long answers, so the message item stays small', async () => {
    const message = await emailedMessage();
    // Three servers answering at length (multi-line SMTP replies run long): 1806 characters joined.
    const answers = ['550', '551', '552'].map((code) => `smtp; ${code} 5.1.1 ${'x'.repeat(590)}`);
    await feed('Email Bounced', ofMessage(message), (record) => {
      const [first] = record.bounce.bouncedRecipients;
      record.bounce.bouncedRecipients = answers.map((diagnosticCode) => ({ ...first, diagnosticCode }));
    });
    const kept = (await stack.aws.message(message.id))?.outcome?.diagnosticCode;
    expect(kept).toBe(answers.join(' | ').slice(0, 1000));
    expect(kept).toHaveLength(1000);
  });
});

describe('the attempt tag', () => {
  it('is not ours unless it is a whole number of one to six digits without a leading zero', async () => {
    const message = await emailedMessage();
    for (const attempt of ['01', '1234567', 'x1', '1x']) {
      const line = await feed('Email Delivered', ofMessage(message), (record) => (record.mail.tags[DELIVERY_TAGS.attempt] = [attempt]));
      expect(line, attempt).toMatchObject({ level: 'warn', outcome: 'untagged' });
    }
    expect(await stack.aws.message(message.id)).toMatchObject({ status: 'emailed' });
    // The same event with the attempt as SES carries ours counts.
    expect(await feed('Email Delivered', ofMessage(message))).toMatchObject({ outcome: 'recorded' });
  });

  it('up to six digits is read as the attempt it names', async () => {
    const line = await feed('Email Delivered', { messageId: 'NOT-STORED', attempt: 999_999, sesMessageId: sesMessageId() });
    expect(line).toMatchObject({ attempt: 999_999, outcome: 'unknown_message' });
  });
});
