/**
 * `npm run messages` against the DynamoDB and SES stand-ins, run as the operator runs it:
 * every command, and every failure as one line on stderr without personal data.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { retentionDaysFrom } from '@site/core/node/deploy-config';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { mailbox } from '@site/lambda/mail-header';
import { siteStackName, TABLE_NAME_OUTPUT } from '@site/core/names';
import { emulatorClientConfig } from '@site/emulators/connections';
import { ensureMessageTable } from '@site/emulators/servers';
import { DEFAULT_TABLE_NAME, expiresAtFor, MESSAGE_STATUSES, type DeliveryOutcome, type StoredMessage } from '@site/core/table';
import { startFakeCloudFormation, type FakeCloudFormation } from './support/cloudformation';
import { allStderr, BASE_ENV, message, runMessages as runCommand, standInEnv as standInsOf } from './support/messages-cli';
import { MAIL_FROM, MAIL_TO, TEST_CONFIGURATION_SET } from '@site/testing/test-values';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';

let aws: LocalAws;
let cloudFormation: FakeCloudFormation;

beforeAll(async () => {
  aws = await startLocalAws();
  cloudFormation = await startFakeCloudFormation({ [siteStackName('acc')]: { [TABLE_NAME_OUTPUT]: aws.tableName } });
});

afterAll(async () => {
  await cloudFormation?.close();
  await aws?.close();
});

const standInEnv = () => standInsOf(aws);
const runMessages = (args: string[], env: Record<string, string> = standInEnv(), input?: string) => runCommand(args, env, input);

async function stored(...messages: StoredMessage[]): Promise<StoredMessage[]> {
  for (const item of messages) await aws.put({ ...item });
  return messages;
}

/** Outcomes as the delivery-event consumer records them. */
const BOUNCE: DeliveryOutcome = {
  status: 'bounced',
  attempt: 1,
  precedence: 4,
  at: '2026-11-25T09:00:03.000Z',
  sesMessageId: '0102019example-bounce-000000',
  bounceType: 'Permanent',
  bounceSubType: 'General',
  diagnosticCode: 'smtp; 550 5.1.1 user unknown',
};
const DELIVERY: DeliveryOutcome = {
  status: 'delivered',
  attempt: 1,
  precedence: 2,
  at: '2026-11-25T09:00:01.000Z',
  sesMessageId: '0102019example-delivery-000000',
};

const IDEMPOTENCY_RECORD = { id: 'idempotency#1b4e28ba-2fa1-11d2-883f-0016d3cca427', messageId: 'X', bodyHash: 'x', expiresAt: 1 };

describe('list', () => {
  it('shows the latest messages of every status, newest first, with their delivery state', async () => {
    const [, waiting, givenUp, bounced, delivered] = await stored(
      message(30),
      message(20, { status: 'received', attempts: 2, lastError: 'Throttling', email: 'waiting@voorbeeld.nl' }),
      message(10, { status: 'failed', attempts: 8, lastError: 'MessageRejected', email: 'givenup@voorbeeld.nl' }),
      message(9, { status: 'bounced', email: 'bounced@voorbeeld.nl', outcome: BOUNCE }),
      message(8, { status: 'delivered', email: 'delivered@voorbeeld.nl', outcome: DELIVERY }),
    );
    await aws.put(IDEMPOTENCY_RECORD);

    const { code, stdout } = await runMessages(['list', '--limit', '4']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id\s+received\s+status\s+score\s+signals\s+attempts\s+from\s+last error\s+outcome$/);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(new RegExp(`^${delivered!.id}\\s+\\S+Z\\s+delivered\\s+1\\s+delivered@voorbeeld\\.nl\\s+${DELIVERY.at}$`));
    expect(lines[2]).toMatch(
      new RegExp(
        `^${bounced!.id}\\s+\\S+Z\\s+bounced\\s+1\\s+bounced@voorbeeld\\.nl\\s+${BOUNCE.at} Permanent/General: smtp; 550 5\\.1\\.1 user unknown$`,
      ),
    );
    expect(lines[3]).toMatch(new RegExp(`^${givenUp!.id}\\s+\\S+Z\\s+failed\\s+8\\s+givenup@voorbeeld\\.nl\\s+MessageRejected$`));
    expect(lines[4]).toMatch(new RegExp(`^${waiting!.id}\\s+\\S+Z\\s+received\\s+2\\s+waiting@voorbeeld\\.nl\\s+Throttling$`));
    expect(stdout).not.toContain('Vertrouwelijk');
  });

  it('--status takes every delivery outcome, and marks an outcome of an attempt before a resend as such', async () => {
    const [resent] = await stored(message(4, { status: 'emailed', attempts: 2, outcome: BOUNCE, email: 'resent@voorbeeld.nl' }));
    for (const status of ['delivered', 'bounced', 'complained', 'delayed', 'rejected']) {
      const { code, stdout } = await runMessages(['list', '--status', status]);
      expect(code, status).toBe(0);
      const rows = stdout.trim().split('\n');
      expect(rows.slice(1).every((row) => row.includes(` ${status} `)) || rows[0] === `No ${status} messages in ${aws.tableName}.`).toBe(
        true,
      );
    }
    const { stdout } = await runMessages(['list', '--status', 'emailed']);
    expect(stdout).toMatch(
      new RegExp(`${resent!.id}.*emailed\\s+2\\s+resent@voorbeeld\\.nl\\s+attempt 1 bounced ${BOUNCE.at} Permanent/General`),
    );
  });

  it('is the default command, and --status shows one status only', async () => {
    expect((await runMessages([])).stdout.split('\n')[0]).toMatch(/^id\s+received/);
    const { code, stdout } = await runMessages(['list', '--status', 'failed']);
    expect(code).toBe(0);
    const rows = stdout.trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => /\sfailed\s/.test(row))).toBe(true);
  });

  it('takes an option and its value as one word too, as node:util parseArgs reads them', async () => {
    await stored(message(3), message(2));
    const { code, stdout } = await runMessages(['list', '--limit=1']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(2);
  });

  it.each([
    [['list', '--limit', '0'], '--limit takes a whole number from 1 to 1000, not "0".'],
    [
      ['list', '--status', 'lost'],
      '--status takes received, emailed, delayed, delivered, complained, bounced, rejected, failed, held, spam, not "lost".',
    ],
    [['list', '--yes'], '--yes does not go with list.'],
    [['lijst'], 'Unknown command "lijst".'],
    [['show'], 'show takes a message id.'],
  ])('refuses %j with one line and exit code 2', async (args, line) => {
    const { code, stdout, stderr } = await runMessages(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe(line);
  });
});

describe('show', () => {
  it('prints one message in full: every field, received time, status, attempts, last error and expiry', async () => {
    const [shown] = await stored(
      message(5, {
        status: 'failed',
        attempts: 8,
        lastError: 'MessageRejected',
        lastAttemptAt: '2025-03-01T10:00:00.000Z',
        phone: '055 123 4567',
        email: 'Show.Me@Voorbeeld.nl',
        message: 'Eerste regel\nTweede regel',
        expiresAt: 1_900_000_000,
      }),
    );
    const { code, stdout } = await runMessages(['show', shown!.id]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^id\\s+${shown!.id}$`)),
        expect.stringMatching(new RegExp(`^received\\s+${shown!.receivedAt}$`)),
        expect.stringMatching(/^status\s+failed$/),
        expect.stringMatching(/^attempts\s+8$/),
        expect.stringMatching(/^last error\s+MessageRejected$/),
        expect.stringMatching(/^last attempt\s+2025-03-01T10:00:00.000Z$/),
        expect.stringMatching(/^expires\s+2030-03-17T17:46:40.000Z /),
        expect.stringMatching(/^name\s+Jan de Vries$/),
        expect.stringMatching(/^email\s+Show\.Me@Voorbeeld\.nl$/),
        expect.stringMatching(/^phone\s+055 123 4567$/),
        expect.stringMatching(/^company\s+—$/),
        expect.stringMatching(/^message\s+Eerste regel$/),
        expect.stringMatching(/^\s+Tweede regel$/),
      ]),
    );
  });

  it('prints the delivery outcome SES reported: when, for which attempt and e-mail, and what the mail server answered', async () => {
    const [shown] = await stored(message(5, { status: 'bounced', configurationSet: 'consultancy-site-test', outcome: BOUNCE }));
    const lines = (await runMessages(['show', shown!.id])).stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^status\s+bounced$/),
        expect.stringMatching(/^sent through\s+consultancy-site-test$/),
        expect.stringMatching(new RegExp(`^outcome\\s+bounced \\(attempt 1, SES id ${BOUNCE.sesMessageId}\\)$`)),
        expect.stringMatching(new RegExp(`^outcome at\\s+${BOUNCE.at}$`)),
        expect.stringMatching(/^mail server\s+Permanent\/General: smtp; 550 5\.1\.1 user unknown$/),
      ]),
    );
  });

  it('writes every invisible character as <U+…>, so none reorders, hides or blanks what the operator reads', async () => {
    // As a message stored before the rules widened could hold them; a joiner in an emoji, which validation keeps, too.
    const [shown] = await stored(
      message(5, {
        name: 'Jan \u202Egnp.exe\u202C \u3164\u2800',
        company: '\uFFF9Firma\uFFFB\u200E',
        message: 'Groeten 👩\u200D👧\u{E0041}',
      }),
    );
    const { stdout } = await runMessages(['show', shown!.id]);
    for (const character of ['\u202E', '\u202C', '\u3164', '\u2800', '\uFFF9', '\uFFFB', '\u200E', '\u200D', '\u{E0041}']) {
      expect(stdout).not.toContain(character);
    }
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name\s+Jan <U\+202E>gnp\.exe<U\+202C> <U\+3164><U\+2800>$/),
        expect.stringMatching(/^company\s+<U\+FFF9>Firma<U\+FFFB><U\+200E>$/),
        expect.stringMatching(/^message\s+Groeten 👩<U\+200D>👧<U\+E0041>$/u),
      ]),
    );
  });

  it('refuses an id that is not a message, idempotency records included', async () => {
    await aws.put(IDEMPOTENCY_RECORD);
    for (const id of ['01JTNOSUCHMESSAGE000000000', IDEMPOTENCY_RECORD.id]) {
      const { code, stdout, stderr } = await runMessages(['show', id]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(`No message with id ${id} in ${aws.tableName}.\n`);
    }
  });
});

describe('resend', () => {
  beforeEach(() => aws.clearEmails());

  it('e-mails a failed message again through the mail code, to the firm, and marks it emailed', async () => {
    const [failed] = await stored(
      message(60, { status: 'failed', attempts: 8, lastError: 'MessageRejected', email: 'opnieuw@voorbeeld.nl', company: 'Opnieuw B.V.' }),
    );
    const { code, stdout, stderr } = await runMessages(['resend', failed!.id]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      `E-mailed message ${failed!.id} to ${MAIL_TO}; SES will report its delivery (npm run messages -- show ${failed!.id} shows the outcome).\n`,
    );

    const emails = await aws.sentEmails();
    expect(emails).toHaveLength(1);
    // The same sender as the functions': the name from content before MAIL_FROM.
    expect(emails[0]).toMatchObject({
      from: mailbox(NOTIFICATION_TEXT.sender, MAIL_FROM),
      destination: { to: [MAIL_TO] },
      replyTo: ['opnieuw@voorbeeld.nl'],
    });
    expect(emails[0]!.subject).toBe('Nieuw contactbericht van Jan de Vries (Opnieuw B.V.)');
    expect(emails[0]!.body.text).toContain(`Kenmerk: ${failed!.id}`);
    expect(emails[0]!.body.text).toContain('Bedrijf: Opnieuw B.V.');
    const after = await aws.message(failed!.id);
    expect(after).toMatchObject({
      status: 'emailed',
      attempts: 9,
      sesMessageId: emails[0]!.messageId,
      configurationSet: TEST_CONFIGURATION_SET,
    });
    expect(after).not.toHaveProperty('lastError');
  });

  it('sends through the configuration set it is given, and reports by name that SES does not have another', async () => {
    const [failed] = await stored(message(60, { status: 'failed', attempts: 8 }));
    const { SES_CONFIGURATION_SET: _set, ...withoutSet } = standInEnv();
    // A configuration set this SES does not have, as a stage's name would be here: SES's own refusal, by name.
    const other = await runMessages(['resend', failed!.id], { ...withoutSet, SES_CONFIGURATION_SET: 'consultancy-site-other' });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/did not accept the e-mail \(ConfigurationSetDoesNotExist/);
    expect(await aws.sentEmails()).toEqual([]);
  });

  it('refuses an id that does not exist, and sends nothing', async () => {
    const { code, stderr } = await runMessages(['resend', '01JTNOSUCHMESSAGE000000000']);
    expect(code).toBe(1);
    expect(stderr).toBe(`No message with id 01JTNOSUCHMESSAGE000000000 in ${aws.tableName}.\n`);
    expect(await aws.sentEmails()).toEqual([]);
  });

  it('says SES did not take it, and where, and leaves a failed message failed with the attempt counted', async () => {
    const [failed] = await stored(message(60, { status: 'failed', attempts: 8, lastError: 'MessageRejected' }));
    const { code, stdout, stderr } = await runMessages(['resend', failed!.id], {
      ...standInEnv(),
      AWS_ENDPOINT_URL_SES: 'http://127.0.0.1:9',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(
        `^SES at http://127.0.0.1:9 did not accept the e-mail \\(.*ECONNREFUSED.*\\); message ${failed!.id} stays 'failed'\\.\\n$`,
      ),
    );
    expect(await aws.message(failed!.id)).toMatchObject({
      status: 'failed',
      attempts: 9,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('takes a received message from the retry job first, so the two never both send it', async () => {
    const [waiting] = await stored(
      message(60, { status: 'received', attempts: 1, lastAttemptAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect((await runMessages(['resend', waiting!.id])).code).toBe(0);
    expect(await aws.message(waiting!.id)).toMatchObject({ status: 'emailed', attempts: 2 });
    expect(await aws.sentEmails()).toHaveLength(1);
  });
});

/** `export` into a directory of its own: its run, and the two files it wrote. */
async function exportOf(address: string) {
  const out = join(mkdtempSync(join(tmpdir(), 'inzage-')), 'inzage');
  const run = await runMessages(['export', address, '--out', out]);
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  return { ...run, out, json: read(`${out}.json`), text: read(`${out}.txt`) };
}

describe('export', () => {
  it('writes every message from the address, in any case, as JSON beside a document to read, however many there are', async () => {
    const theirs = Array.from({ length: 120 }, (_, index) =>
      message(1000 - index, { email: index % 2 ? 'Inzage@Voorbeeld.NL' : 'inzage@voorbeeld.nl', message: `Bericht ${index}` }),
    );
    await stored(...theirs, message(1, { email: 'iemand-anders@voorbeeld.nl' }));
    await aws.put({ ...IDEMPOTENCY_RECORD, messageId: theirs[0]!.id });

    const { code, stdout, stderr, out, json, text } = await exportOf('INZAGE@voorbeeld.nl');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      `Wrote ${out}.txt (the answer to send, in Dutch) and ${out}.json (the same data as JSON, to attach): 120 messages. Delete both once they are sent.\n`,
    );
    const exported = JSON.parse(json!) as { address: string; exportedAt: string; count: number; messages: StoredMessage[] };
    expect(exported.address).toBe('INZAGE@voorbeeld.nl');
    expect(Date.parse(exported.exportedAt)).not.toBeNaN();
    expect(exported.count).toBe(120);
    expect(exported.messages).toEqual(theirs);
    // The record names one of their messages: it is theirs to see.
    expect(exported).toMatchObject({ idempotencyRecords: [{ ...IDEMPOTENCY_RECORD, messageId: theirs[0]!.id }], visitorCounters: [] });
    expect(text).toContain('UW BERICHTEN (120)');
    expect(text).toContain('inzage.json');
  });

  it('writes an empty export for an address with no messages', async () => {
    const { code, json, text } = await exportOf('niemand@voorbeeld.nl');
    expect(code).toBe(0);
    expect(JSON.parse(json!)).toMatchObject({ count: 0, messages: [] });
    expect(text).toContain('Van dit e-mailadres zijn geen berichten opgeslagen.');
  });

  it('never writes over files that are there already', async () => {
    const first = await exportOf('niemand@voorbeeld.nl');
    const again = await runMessages(['export', 'niemand@voorbeeld.nl', '--out', first.out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`${first.out}.txt and ${first.out}.json exist already: give --out another name, or delete them first.\n`);
  });

  it('refuses a malformed address without repeating it', async () => {
    for (const args of [
      ['export', 'geen-adres'],
      ['erase', 'jan@', '--yes'],
    ]) {
      const { code, stdout, stderr } = await runMessages(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe('That is not an e-mail address: give the address the person wrote from, as name@domain.nl.\n');
    }
  });
});

describe('erase', () => {
  const address = 'Vergeet.Mij@voorbeeld.nl';

  it('shows what it will delete, deletes nothing without a yes, and everything from the address with one', async () => {
    const theirs = await stored(message(30, { email: address }), message(20, { email: address.toLowerCase(), status: 'failed' }));
    const [other] = await stored(message(10, { email: 'blijft@voorbeeld.nl' }));
    await aws.put(IDEMPOTENCY_RECORD);

    const declined = await runMessages(['erase', 'vergeet.mij@VOORBEELD.nl'], standInEnv(), 'nee\n');
    expect(declined.code).toBe(1);
    expect(declined.stdout).toContain(`2 messages from vergeet.mij@VOORBEELD.nl in ${aws.tableName}:`);
    for (const item of theirs)
      expect(declined.stdout).toMatch(new RegExp(`${item.id}\\s+${item.receivedAt}\\s+${item.status}\\s+Jan de Vries\\s+${item.email}`));
    expect(declined.stderr).toBe('Delete these 2 messages for good? Type yes to delete: Nothing deleted.\n');
    for (const item of theirs) expect(await aws.message(item.id)).toBeDefined();

    const confirmed = await runMessages(['erase', 'vergeet.mij@VOORBEELD.nl'], standInEnv(), 'yes\n');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout.trimEnd().split('\n').at(-1)).toBe('Deleted 2 messages.');
    for (const item of theirs) expect(await aws.message(item.id)).toBeUndefined();
    expect(await aws.message(other!.id)).toBeDefined();
    expect((await aws.items()).some((item) => item.id === IDEMPOTENCY_RECORD.id)).toBe(true);
  });

  it('asks nothing with --yes, and an empty or closed stdin is a no', async () => {
    const [one] = await stored(message(30, { email: 'zeker@voorbeeld.nl' }));
    const closed = await runMessages(['erase', 'zeker@voorbeeld.nl']);
    expect(closed.code).toBe(1);
    expect(await aws.message(one!.id)).toBeDefined();

    const { code, stdout, stderr } = await runMessages(['erase', 'zeker@voorbeeld.nl', '--yes']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('Deleted 1 message.');
    expect(await aws.message(one!.id)).toBeUndefined();
  });

  it('deletes the idempotency records of the messages too, and only theirs', async () => {
    const keys = ['9a1f5c4e-0b7d-4c2a-8e3f-1d2c3b4a5f60', '9a1f5c4e-0b7d-4c2a-8e3f-1d2c3b4a5f61'];
    const theirs = await stored(
      message(30, { email: 'met.sleutel@voorbeeld.nl', idempotencyKey: keys[0] }),
      message(20, { email: 'met.sleutel@voorbeeld.nl', idempotencyKey: keys[1] }),
    );
    const record = (key: string, messageId: string) => ({
      id: `idempotency#${key}`,
      messageId,
      bodyHash: 'f'.repeat(64),
      hashKeyName: 'abc123',
      expiresAt: 2_000_000_000,
    });
    await aws.put(record(keys[0]!, theirs[0]!.id));
    // The second key expired and was claimed again for someone else's message: that record stays.
    await aws.put(record(keys[1]!, '01JTSOMEONEELSE00000000000'));

    const exported = JSON.parse((await exportOf('met.sleutel@voorbeeld.nl')).json!) as { idempotencyRecords: unknown[] };
    expect(exported.idempotencyRecords).toEqual([record(keys[0]!, theirs[0]!.id)]);

    const { code, stdout } = await runMessages(['erase', 'met.sleutel@voorbeeld.nl', '--yes']);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('Deleted 2 messages and 1 idempotency record.');
    const ids = (await aws.items()).map((item) => item.id);
    expect(ids).not.toContain(`idempotency#${keys[0]}`);
    expect(ids).toContain(`idempotency#${keys[1]}`);
    for (const item of theirs) expect(ids).not.toContain(item.id);
  });

  it('says so when there is nothing to erase', async () => {
    const { code, stdout } = await runMessages(['erase', 'niemand@voorbeeld.nl', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe(`No messages from niemand@voorbeeld.nl in ${aws.tableName}.\n`);
  });
});

describe('retention', () => {
  const TABLE = 'contact-messages-retention';
  const DAY = 24 * 60 * 60;
  /** The deploy's retention: cdk.json's, as the site's privacy statement quotes it. */
  const DAYS = retentionDaysFrom(CDK_JSON_CONTEXT);
  const retentionEnv = () => ({ ...standInEnv(), TABLE_NAME: TABLE });

  /** A message received `daysAgo` days ago (plus `index` seconds), stored when the period was `storedFor` days. */
  const storedUnder = (storedFor: number, daysAgo: number, index: number, status: StoredMessage['status']): StoredMessage => {
    const receivedAt = new Date(Date.now() - daysAgo * DAY * 1000 - index * 1000).toISOString();
    return message(0, { status, receivedAt, expiresAt: expiresAtFor(receivedAt, storedFor) });
  };

  // More than one page of one status (the command reads 1,000 at a time), every status, and the other kinds of item.
  const longer = [
    ...Array.from({ length: 1100 }, (_, i) => storedUnder(2 * DAYS, (i % 40) * 3, i, 'delivered')),
    ...MESSAGE_STATUSES.map((status, i) => storedUnder(2 * DAYS, DAYS + 10, i, status)),
  ];
  const inStep = Array.from({ length: 30 }, (_, i) => storedUnder(DAYS, i, i, 'emailed'));
  const shorter = Array.from({ length: 20 }, (_, i) => storedUnder(Math.ceil(DAYS / 2), i, i, 'received'));
  const pastDue = longer.filter((item) => expiresAtFor(item.receivedAt, DAYS) <= Date.now() / 1000).length;
  const others = [
    { ...IDEMPOTENCY_RECORD, id: 'idempotency#3f2504e0-4f89-11d3-9a0c-0305e82c3301', expiresAt: 4_000_000_000 },
    { id: 'visitor#0a1b2c#29000000', messageCount: 1, expiresAt: 4_000_000_000 },
  ];

  let client: DynamoDBDocumentClient;
  beforeAll(async () => {
    await ensureMessageTable(aws.urls.dynamodb, TABLE);
    client = DynamoDBDocumentClient.from(new DynamoDBClient(emulatorClientConfig(aws.urls.dynamodb)));
    const items: object[] = [...longer, ...inStep, ...shorter, ...others];
    for (let i = 0; i < items.length; i += 25) {
      await client.send(
        new BatchWriteCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: { ...item } } })) } }),
      );
    }
  }, 60_000);
  afterAll(() => client?.destroy());

  /** Every item's expiry, by id. */
  async function expiries(): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for await (const page of paginateScan({ client }, { TableName: TABLE, ConsistentRead: true })) {
      for (const item of page.Items ?? []) found.set(item.id as string, item.expiresAt as number);
    }
    return found;
  }
  const checked = longer.length + inStep.length + shorter.length;

  it('says, as a dry run, how many messages are kept longer than the period, and changes nothing', async () => {
    const before = await expiries();
    const { code, stdout, stderr } = await runMessages(['retention'], retentionEnv());
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `Retention: ${DAYS} days (retentionDays in cdk.json). Checked ${checked.toLocaleString('en')} stored messages in ${TABLE}`,
    );
    expect(stderr).toContain(
      `${longer.length.toLocaleString('en')} messages are kept longer than ${DAYS} days after arriving: --apply sets them`,
    );
    expect(stderr).toContain(`${pastDue} of them are past it already: DynamoDB deletes those within a few days of the change.`);
    expect(stderr).toContain(`${inStep.length} messages already expire ${DAYS} days after arriving.`);
    expect(stderr).toContain(`${shorter.length} messages stored under a shorter period keep their expiry`);
    expect(stderr).toContain('Dry run: nothing changed.');
    expect(await expiries()).toEqual(before);
  }, 60_000);

  it('with --apply, sets each of them to expire the period after it arrived, and leaves every other item as it was', async () => {
    const before = await expiries();
    const { code, stderr } = await runMessages(['retention', '--apply'], retentionEnv());
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`${longer.length.toLocaleString('en')} messages now expire ${DAYS} days after arriving`);
    const after = await expiries();
    for (const item of longer) expect(after.get(item.id), item.id).toBe(expiresAtFor(item.receivedAt, DAYS));
    for (const item of [...inStep, ...shorter, ...others]) expect(after.get(item.id), item.id).toBe(before.get(item.id));
    expect(after.size).toBe(before.size);
  }, 60_000);

  it('changes nothing more when run again', async () => {
    const before = await expiries();
    const { code, stderr } = await runMessages(['retention', '--apply'], retentionEnv());
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      `${(longer.length + inStep.length).toLocaleString('en')} messages already expire ${DAYS} days after arriving.`,
    );
    expect(stderr).not.toContain('now expire');
    expect(await expiries()).toEqual(before);
  }, 60_000);

  it('takes no argument but --apply', async () => {
    expect((await runMessages(['retention', 'now'], retentionEnv())).stderr).toMatch(/^retention takes no argument\./);
    expect((await runMessages(['retention', '--yes'], retentionEnv())).stderr).toBe('--yes does not go with retention.\n');
  });
});

describe('where the table is', () => {
  it('finds the local stack with nothing configured, on the ports npm start reads', async () => {
    await ensureMessageTable(aws.urls.dynamodb, DEFAULT_TABLE_NAME);
    const { port } = new URL(aws.urls.dynamodb);
    const { code, stdout } = await runMessages(['list'], { ...BASE_ENV, DYNAMODB_PORT: port });
    expect(code).toBe(0);
    expect(stdout).toBe(`No messages in ${DEFAULT_TABLE_NAME}.\n`);
  });

  it("finds a stage's table through its stack's TableName output", async () => {
    const [shown] = await stored(message(3));
    const { TABLE_NAME: _, ...withoutTable } = standInEnv();
    const env = { ...withoutTable, AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.url };
    const { code, stdout } = await runMessages(['show', shown!.id, '--stage', 'acc'], env);
    expect(code).toBe(0);
    expect(stdout).toContain(shown!.id);
    expect(cloudFormation.asked.at(-1)).toBe('consultancy-site-acc');

    const missing = await runMessages(['list', '--stage', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'Stack consultancy-site-nope does not exist in eu-west-1. Pass --stage <stage>, set AWS_REGION to its region, or set TABLE_NAME.\n',
    );
  });
});

describe('errors are one line', () => {
  it('names the endpoint when DynamoDB cannot be reached', async () => {
    const { code, stdout, stderr } = await runMessages([], { ...standInEnv(), AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'DynamoDB is not reachable at http://127.0.0.1:9. Start the local stack with npm start, or set AWS_REGION (and AWS_PROFILE) for AWS.\n',
    );
  });

  it('names the region when CloudFormation cannot be reached', async () => {
    const { TABLE_NAME: _, ...withoutTable } = standInEnv();
    const { code, stderr } = await runMessages(['list', '--stage', 'acc'], {
      ...withoutTable,
      AWS_ENDPOINT_URL_CLOUDFORMATION: 'http://127.0.0.1:9',
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'CloudFormation is not reachable in eu-west-1. Start the local stack with npm start, or set AWS_REGION (and AWS_PROFILE) for AWS.\n',
    );
  });

  it('says which table is missing', async () => {
    const { code, stderr } = await runMessages([], { ...standInEnv(), TABLE_NAME: 'no-such-table' });
    expect(code).toBe(1);
    expect(stderr).toContain('Table no-such-table does not exist at ');
  });

  it('says what to do when the table was made before the byEmail index', async () => {
    const client = new DynamoDBClient(emulatorClientConfig(aws.urls.dynamodb));
    await client.send(
      new CreateTableCommand({
        TableName: 'made-before-byemail',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    client.destroy();
    const { code, stderr } = await runMessages(['export', 'jan@voorbeeld.nl'], { ...standInEnv(), TABLE_NAME: 'made-before-byemail' });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Table made-before-byemail at ${aws.urls.dynamodb} was made before its byEmail index. In AWS, deploy the stack; locally, stop npm start, delete .data/ and start again.\n`,
    );
  });

  it('says when there are no AWS credentials', async () => {
    const { code, stderr } = await runMessages(['show', '01JTNOSUCHMESSAGE000000000'], {
      ...BASE_ENV,
      AWS_REGION: 'eu-west-1',
      TABLE_NAME: aws.tableName,
      // Nothing to find anywhere in the SDK's credential chain on this machine.
      AWS_CONFIG_FILE: '/nonexistent/config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    expect(code).toBe(1);
    expect(stderr).toBe('No AWS credentials found. Set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.\n');
  });

  it('never writes personal data to stderr, in any test of this file', () => {
    expect(allStderr()).not.toBe('');
    for (const personal of ['voorbeeld', 'Jan de Vries', 'Vertrouwelijk', 'Bericht', 'Opnieuw', '055 123']) {
      expect(allStderr()).not.toContain(personal);
    }
    expect(allStderr()).not.toMatch(/\n\s+at /);
  });
});
