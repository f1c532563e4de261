/**
 * The stage's health in `npm run smoke`: against the local stack as `npm start` runs it (SES's
 * delivery events on), the last delivery event, the oldest undelivered message and the retry
 * backlog, each read from the table; the line marked when it is past what its alarm allows;
 * and, where the credentials do not allow it, one line that says why and what would, the
 * smoke check's exit code unchanged.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH } from '@site/core/contract';
import { emailKey, type StoredMessage } from '@site/core/table';
import { createDocumentClient } from '@site/lambda/aws';
import { emulatorClientConfig } from '@site/emulators/connections';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '@site/local/stack';
import { runScript } from '@site/testing/run-script';
import { runStandIns } from '@site/testing/stand-ins';
import { age, healthReport, type Health } from '@site/ops/smoke/health';
import { healthSource, HEALTH_PERMISSIONS } from '@site/ops/smoke/stage-health';

const SCRIPT = fileURLToPath(new URL('../smoke.ts', import.meta.url));
const NOW = new Date('2026-11-27T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
const LIMITS = { waitingMinutes: 30, deliveryAlarmHours: 3 };

describe('the health lines', () => {
  const report = (health: Health) =>
    healthReport(health, NOW, LIMITS).map((line) => `${line.look ? 'LOOK' : 'ok'} ${line.name}: ${line.text}`);

  it('say when the last event came and what it was, the oldest undelivered message, and the backlog', () => {
    expect(
      report({
        lastDeliveryEvent: { id: 'M2', status: 'delivered', receivedAt: ago(70), at: ago(65), outcome: 'delivered' },
        oldestUndelivered: { id: 'M1', status: 'received', receivedAt: ago(12) },
        retryBacklog: 1,
      }),
    ).toEqual([
      'ok last delivery event: 1 h 5 min ago: delivered, message M2',
      'ok oldest undelivered: 12 min old: message M1, stored, waiting for its e-mail',
      'ok retry backlog: 1 message waiting for the retry job to e-mail it',
    ]);
  });

  it('mark a message waiting past MessagesUndelivered’s half hour, or e-mailed past deliveryAlarmHours without an outcome', () => {
    expect(report({ oldestUndelivered: { id: 'M1', status: 'received', receivedAt: ago(30) }, retryBacklog: 3 })).toEqual([
      'ok last delivery event: none recorded on any message (a new stage, or SES’s events never arrived)',
      'LOOK oldest undelivered: 30 min old: message M1, stored, waiting for its e-mail (MessagesUndelivered fires after 30 min)',
      'ok retry backlog: 3 messages waiting for the retry job to e-mail them',
    ]);
    expect(report({ oldestUndelivered: { id: 'M1', status: 'emailed', receivedAt: ago(179) }, retryBacklog: 0 })[1]).toBe(
      'ok oldest undelivered: 2 h 59 min old: message M1, emailed, no delivery reported yet',
    );
    expect(report({ oldestUndelivered: { id: 'M1', status: 'delayed', receivedAt: ago(3 * 24 * 60 + 90) }, retryBacklog: 0 })[1]).toBe(
      'LOOK oldest undelivered: 3 d 1 h old: message M1, delayed, no delivery reported yet (MessagesNotDelivered fires after 3 h)',
    );
    expect(report({ retryBacklog: 0 })[1]).toBe('ok oldest undelivered: none: every message is delivered (or bounced, …)');
  });

  it('count ages down to the minute, never below zero', () => {
    expect([age(ago(0), NOW), age(ago(59), NOW), age(ago(60), NOW), age(ago(-5), NOW)]).toEqual(['0 min', '59 min', '1 h 0 min', '0 min']);
  });
});

describe('where the health is read from', () => {
  it('the local stack for a site on this machine without AWS settings, the stage in AWS with them or with --stage', () => {
    expect(healthSource({}, 'http://127.0.0.1:8080', undefined)).toEqual({ from: 'local' });
    expect(healthSource({}, 'http://localhost:8080/', undefined)).toEqual({ from: 'local' });
    expect(healthSource({ AWS_PROFILE: 'ops' }, 'https://www.example.nl', undefined)).toEqual({ from: 'aws' });
    expect(healthSource({}, 'https://www.example.nl', 'prod')).toEqual({ from: 'aws' });
  });

  it('nowhere for a deployed site without AWS settings, with one sentence that says what would allow it', () => {
    const source = healthSource({}, 'https://www.example.nl', undefined);
    expect(source).toEqual({ skip: expect.stringMatching(/^no AWS settings in this shell\. With AWS_PROFILE and AWS_REGION set/) });
    expect('skip' in source && source.skip).toContain(HEALTH_PERMISSIONS);
  });
});

describe('npm run smoke against the local stack', () => {
  let stack: LocalStack;
  let refusingDynamoDb: Server;

  beforeAll(async () => {
    stack = await startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns(), deliveryEvents: true });
    // A DynamoDB that refuses every request, as AWS answers credentials without the permission.
    refusingDynamoDb = createServer((_, response) => {
      response.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#AccessDeniedException', message: 'not authorized' }));
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => refusingDynamoDb.once('listening', resolve));
  });
  afterAll(async () => {
    await stack?.close();
    refusingDynamoDb?.close();
  });

  const run = (env: Record<string, string>) => {
    const base = { PATH: process.env.PATH!, HOME: mkdtempSync(join(tmpdir(), 'smoke-home-')) };
    return runScript(SCRIPT, [stack.urls.site], { env: { ...base, ...env }, timeoutMs: 60_000 });
  };
  // The stack's own table, named as an operator names a table outright, read with the on-call
  // guide's policy for the health (signed as it: the stack's IAM gate enforces that policy).
  const documentedPolicyEnv = () => ({
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'smoke-health',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: stack.urls.dynamodb,
    TABLE_NAME: stack.tableName,
  });

  it('reads the last delivery event, the oldest undelivered message and the retry backlog from the table, after the checks', async () => {
    const sent = await fetch(`${stack.urls.site}${API_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Graag een offerte.' }),
    });
    const { id: delivered } = (await sent.json()) as { id: string };
    // SES's simulator answers after 300 ms; the consumer records the delivery.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const documents = createDocumentClient(emulatorClientConfig(stack.urls.dynamodb));
    const waiting = (minutes: number): StoredMessage => {
      const receivedAt = new Date(Date.now() - minutes * 60_000).toISOString();
      return {
        name: 'Piet',
        email: 'piet@voorbeeld.nl',
        message: 'Hallo',
        emailKey: emailKey('piet@voorbeeld.nl'),
        id: `01JD${randomUUID().replace(/-/g, '').slice(0, 22).toUpperCase()}`,
        receivedAt,
        status: 'received',
        attempts: 1,
        expiresAt: Math.floor(Date.now() / 1000) + 86_400,
      };
    };
    const oldest = waiting(45);
    for (const message of [oldest, waiting(5)]) await documents.send(new PutCommand({ TableName: stack.tableName, Item: message }));
    documents.destroy();

    const { code, stdout } = await run(documentedPolicyEnv());
    expect(code).toBe(0);
    const section = stdout.slice(stdout.indexOf('All '));
    expect(section).toMatch(/^All \d+ checks passed\.\n\nHealth, from table /);
    expect(section).toContain(`Health, from table ${stack.tableName} at ${stack.urls.dynamodb}:\n`);
    expect(section).toMatch(new RegExp(`\\n {8}last delivery event {2}0 min ago: delivered, message ${delivered}\\n`));
    expect(section).toContain(
      `\n  LOOK  oldest undelivered   45 min old: message ${oldest.id}, stored, waiting for its e-mail (MessagesUndelivered fires after 30 min)\n`,
    );
    expect(section).toContain('\n        retry backlog        2 messages waiting for the retry job to e-mail them\n');
  });

  it('says in one line that the credentials were refused and which permission the health needs, and still passes', async () => {
    const aws = {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'example',
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${(refusingDynamoDb.address() as AddressInfo).port}`,
      TABLE_NAME: 'consultancy-site-test-Messages',
    };
    const { code, stdout } = await run(aws);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toBe(
      `Health not read: DynamoDB at ${aws.AWS_ENDPOINT_URL_DYNAMODB} refused the credentials (AccessDeniedException). ` +
        `Check AWS_PROFILE or the AWS_ACCESS_KEY_ID in use, and its permissions. The health lines need ${HEALTH_PERMISSIONS}.`,
    );
  });

  it('says in one line that there are no credentials', async () => {
    const { code, stdout } = await run({
      AWS_REGION: 'eu-west-1',
      AWS_EC2_METADATA_DISABLED: 'true',
      TABLE_NAME: 'consultancy-site-test-Messages',
      DYNAMODB_PORT: '1',
    });
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toBe(
      'Health not read: No AWS credentials found. Set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
    );
  });
});
