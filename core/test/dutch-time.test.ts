import { describe, expect, it } from 'vitest';
import { dutchDate, dutchDateTime, dutchTime } from '../src/dutch-time';

describe('Dutch dates and times, in the firm’s own time', () => {
  it('writes the weekday, the day, the month and the year, and the time as the Taalunie does', () => {
    expect(dutchDateTime('2026-11-23T07:42:20.340Z')).toBe('maandag 23 november 2026 om 08.42 uur');
    expect(dutchDate(new Date('2027-01-01T12:00:00Z'))).toBe('vrijdag 1 januari 2027');
    expect(dutchTime('2026-11-23T23:05:00Z')).toBe('00.05 uur');
  });

  it('follows Amsterdam’s summer time, and the date it makes there', () => {
    expect(dutchDateTime('2026-07-03T22:05:00Z')).toBe('zaterdag 4 juli 2026 om 00.05 uur');
    expect(dutchDateTime('2026-03-29T00:59:00Z')).toBe('zondag 29 maart 2026 om 01.59 uur');
    expect(dutchDateTime('2026-03-29T01:00:00Z')).toBe('zondag 29 maart 2026 om 03.00 uur');
  });
});
