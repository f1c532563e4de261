import { describe, expect, it } from 'vitest';
import { retryAfterMinutes } from './retry-after';

describe('retryAfterMinutes', () => {
  it.each([
    ['1', 1],
    ['60', 1],
    ['61', 2],
    ['599', 10],
    ['600', 10],
    [' 120 ', 2],
    // Never "over 0 minuten": the visitor may try at once, and still hears when.
    ['0', 1],
  ])('rounds %s seconds up to %i whole minutes', (header, minutes) => {
    expect(retryAfterMinutes(header)).toBe(minutes);
  });

  it('reads an HTTP date as the time left until then', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMinutes('Wed, 25 Nov 2026 10:04:01 GMT', now)).toBe(5);
    expect(retryAfterMinutes('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(1);
  });

  it('agrees with the limit page for every Retry-After the function can send: never later than the page’s longest wait, never earlier than the header', () => {
    // The function's Retry-After is at most what is left of the window (lambda/test/visitor-allowance.test.ts).
    for (let seconds = 1; seconds <= __VISITOR_WINDOW_MINUTES__ * 60; seconds += 1) {
      const minutes = retryAfterMinutes(String(seconds))!;
      expect(minutes).toBeLessThanOrEqual(__VISITOR_WINDOW_MINUTES__);
      expect(minutes * 60).toBeGreaterThanOrEqual(seconds);
    }
  });

  it.each([null, '', 'soon', '-5', '1.5'])('gives no minutes for %j', (header) => {
    expect(retryAfterMinutes(header)).toBeUndefined();
  });
});
