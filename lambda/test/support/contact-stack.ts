/**
 * The function's side of the test stand-ins (@site/testing/local-aws): its configuration read
 * from the environment Lambda would give it there, clients built with its own options, and a
 * contact handler built on them, for the tests of one file or describe block, started before
 * its tests and closed after, with the function's log lines captured throughout. The fields
 * are filled in by beforeAll, so read them inside tests and hooks, never when the file is loaded.
 */
import { afterAll, beforeAll } from 'vitest';
import type { FunctionName } from '@site/core/names';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';
import { createAwsClients, type AwsClients } from '../../src/shared/aws';
import { readContactConfig, readRetryConfig, type ContactConfig, type RetryConfig } from '../../src/config';
import type { ContactHandler } from '../../src/contact/contact-answer';
import { createContactHandler } from '../../src/contact/contact-handler';
import type { MessageTable } from '../../src/store/store';

/** The stand-ins as the function reaches them. */
export interface FunctionAws extends LocalAws {
  /** What the contact function and the retry job read from the stand-ins' environment. */
  config: ContactConfig & RetryConfig;
  /** The contact function's clients: pointed at the stand-ins, with the functions' own options, signed with its role. */
  clients: AwsClients;
  /** Another function's clients, signed with its own role: a retry job built with the contact function's would be refused. */
  clientsOf(fn: FunctionName): AwsClients;
  /** The table, as the store's functions take it, through the contact function's client. */
  table: MessageTable;
}

export async function startFunctionAws(options: Parameters<typeof startLocalAws>[0] = {}): Promise<FunctionAws> {
  const aws = await startLocalAws(options);
  const clientsOf = (fn: FunctionName) => createAwsClients(aws.connectionsFor(fn));
  const clients = clientsOf('send-contact-email');
  return Object.assign(aws, {
    config: { ...readContactConfig(aws.lambdaEnv), ...readRetryConfig(aws.lambdaEnv) },
    clients,
    clientsOf,
    table: { name: aws.tableName, client: clients.documents },
  });
}

export interface LocalAwsStack {
  aws: FunctionAws;
  logs: CapturedLogs;
}

export interface ContactStack extends LocalAwsStack {
  handler: ContactHandler;
}

/** The stand-ins alone, for tests that call the function's modules rather than a handler. */
export function useLocalAws(): LocalAwsStack {
  const stack = {} as LocalAwsStack;
  beforeAll(async () => {
    stack.logs = captureLogs();
    stack.aws = await startFunctionAws();
  });
  afterAll(async () => {
    await stack.aws?.close();
    stack.logs?.restore();
  });
  return stack;
}

/** `configure` turns the stand-ins' configuration into the one under test (default: as it is). */
export function useContactStack(configure: (aws: FunctionAws) => ContactConfig = (aws) => aws.config): ContactStack {
  const stack = useLocalAws() as ContactStack;
  beforeAll(() => {
    stack.handler = createContactHandler({ config: configure(stack.aws), clients: stack.aws.clients });
  });
  return stack;
}
