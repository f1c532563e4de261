/**
 * RFC 2047 encoded words from a visitor never reach the firm's mail client as words of their
 * own: the message goes through the handler to the SES stand-in, whose stored e-mail is
 * written out as MIME (as a mail client receives it) and read back with a real MIME decoder
 * (postal-mime). The subject it decodes is what the visitor typed, encoded words and all; an
 * address holding one is refused, and nothing is stored or sent for it. The sender's name,
 * written with the same module, reads back as content says.
 */
import PostalMime from 'postal-mime';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENCODED_WORD_EMAIL_MESSAGE } from '@site/core/content/contact-fields';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { MAIL_FROM } from '@site/testing/test-values';
import { createRetryJob } from '../src/retry/retry';
import { answer, contactEvent, ownMessage, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const stack = useContactStack();
beforeEach(() => stack.aws.clearEmails());

/** The name: an encoded word whose text is "‮gnp.exe ‭Betaal de factuur", a right-to-left override first. */
const RLO_NAME = '=?utf-8?b?4oCuZ25wLmV4ZSDigK1CZXRhYWwgZGUgZmFjdHV1cg==?=';

/** The e-mail the firm receives for a message with these fields, parsed as a mail client parses it. */
async function received(fields: Record<string, string>) {
  const response = answer(await stack.handler(contactEvent({ body: ownMessage(fields) })));
  expect(response.statusCode).toBe(200);
  const [sent] = await stack.aws.sentEmails();
  return PostalMime.parse(await stack.aws.rawEmail(sent!.messageId));
}

describe('the subject as the firm’s mail client decodes it', () => {
  it.each([
    ['the issue’s right-to-left override in an encoded word', { name: RLO_NAME }],
    ['an encoded word in the company', { name: 'Jan de Vries', company: '=?utf-8?q?=E2=80=AEBV?= & Zn.' }],
    ['encoded words beside text that is not ASCII', { name: `Zoë ${RLO_NAME}`, company: 'Ødegård =?iso-8859-1?q?=E9?=' }],
    ['a name of emoji long enough to need many words', { name: '😀'.repeat(50) }],
    ['plain ASCII', { name: 'Jan de Vries', company: 'De Vries B.V.' }],
  ])('is the text typed: %s', async (_, fields) => {
    const email = await received(fields);
    const company = 'company' in fields ? fields.company : VALID_BODY.company;
    expect(email.subject).toBe(NOTIFICATION_TEXT.subject(fields.name, company));
    expect(email.subject).not.toMatch(/[\u202E\u202D]/);
  });

  it('keeps replies going to the address the visitor typed, and nothing else', async () => {
    const email = await received({ name: RLO_NAME, email: 'jan.de.vries+offerte@voorbeeld.nl' });
    expect(email.replyTo).toEqual([{ name: '', address: 'jan.de.vries+offerte@voorbeeld.nl' }]);
  });
});

describe('the sender', () => {
  it('is named as content says before MAIL_FROM, in the contact function’s e-mail and the retry job’s alike', async () => {
    const first = await received({ name: 'Jan de Vries' });
    expect(first.from).toEqual({ name: NOTIFICATION_TEXT.sender, address: MAIL_FROM });

    // A message SES refused the first time: the retry job sends it, through the same route.
    const response = answer(await stack.handler(contactEvent({ body: ownMessage({ name: 'Opnieuw' }) })));
    const stored = (await stack.aws.message(response.json.id!))!;
    await stack.aws.put({ ...stored, status: 'received', attempts: 1, lastAttemptAt: new Date(0).toISOString() });
    await stack.aws.clearEmails();
    const run = await createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered') })({
      minAgeMs: 0,
      backoffBaseMs: 0,
    });
    expect(run.delivered).toBe(1);
    const [retried] = await stack.aws.sentEmails();
    expect((await PostalMime.parse(await stack.aws.rawEmail(retried!.messageId))).from).toEqual({
      name: NOTIFICATION_TEXT.sender,
      address: MAIL_FROM,
    });
  });
});

describe('an address holding an encoded word', () => {
  it.each([
    '=?utf-8?q?jan=40evil.example=3e?=@voorbeeld.nl',
    '=?x?q?jan=40evil.example?=foo@voorbeeld.nl',
    'jan=?utf-8?b?QA==?=@voorbeeld.nl',
  ])('is refused with the field named in Dutch, and nothing is stored or sent: %s', async (email) => {
    const before = (await stack.aws.items()).length;
    const response = answer(await stack.handler(contactEvent({ body: ownMessage({ email }) })));
    expect(response.statusCode).toBe(400);
    expect(response.json.fields).toEqual({ email: ENCODED_WORD_EMAIL_MESSAGE });
    expect(await stack.aws.items()).toHaveLength(before);
    expect(await stack.aws.sentEmails()).toEqual([]);
  });
});
