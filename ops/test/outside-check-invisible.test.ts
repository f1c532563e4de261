/**
 * The outside check's posts, stored by the contact function every five minutes, are nowhere an
 * operator or the firm meets the visitors' messages: not in an access request's export under
 * the check's own address, not in `list`, `show` or `wave`, and not in the firm's digest, which
 * counts only the visitors' held messages beside them. Run as the operator runs the commands,
 * against the stand-ins, with the posts the contact function really stored.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD } from '@site/core/contract';
import { OUTSIDE_CHECK, OUTSIDE_CHECK_HEADER } from '@site/core/outside-check';
import { CHECK_PREFIX } from '@site/core/table';
import { createAwsClients } from '@site/lambda/aws';
import { checkMarker, checkMarkerKey } from '@site/lambda/check-marker';
import { readContactConfig, readRetryConfig } from '@site/lambda/config';
import { createContactHandler } from '@site/lambda/contact-handler';
import { checkMessage } from '@site/lambda/outside-check-handler';
import { createRetryHandler } from '@site/lambda/retry';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { MAIL_TO, TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { runMessages, standInEnv } from './support/messages-cli';
import { useLocalTable } from './support/local-table';

const local = useLocalTable();
const run = (args: string[]) => runMessages(args, standInEnv(local.aws));

let checks: string[];
let held: string;

beforeAll(async () => {
  const config = { ...readContactConfig(local.aws.lambdaEnv), ...readRetryConfig(local.aws.lambdaEnv) };
  const contact = createContactHandler({ config, clients: createAwsClients(local.aws.connectionsFor('send-contact-email')) });
  const post = async (headers: Record<string, string>, body: Record<string, string>) =>
    answer(await contact(contactEvent({ headers: { 'content-type': 'application/json', ...headers }, body }))).json;
  checks = [];
  for (let i = 0; i < 3; i += 1) {
    const marker = checkMarker(checkMarkerKey(TEST_ORIGIN_SECRET), new Date());
    checks.push((await post({ [OUTSIDE_CHECK_HEADER]: marker }, checkMessage(new Date()))).id!);
  }
  // A visitor's message held as suspect, so a digest is due beside the checks.
  held = (await post({}, ownMessage({ [HONEYPOT_FIELD]: 'https://spam.example' }))).id!;
  expect(checks.every((id) => id.startsWith(CHECK_PREFIX))).toBe(true);
  // The posts are there, kept a day: what follows is about where they are not shown.
  expect((await local.aws.items()).filter((item) => checks.includes(String(item.id)))).toHaveLength(3);
});

describe('the outside check’s posts', () => {
  it('are in no access request’s export, not even under the check’s own address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inzage-'));
    const exported = await run(['export', OUTSIDE_CHECK.recipient, '--out', join(dir, 'inzage')]);
    expect(exported.code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'inzage.json'), 'utf8')) as Record<string, unknown>;
    expect(json.count).toBe(0);
    expect(JSON.stringify(json)).not.toContain(CHECK_PREFIX);
  });

  it('are in no list, and show knows none of them', async () => {
    for (const status of ['received', 'emailed', 'delivered', 'held']) {
      const listed = await run(['list', '--status', status]);
      expect(listed.stdout, status).not.toContain(CHECK_PREFIX);
    }
    const shown = await run(['show', checks[0]!]);
    expect(shown.code).not.toBe(0);
    expect(shown.stdout + shown.stderr).not.toContain(OUTSIDE_CHECK.recipient);
  });

  it('are not counted in a wave: the period holds the visitor’s one message', async () => {
    const wave = await run(['wave', '--since', '1h']);
    expect(wave.code).toBe(0);
    expect(wave.stdout).toMatch(/^1 messages? received /);
    expect(wave.stdout).not.toContain(CHECK_PREFIX);
  });

  it('are not in the firm’s digest, which counts the held visitor’s message alone', async () => {
    const config = { ...readContactConfig(local.aws.lambdaEnv), ...readRetryConfig(local.aws.lambdaEnv) };
    const later = new Date(Date.now() + 2 * 3_600_000);
    const retry = createRetryHandler({
      config,
      clients: createAwsClients(local.aws.connectionsFor('retry-undelivered')),
      clock: () => later,
    });
    await local.aws.clearEmails();
    expect(await retry()).toMatchObject({ digested: 1, delivered: 0 });
    const digest = (await local.aws.sentEmails()).filter((email) => email.destination.to.includes(MAIL_TO));
    expect(digest).toHaveLength(1);
    expect(JSON.stringify(digest)).toContain(held);
    for (const id of checks) expect(JSON.stringify(digest)).not.toContain(id.slice(CHECK_PREFIX.length));
  });
});
