import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `delayMs`: what a polite live region should
 * say, so a screen reader speaks after a pause in typing rather than on every keystroke.
 */
export function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
