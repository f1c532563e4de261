/**
 * `npm run smoke` against the local stack with the real build: every check passes, and the
 * run leaves nothing behind (no item in the table, no e-mail), as it must on a real stage.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
  const { Count } = await dynamodb.send(new ScanCommand({ TableName: stack.tableName, Select: 'COUNT' }));
  dynamodb.destroy();
  expect(Count).toBe(0);
  expect(await fetchSentEmails(stack.urls.ses)).toEqual([]);
});
