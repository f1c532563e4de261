/** Collects the handler's log lines (JSON on stdout) instead of printing them. */
import { vi } from 'vitest';

export interface CapturedLogs {
  /** Everything written since capture began, to search for text that must never be logged. */
  raw(): string;
  /** The lines written since capture began or since the last clear(). */
  entries(): Record<string, unknown>[];
  clear(): void;
  restore(): void;
}

export function captureLogs(): CapturedLogs {
  let written = '';
  let clearedAt = 0;
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  return {
    raw: () => written,
    entries: () =>
      written
        .slice(clearedAt)
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      clearedAt = written.length;
    },
    restore: () => spy.mockRestore(),
  };
}
