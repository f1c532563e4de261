/**
 * Collects what the functions write on stdout (JSON lines) instead of printing it: their log
 * lines, and apart from them their metric lines (CloudWatch Embedded Metric Format, told by
 * their `_aws` member).
 */
import { vi } from 'vitest';

export interface CapturedLogs {
  /** Everything written since capture began, to search for text that must never be logged. */
  raw(): string;
  /** The log lines written since capture began or since the last clear(). */
  entries(): Record<string, unknown>[];
  /** The metric lines written since capture began or since the last clear(). */
  metricLines(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

const isMetricLine = (line: Record<string, unknown>) => '_aws' in line;

export function captureLogs(): CapturedLogs {
  let written = '';
  let clearedAt = 0;
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const lines = () =>
    written
      .slice(clearedAt)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    raw: () => written,
    entries: () => lines().filter((line) => !isMetricLine(line)),
    metricLines: () => lines().filter(isMetricLine),
    clear: () => {
      clearedAt = written.length;
    },
    restore: () => spy.mockRestore(),
  };
}
