/**
 * The firm's e-mail comes from the firm's own name (core/src/content/firm.ts) before the
 * sender address, whatever the name holds: an ampersand, quotes, a dash, accents. The message
 * goes through the handler to the SES stand-in, whose stored e-mail is read back with a real
 * MIME decoder (postal-mime), as the firm's mail client reads it.
 */
import PostalMime from 'postal-mime';
import { describe, expect, it, vi } from 'vitest';
import { MAIL_FROM } from '@site/testing/test-values';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

/** Invented; what a firm's name can hold. Hoisted with the mock, before the imports that read the facts. */
const { NAME } = vi.hoisted(() => ({ NAME: 'Jansen & "Zonen" Advies – Café' }));

vi.mock('@site/core/content/firm', async (importOriginal) => {
  const facts = await importOriginal<typeof import('@site/core/content/firm')>();
  return { ...facts, firm: { ...facts.firm, name: NAME } };
});

const stack = useContactStack();

describe('the sender of the firm’s e-mail', () => {
  it('is the firm’s name, as written, with “(website)”, before MAIL_FROM', async () => {
    expect(answer(await stack.handler(contactEvent({ body: VALID_BODY }))).statusCode).toBe(200);
    const [sent] = await stack.aws.sentEmails();
    const email = await PostalMime.parse(await stack.aws.rawEmail(sent!.messageId));
    expect(email.from).toEqual({ name: `${NAME} (website)`, address: MAIL_FROM });
  });
});
