/**
 * The operator's commands that write many items finish against a busy table, as they must in
 * AWS: DynamoDB throttles some writes and is slow to answer others, and each command still
 * changes every item it set out to change and exits 0. The functions' clients would not (two
 * attempts, 2 s a request: made for a visitor waiting); the operator's retry a throttled write,
 * slowing down as DynamoDB asks, and wait longer for a slow one (messages/target.ts).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { retentionDaysFrom } from '@site/core/node/deploy-config';
import { expiresAtFor, type StoredMessage } from '@site/core/table';
import { messageMaker } from '@site/testing/stored-messages';
import { runScript } from '@site/testing/run-script';
import { busyTable, type BusyTable } from './support/busy-table';
import { standInEnv } from './support/messages-cli';
import { useLocalTable } from './support/local-table';

const SCRIPT = fileURLToPath(new URL('../messages.ts', import.meta.url));
const DAYS = retentionDaysFrom(CDK_JSON_CONTEXT);
const HOUR = 3_600_000;
const MESSAGES = 30;

/**
 * Two writes in a row throttled, as DynamoDB throttles a burst, and two later ones each held
 * 2.5 s: longer than the functions' clients wait for an answer (AWS_CLIENT_OPTIONS in
 * lambda/src/shared/aws.ts). Either alone ends the command part-way with the functions' clients,
 * which try a write twice.
 */
const BUSY = {
  throttle: (write: number) => write >= 5 && write < 7,
  stall: (write: number) => write === 15 || write === 16,
  stallMs: 2_500,
};

// Side by side: each command has a table and a busy proxy of its own, and most of a test's time
// is the command backing off and waiting, as it should.
describe.concurrent.each([
  {
    command: 'retention --apply',
    args: ['retention', '--apply'],
    /** Stored when messages were kept twice as long. */
    messages: () => {
      const make = messageMaker({
        idPrefix: '01JTKEEP',
        from: new Date(Date.now() - MESSAGES * 24 * HOUR),
        stepMs: 24 * HOUR,
        retentionDays: 2 * DAYS,
      });
      return Array.from({ length: MESSAGES }, () => make({ status: 'emailed', attempts: 1 }));
    },
    changed: (before: StoredMessage, after: StoredMessage | undefined) => after?.expiresAt === expiresAtFor(before.receivedAt, DAYS),
  },
  {
    command: 'purge --confirm',
    args: ['purge', '--fingerprint', 'f00dfeed', '--confirm'],
    messages: () => {
      const make = messageMaker({ idPrefix: '01JTWAVE', from: new Date(Date.now() - HOUR), stepMs: 1_000 });
      return Array.from({ length: MESSAGES }, () =>
        make({
          status: 'held',
          heldFor: 'suspect',
          score: 8,
          signals: ['noStamp', 'repeatedText'],
          fingerprint: 'f00dfeed0123456789abcdef01234567',
        }),
      );
    },
    changed: (_: StoredMessage, after: StoredMessage | undefined) => after?.status === 'spam',
  },
  {
    command: 'erase --yes',
    args: ['erase', 'veel.berichten@voorbeeld.nl', '--yes'],
    messages: () => {
      const make = messageMaker({ idPrefix: '01JTGONE', from: new Date(Date.now() - HOUR), stepMs: 1_000 });
      return Array.from({ length: MESSAGES }, () => make({ email: 'veel.berichten@voorbeeld.nl' }));
    },
    changed: (_: StoredMessage, after: StoredMessage | undefined) => after === undefined,
  },
])('$command against a table that throttles and stalls writes', ({ args, messages, changed }) => {
  const local = useLocalTable();
  let busy: BusyTable;
  beforeEach(async () => {
    busy = await busyTable(local.aws.urls.dynamodb, BUSY);
  });
  afterEach(() => busy.close());

  it('retries until every message is changed, and exits 0', async () => {
    const stored = messages();
    for (const message of stored) await local.aws.put({ ...message });

    const env = { ...standInEnv(local.aws), AWS_ENDPOINT_URL_DYNAMODB: busy.url };
    const { code, stderr } = await runScript(SCRIPT, args, { env });

    expect(code, stderr).toBe(0);
    const { throttled, stalled } = busy.counts();
    expect(throttled).toBeGreaterThanOrEqual(2);
    expect(stalled).toBeGreaterThanOrEqual(1);
    const unchanged = [];
    for (const message of stored) if (!changed(message, await local.aws.message(message.id))) unchanged.push(message.id);
    expect(unchanged).toEqual([]);
  }, 180_000);
});
