/**
 * The permissions the on-call guide gives for `npm run smoke`'s health lines (docs/on-call.md,
 * "Smoke checks", the block marked policy:smoke-health), decided by an IAM policy simulator:
 * finding the stage's table and querying its status index, the one index the health reads, and
 * nothing that writes, scans or reads another index, table or stage.
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

describe("the on-call guide's policy for the smoke check's health", () => {
  it('allows finding the stage’s table and querying the status index the health reads', async () => {
    expect(MESSAGE_TABLE.indexes).toHaveProperty('byStatus');
    expect(await decide('cloudformation:DescribeStacks', stack('consultancy-site-test'))).toBe('Allowed');
    expect(await decide('dynamodb:Query', `${table()}/index/byStatus`)).toBe('Allowed');
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
