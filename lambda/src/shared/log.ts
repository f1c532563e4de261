/**
 * The functions' log lines, through Powertools' Logger (why: docs/decisions/0039-powertools-logger.md):
 * its levels, and the log level Lambda or POWERTOOLS_LOG_LEVEL sets, with the line shaped as
 * on call's queries and metric filters read it (core/src/log-lines.ts): `level` in lower case,
 * `msg`, then the entry's own fields, one JSON object per line on stdout, which CloudWatch Logs
 * keeps as-is and stamps with its own time. Values are primitives only, so an object holding
 * what a visitor typed cannot be logged by accident. Nothing in a value can start a line, reach
 * a terminal as a control sequence or reorder what a terminal shows: JSON escapes C0 controls,
 * and the line escapes the rest.
 */
import { Logger, LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { INVISIBLE } from './characters';

type LogValue = string | number | boolean | undefined;

/** Powertools' own keys, which it would drop from an entry (with a warning line of its own). */
type ReservedKey = 'message' | 'timestamp' | 'service' | 'sampling_rate';

export type LogEntry = {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: LogValue;
} & { [Key in ReservedKey]?: never };

/** What JSON.stringify leaves as it is but a terminal or a log viewer would act on: DEL, C1 controls, line separators, invisible characters. */
const UNSAFE_IN_JSON = new RegExp(String.raw`[\u007F-\u009F\u2028\u2029]|${INVISIBLE.source}`, 'gv');

/** A character as JSON's \\u escapes, one per UTF-16 unit. */
const jsonEscape = (character: string) =>
  Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** `value` as one line of JSON that means the same and holds nothing a terminal acts on. */
const oneLine = (value: object) => JSON.stringify(value).replace(UNSAFE_IN_JSON, jsonEscape);

/** The entry as the line writeLog writes: for a line of the local stack's own, beside the functions'. */
export function logLine(entry: LogEntry): string {
  return oneLine(entry);
}

/** The line's keys: the level as on call's queries read it, the message as `msg`, then the entry's fields, nothing else. */
class EntryFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, entry: LogAttributes): LogItem {
    return new LogItem({ attributes: { level: attributes.logLevel.toLowerCase(), msg: attributes.message, ...entry } });
  }
}

/**
 * Powertools' Logger, printing each line escaped, and every level to stdout: the Logger's own
 * console would send warnings and errors to stderr and print the line unescaped.
 */
class EscapingLogger extends Logger {
  protected override printLog(_logLevel: number, log: LogItem): void {
    process.stdout.write(`${oneLine(log.getAttributes())}\n`);
  }
}

/** Made on the first line, not at import: a cold start's import runs nothing (docs/decisions/0005-sdk-bundled-into-each-function.md). */
let logger: Logger | undefined;

export function writeLog({ level, msg, ...fields }: LogEntry): void {
  logger ??= new EscapingLogger({ logFormatter: new EntryFormatter() });
  logger[level](msg, fields);
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

/** A frame's position: `(file:line:column)` or `at file:line:column`, whatever else the frame says. */
const FRAME_POSITION = /(?:\(|at )(?:file:\/\/)?([^()\s]+):(\d+):(\d+)\)?$/;
/** How many frames `errorLocation` keeps: where it was thrown, and what called that. */
const LOCATION_FRAMES = 3;

/**
 * Where an error was thrown, as `file:line:column` of its innermost frames, innermost first
 * (`index.mjs:1:204533 < index.mjs:1:180021`): positions only, never the message or anything
 * else of the stack, so no visitor data can come with it. In Lambda the file is the bundle,
 * whose positions `npm run where` maps back to the TypeScript; elsewhere it is the source.
 */
export function errorLocation(error: unknown): string | undefined {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const positions = stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .flatMap((line) => {
      const match = FRAME_POSITION.exec(line.trim());
      if (!match || match[1]!.startsWith('node:')) return [];
      return [`${match[1]!.split('/').at(-1)}:${match[2]}:${match[3]}`];
    });
  return positions.length > 0 ? positions.slice(0, LOCATION_FRAMES).join(' < ') : undefined;
}

/**
 * What a function throws on to Lambda after logging a failure itself: Lambda's runtime logs
 * a thrown error's message and stack, and an AWS error's message can quote the request. This
 * carries the failure's name and code only (describeError).
 */
export function withoutDetails(error: unknown): Error {
  const safe = new Error(`${describeError(error)} (logged above, with where it was thrown)`);
  safe.name = 'FunctionFailed';
  return safe;
}
