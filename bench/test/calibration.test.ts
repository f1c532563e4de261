import { describe, expect, it } from 'vitest';
import { calibratedSlowdown, REFERENCE_BENCHMARK_INDEX } from '../lighthouse';

describe("the CPU slowdown calibrated to the host's benchmark index", () => {
  it('slows the reference host 4×, as Lighthouse does, and any other host in proportion, so every host simulates the same phone', () => {
    expect(calibratedSlowdown(REFERENCE_BENCHMARK_INDEX)).toBe(4);
    expect(calibratedSlowdown(REFERENCE_BENCHMARK_INDEX * 2)).toBe(8);
    // The hosts of 2026-11-29: the faster one is slowed more, the slower one less.
    expect([calibratedSlowdown(3820), calibratedSlowdown(1628)]).toEqual([7.64, 3.26]);
  });
});
