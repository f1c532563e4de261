/**
 * The outside check's function (core/src/outside-check.ts): one run of what a visitor does
 * through the stage's public address (outside-check.ts), its post marked as the check's, then
 * one metric line (OutsideCheck: 1 passed, 0 not) and one log line (the step that failed and
 * why, each step's time). A run that cannot even start counts as failed, never as missing: the
 * alarm reads a missing run as failed too, but a 0 says the function ran. Built from its
 * configuration like the other handlers: Lambda's entry, the local stack and the tests run it.
 */
import { OUTSIDE_CHECK_STEPS, OUTSIDE_CHECK } from '@site/core/outside-check';
import { OUTSIDE_CHECK_LOG } from '@site/core/log-lines';
import { checkMarker } from './check-marker';
import type { OutsideCheckConfig } from '../config';
import { systemClock } from '../dependencies';
import { describeError, errorLocation, writeLog } from '../shared/log';
import { writeMetrics } from '../shared/metrics';
import { runOutsideCheck, type OutsideCheckRun } from './outside-check';

export type OutsideCheckHandler = () => Promise<OutsideCheckRun>;

/**
 * The check's message: valid by every rule of the form, read by nobody (the contact function
 * sends it to SES's mailbox simulator), and different each run, so no two are the same text.
 */
export function checkMessage(now: Date): { name: string; email: string; message: string } {
  return {
    name: 'Controle van buiten',
    email: OUTSIDE_CHECK.recipient,
    message: `Automatische controle van de website om ${now.toISOString()}. Dit bericht gaat naar de mailboxsimulator van SES, nooit naar het kantoor.`,
  };
}

export function createOutsideCheckHandler(dependencies: {
  config: OutsideCheckConfig;
  clock?: () => Date;
  /** Each request's wait; the deploy's by default. */
  timeoutMs?: number;
}): OutsideCheckHandler {
  const { config, clock = systemClock } = dependencies;
  return async () => {
    let run: OutsideCheckRun;
    let failure: { error: string; where?: string } | undefined;
    try {
      run = await runOutsideCheck({
        site: config.siteUrl,
        message: checkMessage(clock()),
        marker: () => checkMarker(config.markerKey, clock()),
        timeoutMs: dependencies.timeoutMs,
      });
    } catch (error) {
      failure = { error: describeError(error), where: errorLocation(error) };
      run = { passed: false, steps: [], failed: { step: OUTSIDE_CHECK_STEPS[0], problem: 'the check itself failed' } };
    }
    writeMetrics(config.stage, [{ name: 'OutsideCheck', value: run.passed ? 1 : 0 }]);
    writeLog({
      level: run.passed ? 'info' : 'error',
      msg: OUTSIDE_CHECK_LOG.msg,
      [OUTSIDE_CHECK_LOG.passedField]: run.passed ? 1 : 0,
      [OUTSIDE_CHECK_LOG.failedStepField]: run.failed?.step,
      [OUTSIDE_CHECK_LOG.problemField]: run.failed?.problem,
      ...Object.fromEntries(run.steps.map(({ step, ms }) => [`${step}Ms`, ms])),
      messageId: run.messageId,
      ...failure,
    });
    return run;
  };
}
