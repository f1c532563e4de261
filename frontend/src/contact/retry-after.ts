/**
 * Whole minutes until a `Retry-After` answer allows the next try, rounded up, so the visitor
 * is never told a time that is too early. HTTP allows seconds or a date; undefined when the
 * header is missing or neither.
 */
export function retryAfterMinutes(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  // A date is an HTTP date (IMF-fixdate, always in GMT); Date.parse alone would take '1.5' for one.
  const seconds = /^\d+$/.test(text) ? Number(text) : / GMT$/.test(text) ? (Date.parse(text) - now) / 1000 : Number.NaN;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.max(1, Math.ceil(seconds / 60));
}
