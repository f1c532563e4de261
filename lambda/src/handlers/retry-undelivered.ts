/**
 * Scheduled (EventBridge): delivers stored messages that SES did not accept the first time.
 * Lambda's entry: the environment is read and the clients are built on the first run, then
 * kept for the container. A missing setting fails the run with an error naming the variable.
 */
import { createAwsClients } from '../shared/aws';
import { readRetryConfig } from '../config';
import { createRetryHandler, type RetrySummary } from '../retry/retry';

let built: (() => Promise<RetrySummary>) | undefined;

export async function handler(): Promise<RetrySummary> {
  built ??= createRetryHandler({ config: readRetryConfig(process.env), clients: createAwsClients() });
  return await built();
}
