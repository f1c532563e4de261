/**
 * `npm run smoke -- <url> --deliver` against the local stack as `npm start` runs it (SES's
 * delivery events on, the mailbox simulator answering): the test message arrives, or the
 * command names in one line where it stopped. And where it stopped, read from each stored
 * state the message can be left in.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredMessage } from '@site/core/table';
import { createDocumentClient } from '@site/lambda/aws';
import { emulatorClientConfig } from '@site/emulators/connections';
import { runScript } from '@site/testing/run-script';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '@site/local/stack';
import { deliverTestMessage, TEST_MESSAGE, verdictOf } from '@site/ops/smoke/deliver';

const SCRIPT = fileURLToPath(new URL('../smoke.ts', import.meta.url));

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const start = (contactRecipient?: string, deliveryEvents = true) =>
  startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns(), contactRecipient, deliveryEvents });

/**
 * The command as an operator runs it against `npm start`: no AWS settings, the local stack's
 * ports, and the name of the stack's own table in the run's shared DynamoDB (`npm start`'s has
 * the default name, which the command finds by itself: messages.test.ts).
 */
function runSmoke(local: LocalStack) {
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/tmp',
    DYNAMODB_PORT: new URL(local.urls.dynamodb).port,
    SES_PORT: new URL(local.urls.ses).port,
    TABLE_NAME: local.tableName,
  };
  return runScript(SCRIPT, [local.urls.site, '--deliver'], { env });
}

describe('npm run smoke -- <url> --deliver against the local stack', () => {
  it('sends one marked test message and passes once SES reports it delivered, with progress on the way', async () => {
    stack = await start();
    const { code, stdout, stderr } = await runSmoke(stack);
    expect(stderr).toMatch(/sent test message \w+; waiting up to 120 s/);
    expect(stdout).toMatch(/^Delivery: delivered: message \w+, SES reported its delivery at \d{4}-/m);
    expect(code).toBe(0);
  });

  it("fails with one line naming the bounce and the mail server's diagnostic when contactRecipient bounces", async () => {
    stack = await start('bounce@simulator.amazonses.com');
    const { code, stderr } = await runSmoke(stack);
    const last = stderr.trim().split('\n').at(-1);
    expect(last).toMatch(
      /^Delivery: bounced: message (\w+): Permanent\/General: smtp; 550 5\.1\.1 user unknown \(npm run messages -- show \1\)$/,
    );
    expect(code).toBe(1);
  });
});

describe('deliverTestMessage', () => {
  const tableOf = (local: LocalStack) => ({
    name: local.tableName,
    client: createDocumentClient(emulatorClientConfig(local.urls.dynamodb)),
  });

  it('says the message was not accepted when the API refuses it, naming the step, in the API’s own words', async () => {
    stack = await start();
    // CloudFront sending a secret the function does not hold: it refuses the challenge, the first API request.
    stack.sendOriginSecret('a-secret-the-function-does-not-hold-0123456789abcdef');
    const ending = await deliverTestMessage({ site: stack.urls.site, table: tableOf(stack), timeoutMs: 5000 });
    expect(ending).toMatchObject({ delivered: false, stop: 'not accepted' });
    expect(ending.line).toMatch(/^not accepted: before the post, the challenge step: GET \/api\/challenge answered 403: \S/);
  });

  it('says no event came in time when SES accepted the e-mail but reported nothing', async () => {
    stack = await start(undefined, false);
    const progress: string[] = [];
    const ending = await deliverTestMessage({
      site: stack.urls.site,
      table: tableOf(stack),
      timeoutMs: 5000,
      waitMs: 500,
      pollMs: 100,
      progress: (line) => progress.push(line),
    });
    expect(ending.line).toMatch(/^no event in time: message \w+: accepted by SES, no delivery event yet/);
    expect(progress.join('\n')).toContain('accepted by SES, no delivery event yet');
  });

  it('marks the test message in every field the firm reads', () => {
    expect(TEST_MESSAGE.name).toMatch(/test/i);
    expect(TEST_MESSAGE.message).toMatch(/testbericht/i);
    expect(TEST_MESSAGE.email).toBe('success@simulator.amazonses.com');
  });
});

describe('verdictOf', () => {
  const stored = (fields: Partial<StoredMessage>): StoredMessage => ({
    id: 'M1',
    receivedAt: '2026-11-25T07:00:00.000Z',
    emailKey: 'x',
    name: 'n',
    email: 'e@x.nl',
    message: 'm',
    status: 'emailed',
    attempts: 1,
    expiresAt: 0,
    ...fields,
  });
  const outcome = { attempt: 1, precedence: 4, at: '2026-11-25T07:00:05.000Z', sesMessageId: 'S1' };

  it('names each place the message can stop, with what the mail server or SES said', () => {
    const line = (message: StoredMessage | undefined, final = false) => {
      const verdict = verdictOf('M1', message, final, 'table-1');
      return verdict.done ? verdict.line : `waiting: ${verdict.progress}`;
    };
    expect(line(undefined)).toBe('not stored: the API accepted message M1, but table table-1 does not hold it');
    expect(line(stored({ status: 'received', attempts: 1, lastError: 'MessageRejected' }))).toBe(
      'waiting: stored, not yet accepted by SES',
    );
    expect(line(stored({ status: 'received', attempts: 1, lastError: 'MessageRejected' }), true)).toMatch(
      /^not sent: message M1 is stored, but SES has not accepted its e-mail \(1 attempts, last error MessageRejected\)/,
    );
    expect(line(stored({ status: 'failed', attempts: 8 }))).toMatch(/^not sent: message M1: the retry job gave up after 8 attempts/);
    expect(
      line(
        stored({
          status: 'bounced',
          outcome: {
            ...outcome,
            status: 'bounced',
            bounceType: 'Transient',
            bounceSubType: 'MailboxFull',
            diagnosticCode: 'smtp; 552 5.2.2 full',
          },
        }),
      ),
    ).toBe('bounced: message M1: Transient/MailboxFull: smtp; 552 5.2.2 full (npm run messages -- show M1)');
    expect(line(stored({ status: 'complained', outcome: { ...outcome, status: 'complained', reason: 'abuse' } }))).toMatch(
      /^complained: message M1/,
    );
    expect(line(stored({ status: 'rejected', outcome: { ...outcome, status: 'rejected', reason: 'Bad content' } }))).toMatch(
      /^rejected: message M1: SES did not send it: Bad content/,
    );
    expect(line(stored({ status: 'delayed', outcome: { ...outcome, status: 'delayed', precedence: 1, reason: 'MailboxFull' } }))).toBe(
      'waiting: delayed (MailboxFull)',
    );
    expect(
      line(stored({ status: 'delayed', outcome: { ...outcome, status: 'delayed', precedence: 1, reason: 'MailboxFull' } }), true),
    ).toMatch(/^no event in time: message M1: delayed \(MailboxFull\)/);
    expect(line(stored({ status: 'delivered', outcome: { ...outcome, status: 'delivered', precedence: 2 } }))).toBe(
      'delivered: message M1, SES reported its delivery at 2026-11-25T07:00:05.000Z',
    );
  });
});
