/** `npm run messages` against the DynamoDB stand-in, run as the operator runs it. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredMessage } from '../src/table';
import { startLocalAws, type LocalAws } from './support/local-aws';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../scripts/messages.ts', import.meta.url));

let aws: LocalAws;

beforeAll(async () => {
  aws = await startLocalAws();
});

afterAll(() => aws?.close());

async function runMessages(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [SCRIPT, ...args], { env: { ...process.env, ...env }, timeout: 15_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

function message(id: string, minutesAgo: number, fields: Partial<StoredMessage>): StoredMessage {
  return {
    id,
    receivedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    name: 'Jan',
    email: `${id.toLowerCase()}@voorbeeld.nl`,
    message: 'Vertrouwelijk',
    status: 'emailed',
    attempts: 1,
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ...fields,
  };
}

it('lists the latest messages of every status, newest first, with their delivery state', async () => {
  await aws.put({ ...message('OLDEST', 30, {}) });
  await aws.put({ ...message('WAITING', 20, { status: 'received', attempts: 2, lastError: 'Throttling' }) });
  await aws.put({ ...message('GIVENUP', 10, { status: 'failed', attempts: 8, lastError: 'MessageRejected' }) });
  await aws.put({ id: 'idempotency#1b4e28ba-2fa1-11d2-883f-0016d3cca427', messageId: 'OLDEST', bodyHash: 'x', expiresAt: 1 });

  const { code, stdout } = await runMessages(['2'], {
    TABLE_NAME: aws.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
  });
  expect(code).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^id\s+received\s+status\s+attempts\s+from\s+last error$/);
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(/^GIVENUP\s+\S+Z\s+failed\s+8\s+givenup@voorbeeld\.nl\s+MessageRejected$/);
  expect(lines[2]).toMatch(/^WAITING\s+\S+Z\s+received\s+2\s+waiting@voorbeeld\.nl\s+Throttling$/);
  expect(stdout).not.toContain('Vertrouwelijk');
});

it('says where it looked when DynamoDB cannot be reached', async () => {
  const { code, stdout, stderr } = await runMessages([], { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9' });
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('DynamoDB is not reachable at http://127.0.0.1:9.');
  expect(stderr).not.toMatch(/\n\s+at /);
});

it('says which table is missing', async () => {
  const { code, stderr } = await runMessages([], {
    TABLE_NAME: 'no-such-table',
    AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
  });
  expect(code).toBe(1);
  expect(stderr).toContain('Table no-such-table does not exist');
});
