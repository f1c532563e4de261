/**
 * The local SES and its mailbox simulator: the events it publishes have SES's documented
 * shape and mean to the consumer what SES's do; a send through another configuration set is
 * refused as SES refuses it; and through the whole local stack (the edge, the contact
 * function, the local SES, the same consumer as in AWS, dynalite) a message to a simulator
 * address ends bounced, complained or delivered within seconds.
 */
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { API_PATH } from '@site/core/contract';
import { readDeliveryEvent } from '@site/lambda/delivery-events';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import type { StoredMessage } from '@site/core/table';
import { sesEvent } from '@site/testing/ses-events';
import { emulatorClientConfig } from '@site/emulators/connections';
import { fetchSentEmails, type RunningServer } from '@site/emulators/servers';
import { startLocalSes } from '@site/emulators/local-ses';
import { simulatedEvents, type AcceptedEmail, type SesEventBridgeEvent } from '@site/emulators/mailbox-simulator';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';
import { getMessage } from '@site/lambda/store';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { createDocumentClient } from '@site/lambda/aws';

const SIMULATOR = (local: string) => `${local}@simulator.amazonses.com`;

function accepted(to: string[]): AcceptedEmail {
  return {
    messageId: '0100019local-0000-0000-0000-000000000000-000000',
    source: 'website@consultancy-site.localhost',
    to,
    replyTo: ['jan@voorbeeld.nl'],
    subject: 'Nieuw contactbericht van Jan de Vries',
    configurationSet: 'consultancy-site-local',
    tags: { [DELIVERY_TAGS.messageId]: '01JD0000000000000000000000', [DELIVERY_TAGS.attempt]: '1' },
    at: new Date('2026-11-25T09:00:00.000Z'),
  };
}

/** The keys of an object and of the objects in it, as paths; arrays by their first element. */
function shapeOf(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length ? shapeOf(value[0], `${path}[]`) : [`${path}[]`];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${path}.${key}`, ...shapeOf(inner, `${path}.${key}`)]);
}

describe('the mailbox simulator’s events', () => {
  const answered = new Date('2026-11-25T09:00:02.000Z');
  const kinds = (events: SesEventBridgeEvent[]) => events.map((event) => event['detail-type']);

  it('are SES’s, in the order SES sends them, for each simulator address', () => {
    expect(kinds(simulatedEvents(accepted([SIMULATOR('success')]), answered))).toEqual(['Email Sent', 'Email Delivered']);
    expect(kinds(simulatedEvents(accepted(['info@consultancy-site.localhost']), answered))).toEqual(['Email Sent', 'Email Delivered']);
    expect(kinds(simulatedEvents(accepted([SIMULATOR('bounce')]), answered))).toEqual(['Email Sent', 'Email Bounced']);
    expect(kinds(simulatedEvents(accepted([SIMULATOR('complaint+offerte')]), answered))).toEqual([
      'Email Sent',
      'Email Delivered',
      'Email Complaint Received',
    ]);
    expect(kinds(simulatedEvents(accepted([SIMULATOR('success'), SIMULATOR('bounce')]), answered))).toEqual([
      'Email Sent',
      'Email Delivered',
      'Email Bounced',
    ]);
  });

  it('name the sender identity by its address when the e-mail comes from a named sender, as SES’s example does', () => {
    const [sent] = simulatedEvents(
      { ...accepted([SIMULATOR('success')]), source: `${NOTIFICATION_TEXT.sender} <website@consultancy-site.localhost>` },
      answered,
    );
    const mail = (sent!.detail as { mail: { source: string; sourceArn: string; tags: Record<string, string[]> } }).mail;
    expect(mail.source).toBe(`${NOTIFICATION_TEXT.sender} <website@consultancy-site.localhost>`);
    expect(mail.sourceArn).toMatch(/:identity\/website@consultancy-site\.localhost$/);
    expect(mail.tags['ses:from-domain']).toEqual(['consultancy-site.localhost']);
  });

  it('have the shape of SES’s documented records, every field the documentation shows', () => {
    for (const [to, detailType] of [
      [SIMULATOR('success'), 'Email Delivered'],
      [SIMULATOR('bounce'), 'Email Bounced'],
      [SIMULATOR('complaint'), 'Email Complaint Received'],
    ] as const) {
      const ours = simulatedEvents(accepted([to]), answered).find((event) => event['detail-type'] === detailType)!;
      const documented = sesEvent(detailType, { messageId: 'X', attempt: 1, sesMessageId: 'Y' });
      // The documented fields are all there; ours may carry more (Reply-To, our tags).
      expect(shapeOf(ours)).toEqual(expect.arrayContaining(shapeOf(documented)));
    }
  });

  it('mean to the consumer what SES’s mean', () => {
    const [sent, bounced] = simulatedEvents(accepted([SIMULATOR('suppressionlist')]), answered);
    expect(readDeliveryEvent(sent)).toEqual({
      kind: 'sent',
      eventType: 'Send',
      messageId: '01JD0000000000000000000000',
      sesMessageId: accepted([]).messageId,
    });
    expect(readDeliveryEvent(bounced)).toEqual({
      kind: 'outcome',
      eventType: 'Bounce',
      messageId: '01JD0000000000000000000000',
      outcome: {
        status: 'bounced',
        attempt: 1,
        precedence: 4,
        at: answered.toISOString(),
        sesMessageId: accepted([]).messageId,
        bounceType: 'Permanent',
        bounceSubType: 'OnAccountSuppressionList',
        diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
      },
    });
  });
});

describe('the local SES', () => {
  let ses: RunningServer | undefined;
  afterEach(() => ses?.close());

  const sendThrough = (configurationSet?: string) =>
    new SESClient({ ...emulatorClientConfig(ses!.url), maxAttempts: 1 }).send(
      new SendEmailCommand({
        Source: 'website@consultancy-site.localhost',
        Destination: { ToAddresses: [SIMULATOR('bounce')] },
        Message: { Subject: { Data: 'Onderwerp' }, Body: { Text: { Data: 'Tekst' } } },
        ConfigurationSetName: configurationSet,
      }),
    );

  it('refuses a configuration set it does not have, as SES does, and sends nothing', async () => {
    const published: SesEventBridgeEvent[] = [];
    ses = await startLocalSes({
      port: 0,
      configurationSet: 'consultancy-site-local',
      publish: (event) => Promise.resolve(void published.push(event)),
    });
    const before = (await fetchSentEmails(ses.url)).length;
    await expect(sendThrough('consultancy-site-prod')).rejects.toMatchObject({ name: 'ConfigurationSetDoesNotExistException' });
    expect(await fetchSentEmails(ses.url)).toHaveLength(before);
    expect(published).toEqual([]);
  });

  it('publishes an e-mail’s events only when it went through the set, and serves the outbox as the emulator does', async () => {
    const published: SesEventBridgeEvent[] = [];
    ses = await startLocalSes({
      port: 0,
      configurationSet: 'consultancy-site-local',
      publish: (event) => Promise.resolve(void published.push(event)),
      answerAfterMs: 10,
    });
    await sendThrough();
    const { MessageId } = await sendThrough('consultancy-site-local');
    await ses.close();
    ses = undefined;
    expect(published.map((event) => [event['detail-type'], (event.detail.mail as { messageId: string }).messageId])).toEqual([
      ['Email Sent', MessageId],
      ['Email Bounced', MessageId],
    ]);
  });

  it('serves the emulator’s outbox page at its own address', async () => {
    ses = await startLocalSes({ port: 0, configurationSet: 'consultancy-site-local' });
    const page = await fetch(ses.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('through the local stack, as npm start runs it', () => {
  const stacks: LocalStack[] = [];
  afterAll(() => Promise.all(stacks.map((stack) => stack.close())));

  async function messageTo(contactRecipient: string): Promise<{ stack: LocalStack; id: string }> {
    const stack = await startLocalStack({
      ...EPHEMERAL_STACK,
      ...runStandIns(),
      siteDir: makeSiteDir(),
      deliveryEvents: true,
      contactRecipient,
    });
    stacks.push(stack);
    const response = await fetch(`${stack.urls.site}${API_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Komt dit aan?' }),
    });
    expect(response.status).toBe(200);
    return { stack, id: ((await response.json()) as { id: string }).id };
  }

  /**
   * The message once SES's event has moved it on from `emailed`. The poll waits less than the
   * test's own limit, so that a failure says which status never came.
   */
  async function settled(stack: LocalStack, id: string, status: string): Promise<StoredMessage | undefined> {
    const table = { name: stack.tableName, client: createDocumentClient(emulatorClientConfig(stack.urls.dynamodb)) };
    return vi.waitFor(
      async () => {
        const message = await getMessage(table, id);
        expect(message?.status).toBe(status);
        return message;
      },
      { timeout: 30_000, interval: 100 },
    );
  }

  it.each([
    [SIMULATOR('bounce'), 'bounced', { bounceType: 'Permanent', bounceSubType: 'General', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    [SIMULATOR('complaint'), 'complained', { reason: 'abuse' }],
    [SIMULATOR('success'), 'delivered', {}],
    ['info@consultancy-site.localhost', 'delivered', {}],
  ])('mail to %s ends %s', async (recipient, status, details) => {
    const { stack, id } = await messageTo(recipient);
    expect(await settled(stack, id, status)).toMatchObject({
      status,
      attempts: 1,
      configurationSet: 'consultancy-site-local',
      outcome: { status, attempt: 1, ...details },
    });
    const [email] = (await fetchSentEmails(stack.urls.ses)).filter((sent) => sent.destination.to.includes(recipient));
    expect(email).toBeDefined();
  });
});
