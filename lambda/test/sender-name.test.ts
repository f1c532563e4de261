/**
 * The firm's e-mail comes from the firm's own name (core/src/content/firm.ts) before the
 * sender address, whatever the name holds: an ampersand, quotes, a dash, accents. The message
 * goes through the handler to the SES stand-in, whose stored e-mail is read back with a real
 * MIME decoder (postal-mime), as the firm's mail client reads it.
 */
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { firm } from '@site/core/content/firm';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { MAIL_FROM } from '@site/testing/test-values';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { createContactHandler } from '../src/contact/contact-handler';
import { useLocalAws } from './support/contact-stack';

/** Invented; what a firm's name can hold. */
const NAME = 'Jansen & "Zonen" Advies – Café';

const stack = useLocalAws();

describe('the sender of the firm’s e-mail', () => {
  it('is the firm’s name with “(website)”', () => {
    expect(NOTIFICATION_TEXT.sender).toBe(`${firm.name} (website)`);
  });

  it('is the name as written, whatever it holds, before MAIL_FROM', async () => {
    const handler = createContactHandler({ config: stack.aws.config, clients: stack.aws.clients, senderName: `${NAME} (website)` });
    expect(answer(await handler(contactEvent({ body: VALID_BODY }))).statusCode).toBe(200);
    const [sent] = await stack.aws.sentEmails();
    const email = await PostalMime.parse(await stack.aws.rawEmail(sent!.messageId));
    expect(email.from).toEqual({ name: `${NAME} (website)`, address: MAIL_FROM });
  });
});
