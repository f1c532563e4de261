import { describe, expect, it } from 'vitest';
import { clearScrollTop, type ClearScrollInput } from './clear-scroll';

/** A phone: 844 px high, the header's 80 px at the top, a toast's 70 px at the bottom. */
const PHONE: ClearScrollInput = {
  scrollTop: 1000,
  maxScrollTop: 5000,
  viewportHeight: 844,
  coveredTop: 80,
  coveredBottom: 70,
  keep: [],
};
const at = (top: number, height: number) => ({ top, bottom: top + height });

describe('the scroll position that keeps the focus and the submit button clear of the header and the toasts', () => {
  it('stays put while the focus is in view between the bands', () => {
    expect(clearScrollTop({ ...PHONE, focus: at(1300, 100) })).toBe(1000);
  });

  it('brings a focus above the view down to just below the header', () => {
    expect(clearScrollTop({ ...PHONE, focus: at(500, 100) })).toBe(420);
  });

  it('lifts a focus that a bottom toast would cover to just above the toast', () => {
    // 1000 + 844 - 70 = 1774 is the toast's top edge in the page; the field ends at 1800.
    expect(clearScrollTop({ ...PHONE, focus: at(1700, 100) })).toBe(1026);
  });

  it('shows the top of a focus too tall for the room between the bands', () => {
    expect(clearScrollTop({ ...PHONE, focus: at(1500, 900) })).toBe(1420);
  });

  it('moves a half-covered submit button out from under the toast, the way that keeps the focus in view', () => {
    // Focus at the top of the view; the button's top edge shows under the toast at the bottom.
    const focus = at(1100, 100);
    const button = at(1800, 48);
    const top = clearScrollTop({ ...PHONE, focus, keep: [button] });
    // Scrolled back until the button is out of view below: the focus moves down, still clear.
    expect(top).toBe(1800 - 844);
    expect(focus.top - top).toBeGreaterThanOrEqual(80);
    expect(focus.bottom - top).toBeLessThanOrEqual(844 - 70);
  });

  it('lifts a covered submit button above the toast when nothing else has the focus', () => {
    expect(clearScrollTop({ ...PHONE, keep: [at(1780, 48)] })).toBe(1780 + 48 - 844 + 70);
  });

  it('moves a submit button out from under the header the shorter way', () => {
    // 40 px of it are under the header's 80: back by 40 px rather than on by 48.
    expect(clearScrollTop({ ...PHONE, keep: [at(1040, 48)] })).toBe(1040 - 80);
    expect(clearScrollTop({ ...PHONE, keep: [at(990, 48)] })).toBe(990 + 48);
  });

  it('lets the focus win where the button cannot be cleared as well', () => {
    // The button is so close below the focus that no position clears both.
    const top = clearScrollTop({ ...PHONE, coveredBottom: 400, focus: at(1300, 100), keep: [at(1420, 48)] });
    expect(top).toBeGreaterThanOrEqual(1300 + 100 - (844 - 400));
    expect(top).toBeLessThanOrEqual(1300 - 80);
  });

  it('never scrolls above the top of the page or past its end', () => {
    expect(clearScrollTop({ ...PHONE, scrollTop: 100, focus: at(20, 40) })).toBe(0);
    expect(clearScrollTop({ ...PHONE, scrollTop: 4900, maxScrollTop: 4950, focus: at(5700, 60) })).toBe(4950);
  });
});
