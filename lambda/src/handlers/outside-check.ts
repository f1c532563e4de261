/**
 * Scheduled (EventBridge, every OUTSIDE_CHECK.intervalMinutes): the outside check. Lambda's
 * entry: the environment is read on the first run and kept for the container. A missing or
 * invalid setting is a failed run, counted and logged with the variable's name (never its
 * value), so its alarm fires rather than waiting for missing data.
 */
import { metricsStage, readOutsideCheckConfig } from '../config';
import { describeError, writeLog } from '../shared/log';
import { writeMetrics } from '../shared/metrics';
import { createOutsideCheckHandler, type OutsideCheckHandler } from '../outside-check/outside-check-handler';
import { OUTSIDE_CHECK_LOG } from '@site/core/log-lines';

let built: OutsideCheckHandler | undefined;

export async function handler(): Promise<{ passed: boolean }> {
  if (built === undefined) {
    try {
      built = createOutsideCheckHandler({ config: readOutsideCheckConfig(process.env) });
    } catch (error) {
      writeMetrics(metricsStage(process.env), [{ name: 'OutsideCheck', value: 0 }]);
      writeLog({
        level: 'error',
        msg: OUTSIDE_CHECK_LOG.msg,
        [OUTSIDE_CHECK_LOG.passedField]: 0,
        error: (error as Error).message || describeError(error),
      });
      return { passed: false };
    }
  }
  const run = await built();
  return { passed: run.passed };
}
