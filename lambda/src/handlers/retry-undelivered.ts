/** Scheduled (EventBridge): delivers stored messages that SES did not accept the first time. */
import { writeLog } from '../log';
import { RETRY_RUN_LOG } from '@site/core/log-lines';
import { retryUndelivered, type RetrySummary } from '../retry';

export async function handler(): Promise<RetrySummary> {
  const started = performance.now();
  const summary = await retryUndelivered();
  writeLog({
    level: summary.failed > 0 ? 'error' : 'info',
    msg: RETRY_RUN_LOG.msg,
    ...summary,
    durationMs: Math.round(performance.now() - started),
  });
  return summary;
}
