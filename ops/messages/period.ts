/**
 * The period `wave` and `purge` look at: `--since` and `--until`, each a moment (an ISO date
 * or date and time, as the commands print them) or a time ago (`90m`, `6h`, `2d`). Read when
 * the command line is, made into moments when the command runs. No I/O.
 */

/** A moment as given: at a time, or this long before the command runs. */
export type TimeSpec = { at: string } | { agoMs: number };

/** Received from `from` up to and including `to`, both ISO, as the byStatus index sorts them. */
export interface Period {
  from: string;
  to: string;
}

/** Without --since: the last day, which a wave that has just been noticed fits in. */
export const DEFAULT_SINCE: TimeSpec = { agoMs: 24 * 60 * 60 * 1000 };

const AGO = /^(\d{1,5})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A date, or a date and time, ISO style: 2026-03-01, 2026-03-01T09:00, 2026-03-01T09:00:00Z. */
const MOMENT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** What a --since or --until takes, for the line that refuses another value. */
export const TIME_FORMS = 'a time ago (90m, 6h, 2d) or a UTC moment (2026-03-01 or 2026-03-01T09:00Z)';

/** The value as a moment, or undefined when it is none. A moment without a zone is UTC: the table's times are. */
export function timeSpecOf(value: string): TimeSpec | undefined {
  const ago = AGO.exec(value);
  if (ago) return { agoMs: Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS] };
  if (!MOMENT.test(value)) return undefined;
  const zoned = value.length === 10 || /(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? undefined : { at: new Date(time).toISOString() };
}

const momentOf = (spec: TimeSpec, now: Date) => ('at' in spec ? spec.at : new Date(now.getTime() - spec.agoMs).toISOString());

/** The period as moments at `now`; a --since that is not before --until is refused by the caller with `periodProblem`. */
export function periodOf(given: { since?: TimeSpec; until?: TimeSpec }, now: Date): Period {
  return { from: momentOf(given.since ?? DEFAULT_SINCE, now), to: given.until ? momentOf(given.until, now) : now.toISOString() };
}

/** Why the period holds no time at all, or undefined when it does. */
export function periodProblem(period: Period): string | undefined {
  return period.from < period.to ? undefined : `--since (${period.from}) is not before --until (${period.to}): that period holds no time.`;
}
