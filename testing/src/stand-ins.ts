/**
 * DynamoDB's and SES's stand-ins, started once per test run and shared by every test file of
 * every project: a Vitest globalSetup (`globalSetup: ['@site/testing/stand-ins']`, or the path
 * of this file) provides their addresses, and each file reaches them through local-aws.ts with
 * a table, an outbox and fault switches of its own. Starting them per file cost a second
 * of each lambda test file's time and most of the unit tier's emulator traffic.
 */
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { EmulatorUrls } from '@site/emulators/connections';
import { startDynamoDb, startSesEmulator, type RunningServer } from '@site/emulators/servers';
import { STAND_INS } from './provided';

interface Shared {
  projects: number;
  started: Promise<{ urls: EmulatorUrls; servers: RunningServer[] }>;
}

/** Every project's global setup runs in Vitest's main process: one pair for all of them. */
const SHARED = Symbol.for('@site/testing/stand-ins');
const registry = globalThis as { [SHARED]?: Shared };

async function start(): Promise<{ urls: EmulatorUrls; servers: RunningServer[] }> {
  const [dynamodb, ses] = await Promise.all([startDynamoDb({ port: 0 }), startSesEmulator({ port: 0 })]);
  return { urls: { dynamodb: dynamodb.url, ses: ses.url }, servers: [dynamodb, ses] };
}

/** The run's stand-ins, for a file whose project's global setup started them. */
export function runStandIns(): EmulatorUrls {
  const urls = inject(STAND_INS) as EmulatorUrls | undefined;
  if (!urls) throw new Error("No stand-ins for this run: add globalSetup: ['@site/testing/stand-ins'] to the project's Vitest config.");
  return urls;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry[SHARED] ??= { projects: 0, started: start() });
  shared.projects += 1;
  const { urls, servers } = await shared.started;
  project.provide(STAND_INS, urls);
  return async () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    delete registry[SHARED];
    await Promise.all(servers.map((server) => server.close()));
  };
}
