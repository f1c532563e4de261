/**
 * The operator's side of the test stand-ins (@site/testing/local-aws): the message table as
 * the commands reach it, for the tests of one file or describe block. Read the fields inside
 * tests and hooks, never when the file is loaded.
 */
import { afterAll, beforeAll } from 'vitest';
import type { MessageTable } from '@site/lambda/store';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';

export interface LocalTable {
  aws: LocalAws & { table: MessageTable };
}

export function useLocalTable(): LocalTable {
  const stack = {} as LocalTable;
  beforeAll(async () => {
    const aws = await startLocalAws();
    stack.aws = Object.assign(aws, { table: { name: aws.tableName, client: aws.documents } });
  });
  afterAll(async () => {
    await stack.aws?.close();
  });
  return stack;
}
