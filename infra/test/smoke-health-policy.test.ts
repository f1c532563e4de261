/**
 * The permissions the on-call guide gives for `npm run smoke`'s health lines (docs/on-call.md,
 * "Smoke checks", the block marked policy:smoke-health), decided by an IAM policy simulator:
 * finding the stage's table and querying its status index, the one index the health reads; the
 * alarms' states, SES's account status and the stage's two schedules; and nothing that writes,
 * scans, sends, changes an alarm or a schedule, or reads another index, table or stage's rule.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { MESSAGE_TABLE } from '@site/core/table';

const GUIDE = readFileSync(new URL('../../docs/on-call.md', import.meta.url), 'utf8');
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const TABLE = 'consultancy-site-test-MessagesEXAMPLE';

/** The guide's policy with the values an operator puts in for the test stage. */
function documentedPolicy(): object {
  const marker = GUIDE.indexOf('<!-- policy:smoke-health -->');
  expect(marker).toBeGreaterThan(-1);
  const block = /```json\n([\s\S]*?)\n```/.exec(GUIDE.slice(marker))![1]!;
  const filled = block
    .replaceAll('<region>', REGION)
    .replaceAll('<account>', ACCOUNT)
    .replaceAll('<stage>', 'test')
    .replaceAll('<TableName>', TABLE);
  expect(filled).not.toMatch(/<\w+>/);
  return JSON.parse(filled) as object;
}

async function decide(action: string, resource: string) {
  const response = await runSimulation(
    {
      identityPolicies: [{ name: 'smoke-health', policy: documentedPolicy() as never }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action,
        principal: `arn:aws:iam::${ACCOUNT}:user/on-call`,
        resource: { resource, accountId: ACCOUNT },
        contextVariables: {},
      },
    },
    {},
  );
  if (response.resultType === 'error') throw new Error(`${action}: ${response.errors.message}`);
  return response.overallResult;
}

const table = (name = TABLE) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;
const stack = (name: string) => `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${name}/0f1e2d3c-aaaa-bbbb-cccc-123456789012`;
const alarm = (region: string, name: string) => `arn:aws:cloudwatch:${region}:${ACCOUNT}:alarm:${name}`;
const rule = (name: string) => `arn:aws:events:${REGION}:${ACCOUNT}:rule/${name}`;

describe("the on-call guide's policy for the smoke check's health", () => {
  it('allows finding the stage’s table and querying the status index the health reads', async () => {
    expect(MESSAGE_TABLE.indexes).toHaveProperty('byStatus');
    expect(await decide('cloudformation:DescribeStacks', stack('consultancy-site-test'))).toBe('Allowed');
    expect(await decide('dynamodb:Query', `${table()}/index/byStatus`)).toBe('Allowed');
  });

  it('allows reading the alarms’ states in the stage’s region and us-east-1, SES’s account status, and the stage’s two schedules', async () => {
    for (const region of [REGION, 'us-east-1']) {
      expect(await decide('cloudwatch:DescribeAlarms', alarm(region, 'consultancy-site-test-OutsideCheckFailed'))).toBe('Allowed');
    }
    expect(await decide('ses:GetAccount', '*')).toBe('Allowed');
    for (const name of ['consultancy-site-test-retry-undelivered', 'consultancy-site-test-outside-check']) {
      expect(await decide('events:DescribeRule', rule(name))).toBe('Allowed');
    }
  });

  it('allows no change to an alarm, a schedule or SES, no send, and no other stage’s schedule', async () => {
    for (const [action, resource] of [
      ['cloudwatch:SetAlarmState', alarm(REGION, 'consultancy-site-test-OutsideCheckFailed')],
      ['cloudwatch:DisableAlarmActions', alarm(REGION, 'consultancy-site-test-OutsideCheckFailed')],
      ['cloudwatch:DeleteAlarms', alarm(REGION, 'consultancy-site-test-OutsideCheckFailed')],
      ['cloudwatch:PutMetricAlarm', alarm(REGION, 'consultancy-site-test-OutsideCheckFailed')],
      ['events:DisableRule', rule('consultancy-site-test-retry-undelivered')],
      ['events:PutRule', rule('consultancy-site-test-retry-undelivered')],
      ['events:DescribeRule', rule('consultancy-site-prod-retry-undelivered')],
      ['ses:PutAccountSendingAttributes', '*'],
      ['ses:SendEmail', `arn:aws:ses:${REGION}:${ACCOUNT}:identity/firma.nl`],
    ] as const) {
      expect(await decide(action, resource), `${action} on ${resource}`).toBe('ImplicitlyDenied');
    }
  });

  it('allows nothing that writes, scans, or reads the table itself, another index, another table or another stage', async () => {
    for (const [action, resource] of [
      ['dynamodb:Query', table()],
      ['dynamodb:Query', `${table()}/index/byEmail`],
      ['dynamodb:Query', `${table('consultancy-site-prod-MessagesEXAMPLE')}/index/byStatus`],
      ['dynamodb:Scan', table()],
      ['dynamodb:Scan', `${table()}/index/byStatus`],
      ['dynamodb:GetItem', table()],
      ['dynamodb:PutItem', table()],
      ['dynamodb:UpdateItem', table()],
      ['dynamodb:DeleteItem', table()],
      ['cloudformation:DescribeStacks', stack('consultancy-site-prod')],
      ['cloudformation:UpdateStack', stack('consultancy-site-test')],
    ] as const) {
      expect(await decide(action, resource), `${action} on ${resource}`).toBe('ImplicitlyDenied');
    }
  });
});
