/**
 * One JSON object per line on stdout, which CloudWatch Logs keeps as-is. Values are
 * primitives only, so an object holding what a visitor typed cannot be logged by accident.
 */

type LogValue = string | number | boolean | undefined;

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: LogValue;
}

export function writeLog(entry: LogEntry): void {
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}

const SAFE_NAME = /^[A-Za-z0-9_.:-]{1,80}$/;

/**
 * Names a failure by its error name and code only. AWS error messages can quote the
 * request (SES names the addresses it refused), so the message text is never kept.
 */
export function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'UnknownError';
  const { name, code } = error as { name?: unknown; code?: unknown };
  const parts = [name, code].filter((part): part is string => typeof part === 'string' && SAFE_NAME.test(part));
  return [...new Set(parts)].join(' ') || 'UnknownError';
}
