/**
 * A stack's SES outbox as a test reads it: a new stack's is empty, whatever an earlier stack in
 * the same process sent (test files share a module graph, and aws-ses-v2-local keeps its outbox
 * in its module). That an SES stopped and started again still shows what it delivered is the
 * robustness suite's check (test/robustness: every message 'emailed' has its e-mail).
 */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { describe, expect, it } from 'vitest';
import { emulatorClientConfig } from '@site/emulators/connections';
import { fetchSentEmails } from '@site/emulators/servers';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';

async function send(stack: LocalStack, subject: string): Promise<void> {
  const ses = new SESClient(emulatorClientConfig(stack.urls.ses));
  try {
    await ses.send(
      new SendEmailCommand({
        Source: 'website@voorbeeld.nl',
        Destination: { ToAddresses: ['info@voorbeeld.nl'] },
        Message: { Subject: { Data: subject }, Body: { Text: { Data: 'Tekst' } } },
      }),
    );
  } finally {
    ses.destroy();
  }
}

const subjects = async (stack: LocalStack) => (await fetchSentEmails(stack.urls.ses)).map((email) => email.subject);

describe("a local stack's outbox", () => {
  it('is empty in a new stack, after an earlier one in this process sent mail', async () => {
    const earlier = await startLocalStack({ ...EPHEMERAL_STACK });
    try {
      await send(earlier, 'Eerder bericht');
      expect(await subjects(earlier)).toEqual(['Eerder bericht']);
    } finally {
      await earlier.close();
    }
    const stack = await startLocalStack({ ...EPHEMERAL_STACK });
    try {
      expect(await subjects(stack)).toEqual([]);
      await send(stack, 'Nieuw bericht');
      expect(await subjects(stack)).toEqual(['Nieuw bericht']);
    } finally {
      await stack.close();
    }
  });
});
