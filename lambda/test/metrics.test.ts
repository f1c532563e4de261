/**
 * Writing the path's metrics never fails what was counted: a value Powertools refuses to build
 * a line from becomes one error line naming the error and where it was thrown (as every
 * unexpected error's line does), and the next line is whole, without the refused one's dimension.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeMetrics, type MetricValue } from '../src/shared/metrics';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';

let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

it('writes one error line for a line it cannot build, and the next line as it should be', () => {
  const refused = { name: 'Refused', value: 'one', by: 'invalid' } as unknown as MetricValue;
  expect(() => writeMetrics('test', [refused])).not.toThrow();
  expect(logs.entries()).toEqual([
    { level: 'error', msg: 'metrics not written', error: 'RangeError', where: expect.stringMatching(/ < metrics\.ts:\d+:\d+/) },
  ]);
  writeMetrics('test', [{ name: 'Received', value: 1 }]);
  expect(logs.metricLines().map(({ _aws, ...values }) => values)).toEqual([{ Stage: 'test', Received: 1 }]);
});
