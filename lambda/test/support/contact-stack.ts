/**
 * The local stand-ins (dynalite, aws-ses-v2-local), alone or with a contact handler built on
 * them, for the tests of one file or describe block: started before its tests and closed
 * after, with the function's log lines captured throughout. The fields are filled in by beforeAll, so read
 * them inside tests and hooks, never when the file is loaded.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ContactConfig } from '../../src/config';
import { startLocalAws, type LocalAws } from '@site/local/local-aws';
import { createContactHandler, type ContactHandler } from '../../src/contact-handler';
import { captureLogs, type CapturedLogs } from './logs';

export interface LocalAwsStack {
  aws: LocalAws;
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
    stack.aws = await startLocalAws();
  });
  afterAll(async () => {
    await stack.aws?.close();
    stack.logs?.restore();
  });
  return stack;
}

/** `configure` turns the stand-ins' configuration into the one under test (default: as it is). */
export function useContactStack(configure: (aws: LocalAws) => ContactConfig = (aws) => aws.config): ContactStack {
  const stack = useLocalAws() as ContactStack;
  beforeAll(() => {
    stack.handler = createContactHandler({ config: configure(stack.aws), clients: stack.aws.clients });
  });
  return stack;
}
