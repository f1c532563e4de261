/**
 * The run's global setup (root vitest.config.ts): DynamoDB's and SES's stand-ins, started once
 * and shared by every test file of every project (each file makes a table and an outbox of its
 * own, @site/testing/local-aws); the functions' roles as the CDK app synthesizes them, with the
 * operators' policies the guides document, which the IAM gates in front of the stand-ins
 * enforce; and the directory where the gates write down every call, which the check of unused
 * grants reads after every other test (test/grants). Handed to the files with `provide`. The
 * run's temporary files go in a directory of its own, removed at its end (scratch-tmpdir.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDb, startSesEmulator } from '@site/emulators/servers';
import { cachedDeployedRoles } from '@site/infra/roles-cache';
import '@site/testing/provided';
import { NAME_PLACEHOLDERS } from '@site/core/node/deployed-roles';
import { documentedPolicies } from '@site/testing/documented-policies';
import { LOCAL_STAGE } from '@site/local/defaults';
import { useScratchTmpdir } from './scratch-tmpdir';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeScratch = useScratchTmpdir('vitest');
  const roles = await cachedDeployedRoles();
  // The operators' policies for the local stack's stage, its table a placeholder as in the roles.
  const operators = documentedPolicies({
    region: roles.region,
    account: roles.account,
    stage: LOCAL_STAGE,
    TableName: NAME_PLACEHOLDERS.table,
  });
  const [dynamodb, ses] = await Promise.all([startDynamoDb({ port: 0 }), startSesEmulator({ port: 0 })]);
  const callLogDir = mkdtempSync(join(tmpdir(), 'iam-calls-'));
  project.provide('standIns', { dynamodb: dynamodb.url, ses: ses.url });
  project.provide('deployedRoles', { ...roles, principals: { ...roles.principals, ...operators } });
  project.provide('iamCallLog', callLogDir);
  return async () => {
    await Promise.all([dynamodb.close(), ses.close()]);
    rmSync(callLogDir, { recursive: true, force: true });
    removeScratch();
  };
}
