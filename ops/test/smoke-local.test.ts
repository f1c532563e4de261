/**
 * `npm run smoke` against the local stack with the real build: every check passes, and the
 * run leaves nothing behind on a real stage but the count of the challenge it asked for, which
 * expires with its window (no message, no e-mail).
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHALLENGE_PREFIX } from '@site/lambda/challenge-limit';
import { runSmoke } from '@site/ops/smoke/run';
import { emulatorClientConfig } from '@site/emulators/connections';
import { fetchSentEmails } from '@site/emulators/servers';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '@site/local/stack';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns() });
});
afterAll(() => stack?.close());

it('passes every check against the local stack, the API refusing calls around the edge, and stores and e-mails nothing', async () => {
  const results = await runSmoke({ site: stack.urls.site, api: stack.urls.api });
  expect(results.filter((result) => result.problems.length > 0)).toEqual([]);
  expect(results.map((result) => result.name)).toContain('API around CloudFront');

  const dynamodb = new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb));
  const { Items = [] } = await dynamodb.send(new ScanCommand({ TableName: stack.tableName }));
  dynamodb.destroy();
  const now = Math.floor(Date.now() / 1000);
  for (const item of Items.map((raw) => unmarshall(raw))) {
    expect(item.id).toMatch(new RegExp(`^${CHALLENGE_PREFIX}`));
    expect(item.expiresAt).toBeGreaterThan(now);
    expect(item.expiresAt).toBeLessThanOrEqual(now + 24 * 3600);
  }
  expect(await fetchSentEmails(stack.urls.ses)).toEqual([]);
});
