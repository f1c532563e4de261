/**
 * The longest task from the first paint on, read from a Chromium trace as Lighthouse returns it:
 * top-level tasks on the thread that painted, by their CPU time, slowed as Lighthouse's
 * simulation slows them. The events are the kind a page load writes (times in µs).
 */
import { describe, expect, it } from 'vitest';
import { longestTaskAfterPaint, type TraceEvent } from '../lighthouse';

const MAIN = { pid: 7, tid: 1 };
const PAINT_AT = 1_000_000;
const paint: TraceEvent = { name: 'firstContentfulPaint', ph: 'R', ts: PAINT_AT, ...MAIN };
/** A complete event on the main thread: start and length in ms after the paint, CPU time in ms. */
const task = (name: string, at: number, ms: number, cpu = ms, thread = MAIN): TraceEvent => ({
  name,
  ph: 'X',
  ts: PAINT_AT + at * 1000,
  dur: ms * 1000,
  tdur: cpu * 1000,
  ...thread,
});

describe('the longest task from the first paint on', () => {
  it('is judged on its CPU time, not on its length as it ran, slowed as Lighthouse slows a task', () => {
    // 40 ms as it ran while another process had the core, 5 ms of work; 12 ms of work in 12 ms.
    const events = [paint, task('RunTask', 10, 40, 5), task('RunTask', 60, 12)];
    expect(longestTaskAfterPaint(events, PAINT_AT, 4)).toBe(48);
  });

  it('slows a task that laid out the page half as much, as Lantern does', () => {
    const events = [paint, task('RunTask', 10, 12), task('RunTask', 30, 20), task('Layout', 35, 8)];
    expect(longestTaskAfterPaint(events, PAINT_AT, 4)).toBe(48);
  });

  it('counts a task only once, with the events inside it, and leaves out what began before the paint and other threads', () => {
    const events = [
      paint,
      task('RunTask', -50, 45),
      task('RunTask', 5, 10),
      task('FunctionCall', 6, 8),
      task('RunTask', 20, 90, 90, { pid: 7, tid: 2 }),
      task('RunTask', 30, 90, 90, { pid: 8, tid: 1 }),
    ];
    expect(longestTaskAfterPaint(events, PAINT_AT, 4)).toBe(40);
  });

  it('refuses a trace without the paint Lighthouse reported, or without a task after it, rather than judge nothing', () => {
    expect(() => longestTaskAfterPaint([task('RunTask', 10, 12)], PAINT_AT, 4)).toThrow(/no first contentful paint/);
    expect(() => longestTaskAfterPaint([paint, task('RunTask', -20, 12)], PAINT_AT, 4)).toThrow(/no main-thread task after/);
  });
});
