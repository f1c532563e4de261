/**
 * One JSON object per line on stdout, which CloudWatch Logs keeps as-is. Values are
 * primitives only, so an object holding what a visitor typed cannot be logged by accident.
 * Nothing in a value can start a line, reach a terminal as a control sequence or reorder
 * what a terminal shows: JSON escapes C0 controls, and writeLog escapes the rest.
 */

import { INVISIBLE } from './characters';

type LogValue = string | number | boolean | undefined;

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: LogValue;
}

/** What JSON.stringify leaves as it is but a terminal or a log viewer would act on: DEL, C1 controls, line separators, invisible characters. */
const UNSAFE_IN_JSON = new RegExp(String.raw`[\u007F-\u009F\u2028\u2029]|${INVISIBLE.source}`, 'gv');

/** A character as JSON's \\u escapes, one per UTF-16 unit. */
const jsonEscape = (character: string) =>
  Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** The entry as one line of JSON that means the same and holds nothing a terminal acts on. */
export function logLine(entry: LogEntry): string {
  return JSON.stringify(entry).replace(UNSAFE_IN_JSON, jsonEscape);
}

export function writeLog(entry: LogEntry): void {
  process.stdout.write(`${logLine(entry)}\n`);
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
