/**
 * Clearing a spam wave with `npm run messages`, against dynalite and the local SES, run as the
 * operator runs it: list and show give the score, wave counts a period, purge marks a wave's
 * held messages as spam (a dry run first, then once), release e-mails one held message once.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { spamRetentionDaysFrom } from '@site/core/node/deploy-config';
import { SPAM_SIGNALS, type SpamSignal } from '@site/core/spam';
import type { StoredMessage } from '@site/core/table';
import { emulatorClientConfig } from '@site/emulators/connections';
import { messageMaker } from '@site/testing/stored-messages';
import { MAIL_TO } from '@site/testing/test-values';
import { countWave } from '../messages/wave';
import { runMessages, standInEnv } from './support/messages-cli';
import { useLocalTable } from './support/local-table';

const local = useLocalTable();
const run = (args: string[], env: Record<string, string> = standInEnv(local.aws)) => runMessages(args, env);

const HOUR = 3_600_000;
const DAY_SECONDS = 86_400;
const SPAM_DAYS = spamRetentionDaysFrom(CDK_JSON_CONTEXT);

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fingerprint = () => randomBytes(16).toString('hex');
const short = (fingerprint: string) => fingerprint.slice(0, 12);
const WAVE_SIGNALS: SpamSignal[] = ['noStamp', 'fastFill', 'repeatedText'];

async function stored(messages: StoredMessage[]): Promise<StoredMessage[]> {
  for (const message of messages) await local.aws.put({ ...message });
  return messages;
}

/** A wave as the contact function stores it: held for its score, one text, from many addresses. */
function waveOf(count: number, text: string, make: ReturnType<typeof messageMaker>): StoredMessage[] {
  return Array.from({ length: count }, () =>
    make({
      status: 'held',
      heldFor: 'suspect',
      score: 8,
      signals: WAVE_SIGNALS,
      fingerprint: text,
      message: 'Goedkope SEO http://x.example',
    }),
  );
}

/** Every message in the table by id, as stored. */
async function snapshot(): Promise<Map<string, StoredMessage>> {
  return new Map((await local.aws.messages()).map((message) => [message.id, message]));
}

describe('wave', () => {
  const text = fingerprint();
  beforeAll(async () => {
    const make = messageMaker({ idPrefix: '01JTWAVE', from: new Date(Date.now() - 2 * HOUR), stepMs: 1000 });
    await stored([
      ...waveOf(30, text, make),
      ...Array.from({ length: 3 }, () => make({ status: 'held', heldFor: 'budget', score: 0, signals: [], fingerprint: fingerprint() })),
      ...Array.from({ length: 5 }, () => make({ status: 'emailed', attempts: 1, score: 0, signals: [], fingerprint: fingerprint() })),
    ]);
    // Three days ago: outside the default period of one day.
    const old = messageMaker({ idPrefix: '01JTOLDW', from: new Date(Date.now() - 3 * 24 * HOUR) });
    await stored(waveOf(2, text, old));
  });

  it('counts the last day per status (held ones by why), per score, per signal and per text', async () => {
    const { code, stdout, stderr } = await run(['wave']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^38 messages received \\S+Z to \\S+Z in ${local.aws.tableName}\\.$`));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^held\s+33\s+suspect 30, budget 3$/),
        expect.stringMatching(/^emailed\s+5$/),
        expect.stringMatching(/^8\s+30\s+suspect$/),
        expect.stringMatching(/^0\s+8$/),
        expect.stringMatching(new RegExp(`^fastFill\\s+30\\s+${literally(SPAM_SIGNALS.fastFill.meaning)}$`)),
        expect.stringMatching(new RegExp(`^${short(text)}\\s+30\\s+30\\s+8$`)),
      ]),
    );
    // A text sent once is no wave, and the full fingerprint is never printed.
    expect(stdout).not.toContain(text);
    expect(stdout).not.toContain('Goedkope');
  });

  it('takes the period from --since and --until, as a time ago or a moment', async () => {
    const week = await run(['wave', '--since', '7d']);
    expect(week.stdout).toMatch(/^40 messages received/);
    expect(week.stdout).toMatch(new RegExp(`${short(text)}\\s+32\\s+32\\s+8`));
    const before = await run(['wave', '--since', '7d', '--until', new Date(Date.now() - 24 * HOUR).toISOString()]);
    expect(before.stdout).toMatch(/^2 messages received/);
    const empty = await run(['wave', '--until', '30d']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^--since \(\S+Z\) is not before --until \(\S+Z\): that period holds no time\.\n$/);
  });

  it('refuses a time it cannot read with one line and exit code 2', async () => {
    const { code, stderr } = await run(['wave', '--since', 'gisteren']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(
      '--since takes a time ago (90m, 6h, 2d) or a UTC moment (2026-03-01 or 2026-03-01T09:00Z), not "gisteren".',
    );
  });

  it('reads only the status index by time, in bounded pages, and stops at its limit', async () => {
    const sent: { name: string; input: Record<string, unknown> }[] = [];
    const client = new DynamoDBClient(emulatorClientConfig(local.aws.urls.dynamodb));
    client.middlewareStack.add(
      (next, context) => (args) => {
        sent.push({ name: context.commandName ?? '', input: args.input as Record<string, unknown> });
        return next(args);
      },
      { step: 'initialize' },
    );
    const table = { name: local.aws.tableName, client: DynamoDBDocumentClient.from(client) };
    const period = { from: new Date(Date.now() - 7 * 24 * HOUR).toISOString(), to: new Date().toISOString() };

    const all = await countWave(table, period);
    expect(all.total).toBe(40);
    expect(sent.length).toBeGreaterThan(0);
    for (const { name, input } of sent) {
      expect(name).toBe('QueryCommand');
      expect(input).toMatchObject({ IndexName: 'byStatus', Limit: 500 });
      expect(input.KeyConditionExpression).toMatch(/BETWEEN/);
      // Never the text, the name or the address.
      expect(Object.values(input.ExpressionAttributeNames as Record<string, string>)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(message|name|email|company|phone)$/)]),
      );
    }

    const capped = await countWave(table, period, 10);
    expect(capped).toMatchObject({ total: 10, stoppedAt: 'held' });
    client.destroy();
  });
});

describe('purge', () => {
  let text: string;
  let wave: StoredMessage[];
  let budgetHeld: StoredMessage;
  let sameTextEmailed: StoredMessage;
  let soonExpiring: StoredMessage;
  beforeAll(async () => {
    text = fingerprint();
    const make = messageMaker({ idPrefix: '01JTPURG', from: new Date(Date.now() - HOUR), stepMs: 1000 });
    wave = await stored(waveOf(25, text, make));
    [budgetHeld, sameTextEmailed, soonExpiring] = (await stored([
      make({ status: 'held', heldFor: 'budget', score: 0, signals: [], fingerprint: fingerprint() }),
      // The first of the text, e-mailed before it counted as repeated: purge never touches what the firm has seen.
      make({ status: 'emailed', attempts: 1, score: 5, signals: ['noStamp', 'fastFill'], fingerprint: text }),
      make({
        status: 'held',
        heldFor: 'suspect',
        score: 8,
        signals: WAVE_SIGNALS,
        fingerprint: text,
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      }),
    ])) as [StoredMessage, StoredMessage, StoredMessage];
  });

  it('is a dry run without --confirm: it says what it would mark and changes nothing', async () => {
    const before = await snapshot();
    const { code, stdout, stderr } = await run(['purge', '--fingerprint', short(text)]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      new RegExp(
        `^Held messages received \\S+Z to \\S+Z in ${local.aws.tableName} with fingerprint ${short(text)}: 26 of \\d+ messages held\\.\\n`,
      ),
    );
    expect(stdout).toContain(`${wave[0]!.id}  `);
    expect(stdout).toContain('… and 6 more.');
    expect(stdout).toContain('Dry run: nothing changed. With --confirm, these are marked spam');
    expect(stdout).not.toContain('Goedkope');
    expect(await snapshot()).toEqual(before);
  });

  it('with --confirm marks only the selected held messages spam, with a shorter expiry, never a later one', async () => {
    const before = await snapshot();
    const start = Math.floor(Date.now() / 1000);
    const { code, stdout } = await run(['purge', '--fingerprint', short(text), '--confirm']);
    const end = Math.floor(Date.now() / 1000);
    expect(code).toBe(0);
    expect(stdout).toContain(`Marked 26 messages as spam: they expire spamRetentionDays (${SPAM_DAYS} days, cdk.json) from now`);
    expect(stdout).toContain('running purge again changes nothing for these');

    const after = await snapshot();
    for (const message of wave) {
      const marked = after.get(message.id)!;
      expect(marked.status).toBe('spam');
      expect(marked.expiresAt).toBeGreaterThanOrEqual(start + SPAM_DAYS * DAY_SECONDS);
      expect(marked.expiresAt).toBeLessThanOrEqual(end + SPAM_DAYS * DAY_SECONDS);
      expect(marked.expiresAt).toBeLessThan(message.expiresAt);
      // Nothing else changes: the message is all there until it expires.
      expect({ ...marked, status: message.status, expiresAt: message.expiresAt }).toEqual(message);
    }
    expect(after.get(soonExpiring.id)).toEqual({ ...soonExpiring, status: 'spam' });
    expect(after.get(budgetHeld.id)).toEqual(before.get(budgetHeld.id));
    expect(after.get(sameTextEmailed.id)).toEqual(before.get(sameTextEmailed.id));
  });

  it('changes nothing when run again', async () => {
    const before = await snapshot();
    const { code, stdout } = await run(['purge', '--fingerprint', short(text), '--confirm']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/: 0 of \d+ messages? held\.\n/);
    expect(stdout).toContain('Marked 0 messages as spam');
    expect(await snapshot()).toEqual(before);
  });

  it('selects by a minimum score too', async () => {
    const make = messageMaker({ idPrefix: '01JTSCOR', from: new Date(Date.now() - HOUR) });
    const [low, high] = await stored([
      make({ status: 'held', heldFor: 'suspect', score: 3, signals: ['badStamp'], fingerprint: fingerprint() }),
      make({ status: 'held', heldFor: 'suspect', score: 11, signals: ['honeypot', 'fastFill', 'manyLinks'], fingerprint: fingerprint() }),
    ]);
    const { code, stdout } = await run(['purge', '--min-score', '10', '--since', '2h', '--confirm']);
    expect(code).toBe(0);
    expect(stdout).toContain('Marked 1 message as spam');
    expect((await local.aws.message(high!.id))?.status).toBe('spam');
    expect((await local.aws.message(low!.id))?.status).toBe('held');
  });

  it.each([
    [['purge'], 'purge takes --fingerprint, --min-score or both: a period alone would mark the people a budget held too.'],
    [['purge', '--fingerprint', 'abc'], '--fingerprint takes a fingerprint as wave shows it (8 to 32 hex digits), not "abc".'],
    [['purge', '--min-score', 'veel'], '--min-score takes a whole number, not "veel".'],
    [['purge', '--min-score', '5', '--apply'], '--apply does not go with purge.'],
  ])('refuses %j with one line and exit code 2', async (args, line) => {
    const before = await snapshot();
    const { code, stdout, stderr } = await run(args);
    expect({ code, stdout, line: stderr.split('\n')[0] }).toEqual({ code: 2, stdout: '', line });
    expect(await snapshot()).toEqual(before);
  });
});

describe('release', () => {
  const make = messageMaker({ idPrefix: '01JTRELE', from: new Date(Date.now() - HOUR) });
  const heldOne = () =>
    make({
      status: 'held',
      heldFor: 'budget',
      score: 0,
      signals: [],
      fingerprint: fingerprint(),
      company: 'Echt B.V.',
      email: 'echt@voorbeeld.nl',
    });
  beforeEach(() => local.aws.clearEmails());

  it('e-mails a held message to the firm once, however often it is released', async () => {
    const [held] = await stored([heldOne()]);
    const first = await run(['release', held!.id]);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `Released and e-mailed message ${held!.id} to ${MAIL_TO}; SES will report its delivery (npm run messages -- show ${held!.id} shows the outcome).\n`,
    );
    const emails = await local.aws.sentEmails();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ destination: { to: [MAIL_TO] }, replyTo: ['echt@voorbeeld.nl'] });
    expect(emails[0]!.body.text).toContain(`Kenmerk: ${held!.id}`);
    expect(await local.aws.message(held!.id)).toMatchObject({
      status: 'emailed',
      attempts: 1,
      sesMessageId: emails[0]!.messageId,
      heldFor: 'budget',
    });

    const again = await run(['release', held!.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `Message ${held!.id} is not held (its status is 'emailed'): nothing sent. It was released or e-mailed already; resend ${held!.id} e-mails it again.\n`,
    );
    expect(await local.aws.sentEmails()).toHaveLength(1);
  });

  it('sends once when two releases race', async () => {
    const [held] = await stored([heldOne()]);
    const results = await Promise.all([run(['release', held!.id]), run(['release', held!.id])]);
    expect(results.map((result) => result.code).sort()).toEqual([0, 1]);
    expect(await local.aws.sentEmails()).toHaveLength(1);
  });

  it('leaves a released message to the retry job when SES does not take it', async () => {
    const [held] = await stored([heldOne()]);
    const { code, stdout, stderr } = await run(['release', held!.id], {
      ...standInEnv(local.aws),
      AWS_ENDPOINT_URL_SES: 'http://127.0.0.1:9',
    });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toMatch(
      new RegExp(
        `^Released message ${held!.id}, but SES at http://127.0.0.1:9 did not accept the e-mail \\(.*ECONNREFUSED.*\\); it is 'received' now: the retry job will try again\\.\\n$`,
      ),
    );
    expect(await local.aws.message(held!.id)).toMatchObject({
      status: 'received',
      attempts: 1,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('refuses a message marked spam, or one that is not there, and sends nothing', async () => {
    const [spam] = await stored([{ ...heldOne(), status: 'spam' }]);
    const marked = await run(['release', spam!.id]);
    expect(marked.code).toBe(1);
    expect(marked.stderr).toBe(
      `Message ${spam!.id} was marked spam by a purge, not held: nothing sent. To e-mail it anyway, npm run messages -- resend ${spam!.id}.\n`,
    );
    const missing = await run(['release', '01JTNOSUCHMESSAGE000000000']);
    expect(missing).toMatchObject({ code: 1, stderr: `No message with id 01JTNOSUCHMESSAGE000000000 in ${local.aws.tableName}.\n` });
    expect(await local.aws.sentEmails()).toEqual([]);
    expect(await local.aws.message(spam!.id)).toMatchObject({ status: 'spam', attempts: 0 });
  });
});

describe('list and show', () => {
  it('give a held message its status and why, its score and its signals with what each means', async () => {
    const text = fingerprint();
    const make = messageMaker({ idPrefix: '01JTSHOW', from: new Date(Date.now() - HOUR) });
    const [held] = await stored([
      make({ status: 'held', heldFor: 'suspect', score: 6, signals: ['noStamp', 'linkInName', 'linkInMessage'], fingerprint: text }),
    ]);

    const listed = await run(['list', '--status', 'held', '--limit', '100']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').find((line) => line.startsWith(held!.id))).toMatch(
      new RegExp(`^${held!.id}\\s+\\S+Z\\s+held \\(suspect\\)\\s+6\\s+noStamp,linkInName,linkInMessage\\s+0\\s`),
    );

    const shown = (await run(['show', held!.id])).stdout.split('\n');
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^status\s+held$/),
        expect.stringMatching(/^held for\s+suspect \(its score\)$/),
        expect.stringMatching(/^score\s+6 \(suspect; suspect from 3\)$/),
        expect.stringMatching(new RegExp(`^signals\\s+noStamp \\(\\+2\\): ${literally(SPAM_SIGNALS.noStamp.meaning)}$`)),
        expect.stringMatching(new RegExp(`^\\s+linkInName \\(\\+3\\): ${literally(SPAM_SIGNALS.linkInName.meaning)}$`)),
        expect.stringMatching(new RegExp(`^fingerprint\\s+${text} \\(wave and purge take ${short(text)}\\)$`)),
      ]),
    );
  });
});
