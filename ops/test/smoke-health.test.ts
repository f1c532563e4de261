/**
 * The stage's health in `npm run smoke`: against the local stack as `npm start` runs it (SES's
 * delivery events on, the outside check on its schedule), the stage's alarms, SES's account and
 * the schedules, then the last delivery event, the oldest message waiting for its e-mail, the
 * oldest without a delivery event and the retry backlog from the table, all read with the
 * on-call guide's policy (the stack's IAM gates enforce it); a line marked when it is past what
 * its alarm or AWS allows; and, where the credentials do not allow it, one line that says why
 * and what would, the smoke check's exit code unchanged.
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
import { age, healthReport, type AccountHealth, type Health } from '@site/ops/smoke/health';
import { healthSource, HEALTH_PERMISSIONS } from '@site/ops/smoke/stage-health';

const SCRIPT = fileURLToPath(new URL('../smoke.ts', import.meta.url));
const NOW = new Date('2026-11-27T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
const LIMITS = { waitingMinutes: 30, deliveryAlarmHours: 3 };

describe('the health lines', () => {
  const report = (health: Health, account?: AccountHealth) =>
    healthReport(health, NOW, LIMITS, account && { stage: 'test', health: account }).map(
      (line) => `${line.look ? 'LOOK' : 'ok'} ${line.name}: ${line.text}`,
    );
  const HEALTHY: AccountHealth = {
    alarms: {
      alarms: [
        { name: 'OutsideCheckFailed', state: 'OK', since: ago(600) },
        { name: 'Api5xx', state: 'OK', since: ago(600) },
      ],
    },
    ses: { sendingEnabled: true, productionAccess: true, enforcement: 'HEALTHY', sent: 12, quota: 50_000 },
    schedules: {
      rules: [
        { job: 'retry job', rule: 'consultancy-site-test-retry-undelivered', state: 'ENABLED' },
        { job: 'outside check', rule: 'consultancy-site-test-outside-check', state: 'ENABLED' },
      ],
    },
  };

  it('say when the last event came and what it was, the oldest waiting and undelivered messages, and the backlog', () => {
    expect(
      report({
        lastDeliveryEvent: { id: 'M2', status: 'delivered', receivedAt: ago(70), at: ago(65), outcome: 'delivered' },
        oldestWaiting: { id: 'M1', status: 'received', receivedAt: ago(12) },
        oldestUndelivered: { id: 'M3', status: 'emailed', receivedAt: ago(20) },
        retryBacklog: 1,
      }),
    ).toEqual([
      'ok last delivery event: 1 h 5 min ago: delivered, message M2',
      'ok oldest waiting: 12 min old: message M1, stored, waiting for its e-mail',
      'ok oldest undelivered: 20 min old: message M3, emailed, no delivery reported yet',
      'ok retry backlog: 1 message waiting for the retry job to e-mail it',
    ]);
  });

  it('mark a message waiting past MessagesUndelivered’s half hour, or e-mailed past deliveryAlarmHours without an outcome', () => {
    expect(report({ oldestWaiting: { id: 'M1', status: 'received', receivedAt: ago(30) }, retryBacklog: 3 })).toEqual([
      'ok last delivery event: none recorded on any message (a new stage, or SES’s events never arrived)',
      'LOOK oldest waiting: 30 min old: message M1, stored, waiting for its e-mail (MessagesUndelivered fires after 30 min)',
      'ok oldest undelivered: none: SES has reported on every e-mail (delivered, bounced, …)',
      'ok retry backlog: 3 messages waiting for the retry job to e-mail them',
    ]);
    expect(report({ oldestUndelivered: { id: 'M1', status: 'emailed', receivedAt: ago(179) }, retryBacklog: 0 })[2]).toBe(
      'ok oldest undelivered: 2 h 59 min old: message M1, emailed, no delivery reported yet',
    );
    expect(report({ oldestUndelivered: { id: 'M1', status: 'delayed', receivedAt: ago(3 * 24 * 60 + 90) }, retryBacklog: 0 })[2]).toBe(
      'LOOK oldest undelivered: 3 d 1 h old: message M1, delayed, no delivery reported yet (MessagesNotDelivered fires after 3 h)',
    );
    expect(report({ retryBacklog: 0 })[1]).toBe('ok oldest waiting: none: every stored message has been e-mailed');
  });

  it('never hide a stuck message waiting for its e-mail behind an older one SES took', () => {
    const lines = report({
      oldestWaiting: { id: 'STUCK', status: 'received', receivedAt: ago(45) },
      oldestUndelivered: { id: 'OLDER', status: 'emailed', receivedAt: ago(120) },
      retryBacklog: 1,
    });
    expect(lines[1]).toBe(
      'LOOK oldest waiting: 45 min old: message STUCK, stored, waiting for its e-mail (MessagesUndelivered fires after 30 min)',
    );
    expect(lines[2]).toBe('ok oldest undelivered: 2 h 0 min old: message OLDER, emailed, no delivery reported yet');
  });

  it('say the stage’s alarms, SES’s account and the schedules first, when all is well', () => {
    expect(report({ retryBacklog: 0 }, HEALTHY).slice(0, 3)).toEqual([
      'ok alarms: none in ALARM: 2 OK',
      'ok SES account: sending, production access, 12 of 50000 e-mails sent in the last 24 h',
      'ok schedules: retry job and outside check enabled',
    ]);
  });

  it('mark alarms in ALARM (the latest first, each with how long), SES paused, under review or near its quota, and a schedule off or gone', () => {
    const broken: AccountHealth = {
      alarms: {
        alarms: [
          { name: 'OutsideCheckFailed', state: 'ALARM', since: ago(14) },
          { name: 'ContactPathDown', state: 'ALARM', since: ago(12) },
          { name: 'Api5xx', state: 'OK', since: ago(600) },
          { name: 'CertificateExpiry', state: 'INSUFFICIENT_DATA', since: ago(600) },
        ],
      },
      ses: { sendingEnabled: false, productionAccess: true, enforcement: 'SHUTDOWN', sent: 3, quota: 50_000 },
      schedules: {
        rules: [
          { job: 'retry job', rule: 'consultancy-site-test-retry-undelivered', state: 'DISABLED' },
          { job: 'outside check', rule: 'consultancy-site-test-outside-check', state: 'missing' },
        ],
      },
    };
    expect(report({ retryBacklog: 0 }, broken).slice(0, 3)).toEqual([
      'LOOK alarms: 2 in ALARM: ContactPathDown (12 min), OutsideCheckFailed (14 min); 1 OK, 1 without data yet',
      'LOOK SES account: sending PAUSED (enforcement SHUTDOWN): nothing goes out, on-call guide "SES paused"; 3 of 50000 e-mails sent in the last 24 h',
      'LOOK schedules: retry job DISABLED (consultancy-site-test-retry-undelivered); outside check has no rule (consultancy-site-test-outside-check): enable it in EventBridge, or deploy the release again',
    ]);
    const sandbox = { ses: { sendingEnabled: true, productionAccess: false, enforcement: 'PROBATION', sent: 170, quota: 200 } };
    expect(report({ retryBacklog: 0 }, { ...HEALTHY, ...sandbox })[1]).toBe(
      'LOOK SES account: sending, in the sandbox (only verified recipients), 170 of 200 e-mails sent in the last 24 h; enforcement PROBATION: AWS is reviewing the account; near its quota',
    );
    expect(report({ retryBacklog: 0 }, { ...HEALTHY, alarms: { alarms: [] } })[0]).toBe(
      'LOOK alarms: none named consultancy-site-test-… here or in us-east-1: is the stage deployed in this region?',
    );
  });

  it('say on its own line why a read was not allowed, and show the others', () => {
    const refused: AccountHealth = { ...HEALTHY, alarms: { notRead: 'CloudWatch in eu-west-1 refused the credentials (AccessDenied).' } };
    expect(report({ retryBacklog: 0 }, refused).slice(0, 2)).toEqual([
      'ok alarms: not read: CloudWatch in eu-west-1 refused the credentials (AccessDenied).',
      'ok SES account: sending, production access, 12 of 50000 e-mails sent in the last 24 h',
    ]);
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
    // Both schedules on, as npm start has them, but too far apart to run during the test: the
    // check is run once by hand, and no retry run e-mails the messages the test leaves waiting.
    stack = await startLocalStack({
      ...EPHEMERAL_STACK,
      ...runStandIns(),
      deliveryEvents: true,
      retryIntervalMs: 3_600_000,
      outsideCheckIntervalMs: 3_600_000,
    });
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

  const run = (env: Record<string, string>, args: string[] = []) => {
    const base = { PATH: process.env.PATH!, HOME: mkdtempSync(join(tmpdir(), 'smoke-home-')) };
    return runScript(SCRIPT, [stack.urls.site, ...args], { env: { ...base, ...env } });
  };
  // The stack's own table, named as an operator names a table outright, its alarm, schedules and
  // SES, read with the on-call guide's policy for the health (signed as it: the stack's IAM gates
  // enforce that policy), as on a stage named `local`.
  const documentedPolicyEnv = () => ({
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'smoke-health',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: stack.urls.dynamodb,
    AWS_ENDPOINT_URL_CLOUDWATCH: stack.urls.monitoring,
    AWS_ENDPOINT_URL_EVENTBRIDGE: stack.urls.monitoring,
    AWS_ENDPOINT_URL_SESV2: stack.urls.ses,
    TABLE_NAME: stack.tableName,
  });

  it('reads the alarms, SES’s account and the schedules, then the last delivery event, the oldest waiting and undelivered messages and the backlog, after the checks', async () => {
    const sent = await fetch(`${stack.urls.site}${API_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Graag een offerte.' }),
    });
    const { id: delivered } = (await sent.json()) as { id: string };
    expect((await stack.outsideCheck.run()).passed).toBe(true);
    // SES's simulator answers after 300 ms; the consumer records the delivery.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const documents = createDocumentClient(emulatorClientConfig(stack.urls.dynamodb));
    const stored = (minutes: number, more: Partial<StoredMessage> = {}): StoredMessage => {
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
        ...more,
      };
    };
    const stuck = stored(45);
    // E-mailed five hours ago through the stage's set, and a year ago, before delivery events existed (no set).
    const undelivered = stored(300, { status: 'emailed', configurationSet: 'consultancy-site-local' });
    const beforeEvents = stored(365 * 24 * 60, { status: 'emailed' });
    for (const message of [stuck, stored(5), undelivered, beforeEvents]) {
      await documents.send(new PutCommand({ TableName: stack.tableName, Item: message }));
    }
    documents.destroy();

    const { code, stdout } = await run(documentedPolicyEnv(), ['--stage', 'local']);
    expect(code).toBe(0);
    const section = stdout.slice(stdout.indexOf('All '));
    expect(section).toMatch(/^All \d+ checks passed\.\n\nHealth, from table /);
    expect(section).toContain(`Health, from table ${stack.tableName} at ${stack.urls.dynamodb}:\n`);
    expect(section).toContain('\n        alarms               none in ALARM: 1 OK\n');
    expect(section).toMatch(
      /\n {8}SES account {10}sending, in the sandbox \(only verified recipients\), \d+ of 200 e-mails sent in the last 24 h\n/,
    );
    expect(section).toContain('\n        schedules            retry job and outside check enabled\n');
    expect(section).toMatch(new RegExp(`\\n {8}last delivery event {2}0 min ago: delivered, message (${delivered}|check#\\w+)\\n`));
    expect(section).toContain(
      `\n  LOOK  oldest waiting       45 min old: message ${stuck.id}, stored, waiting for its e-mail (MessagesUndelivered fires after 30 min)\n`,
    );
    expect(section).toContain(
      `\n  LOOK  oldest undelivered   5 h 0 min old: message ${undelivered.id}, emailed, no delivery reported yet (MessagesNotDelivered fires after 3 h)\n`,
    );
    expect(section).not.toContain(beforeEvents.id);
    expect(section).toContain('\n        retry backlog        2 messages waiting for the retry job to e-mail them\n');
  });

  it('marks the outside check’s alarm once the check fails', async () => {
    stack.sendOriginSecret('a-secret-the-function-does-not-hold-0123456789abcdef');
    try {
      expect((await stack.outsideCheck.run()).passed).toBe(false);
    } finally {
      stack.sendOriginSecret(undefined);
    }
    const { stdout } = await run(documentedPolicyEnv(), ['--stage', 'local']);
    expect(stdout).toMatch(/\n {2}LOOK {2}alarms {15}1 in ALARM: OutsideCheckFailed \(0 min\); 0 OK\n/);
    expect((await stack.outsideCheck.run()).passed).toBe(true);
  });

  it('says in one line that the credentials were refused and which permission the health needs, and still passes', async () => {
    const refusing = `http://127.0.0.1:${(refusingDynamoDb.address() as AddressInfo).port}`;
    const aws = {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'example',
      // Every service here, so nothing reaches out to AWS itself.
      AWS_ENDPOINT_URL: refusing,
      AWS_ENDPOINT_URL_DYNAMODB: refusing,
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
