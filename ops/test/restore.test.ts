/**
 * `npm run messages -- restore-from <table>` against the DynamoDB stand-in: after a
 * point-in-time restore into a new table, the messages the stage's table lost go back into it,
 * and nothing the stage's table holds is changed. Without --apply it only says what it would do.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emulatorClientConfig } from '@site/emulators/connections';
import { ensureMessageTable } from '@site/emulators/servers';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';
import type { StoredMessage } from '@site/core/table';
import { IDEMPOTENCY_PREFIX } from '@site/core/table';
import { VISITOR_COUNTER_PREFIX } from '@site/lambda/visitor-limit';
import { allStderr, message, runMessages, standInEnv } from './support/messages-cli';

let aws: LocalAws;
let documents: DynamoDBDocumentClient;
let restoredTables = 0;
/** The table the point-in-time restore made: a new one for each test. */
let restored: string;

beforeAll(async () => {
  aws = await startLocalAws();
  documents = DynamoDBDocumentClient.from(new DynamoDBClient(emulatorClientConfig(aws.urls.dynamodb)));
});

afterAll(async () => {
  documents?.destroy();
  await aws?.close();
});

beforeEach(async () => {
  restoredTables += 1;
  restored = `${aws.tableName}-restored-${restoredTables}`;
  await ensureMessageTable(aws.urls.dynamodb, restored);
});

async function inRestored(...items: object[]): Promise<void> {
  for (const item of items) await documents.send(new PutCommand({ TableName: restored, Item: { ...item } }));
}

const restoreFrom = (...options: string[]) => runMessages(['restore-from', restored, ...options], standInEnv(aws));
const recordOf = (message: StoredMessage) => ({
  id: `${IDEMPOTENCY_PREFIX}${message.idempotencyKey}`,
  messageId: message.id,
  bodyHash: 'keyed-hash',
  hashKeyName: 'k1',
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
});
const counter = () => ({
  id: `${VISITOR_COUNTER_PREFIX}a1b2c3#${Math.floor(Date.now() / 600_000)}`,
  messageCount: 1,
  expiresAt: Math.floor(Date.now() / 1000) + 600,
});

/** A restored copy from before a mistake: some messages the stage's table lost, one it still has in a newer state. */
async function afterAMistake() {
  const lost = message(60, { idempotencyKey: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', status: 'received', attempts: 1 });
  const lostToo = message(50, { status: 'delivered' });
  const kept = message(40, { status: 'emailed' });
  const expired = message(600, { expiresAt: Math.floor(Date.now() / 1000) - 60 });
  const record = recordOf(lost);
  await inRestored(lost, record, lostToo, kept, expired, counter());
  // Since the restore point: the kept message was delivered, and a new one arrived.
  const keptNow = { ...kept, status: 'delivered' as const };
  const newer = message(1);
  await aws.put({ ...keptNow });
  await aws.put({ ...newer });
  return { lost, record, lostToo, kept, keptNow, newer, expired };
}

describe('restore-from', () => {
  it('without --apply names the messages it would put back, counts what it would leave, and changes nothing', async () => {
    const { lost, lostToo } = await afterAMistake();
    const before = await aws.items();
    const { code, stdout, stderr } = await restoreFrom();
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `3 messages in ${restored}: 2 missing from ${aws.tableName}, 1 already there; skipped 1 expired item and 1 visitor counter.`,
    );
    expect(lines[1]).toMatch(/^id\s+received\s+status\s+attempts$/);
    expect(lines[2]).toMatch(new RegExp(`^${lost.id}\\s+${lost.receivedAt}\\s+received\\s+1$`));
    expect(lines[3]).toMatch(new RegExp(`^${lostToo.id}\\s+\\S+\\s+delivered\\s+1$`));
    expect(lines.at(-1)).toBe(`Nothing changed yet. With --apply, they go back into ${aws.tableName}.`);
    // What it prints is for deciding, not a copy of anyone's data.
    expect(stdout).not.toContain('voorbeeld');
    expect(stdout).not.toContain('Vertrouwelijk');
    expect((await aws.items()).length).toBe(before.length);
  });

  it('with --apply puts back every lost message whole, with its idempotency record, and leaves newer states, counters and expired items alone', async () => {
    const { lost, record, lostToo, kept, keptNow, newer, expired } = await afterAMistake();
    const { code, stdout } = await restoreFrom('--apply');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `Put back 2 messages (and 1 idempotency record) into ${aws.tableName}; left 1 message already there as it was; skipped 1 expired item and 1 visitor counter.`,
    );
    expect(stdout).toContain(`1 of them is 'received': the retry job e-mails them within 10 minutes.`);
    expect(lines.at(-1)).toBe(
      `Next: run erase again for every erasure request answered since the moment restored to (docs/privacy-requests.md), then delete ${restored}.`,
    );

    expect(await aws.message(lost.id)).toEqual(lost);
    expect(await aws.message(lostToo.id)).toEqual(lostToo);
    expect(await aws.message(kept.id)).toEqual(keptNow);
    expect(await aws.message(newer.id)).toEqual(newer);
    expect(await aws.message(expired.id)).toBeUndefined();
    const items = await aws.items();
    expect(items).toContainEqual(record);
    expect(items.filter((item) => String(item.id).startsWith(VISITOR_COUNTER_PREFIX))).toEqual([]);
    // The put-back message is found by address again, so an access or erasure request covers it.
    const out = join(mkdtempSync(join(tmpdir(), 'inzage-')), 'inzage');
    expect((await runMessages(['export', lost.email, '--out', out], standInEnv(aws))).code).toBe(0);
    expect(JSON.parse(readFileSync(`${out}.json`, 'utf8')).messages.map((m: StoredMessage) => m.id)).toEqual([lost.id]);
  });

  it('puts nothing back twice: a second --apply finds every message there', async () => {
    await afterAMistake();
    await restoreFrom('--apply');
    const again = await restoreFrom('--apply');
    expect(again.stdout.split('\n')[0]).toBe(
      `Put back 0 messages into ${aws.tableName}; left 3 messages already there as they were; skipped 1 expired item and 1 visitor counter.`,
    );
  });

  it('refuses the stage’s own table, names a restored table that is not there, and refuses what cannot be a table name', async () => {
    const own = await runMessages(['restore-from', aws.tableName, '--apply'], standInEnv(aws));
    expect(own.code).toBe(1);
    expect(own.stderr).toBe(`${aws.tableName} is the stage's own table; give the table the point-in-time restore created.\n`);

    const missing = await runMessages(['restore-from', 'no-such-restore'], standInEnv(aws));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `No table no-such-restore at ${aws.urls.dynamodb}: give the target table name of the restore (aws dynamodb list-tables lists them).\n`,
    );

    for (const [args, line] of [
      [['restore-from'], 'restore-from takes the name of the restored table.'],
      [['restore-from', 'a/b'], '"a/b" is not a DynamoDB table name: 3 to 255 letters, digits, _, - and . (the name the restore created).'],
      [['restore-from', restored, '--yes'], '--yes does not go with restore-from.'],
      [['erase', 'jan@voorbeeld.nl', '--apply'], '--apply does not go with erase.'],
    ] as const) {
      const refused = await runMessages([...args], standInEnv(aws));
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr.split('\n')[0]).toBe(line);
    }
  });

  it('never writes personal data to stderr', () => {
    expect(allStderr()).not.toBe('');
    for (const personal of ['voorbeeld', 'Jan de Vries', 'Vertrouwelijk']) expect(allStderr()).not.toContain(personal);
  });
});
