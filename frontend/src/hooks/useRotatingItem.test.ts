import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expertise } from '../content/site';
import { useRotatingItem } from './useRotatingItem';

describe('useRotatingItem(items, 3000, 500)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const advance = (ms: number) => {
    act(() => {
      vi.advanceTimersByTime(ms);
    });
  };

  it('starts visible at item 0, fades out at 3000 ms and shows the next item 500 ms later', () => {
    const { result } = renderHook(() => useRotatingItem(expertise, 3000, 500));
    expect(result.current).toEqual({ item: 'Compliance', index: 0, visible: true });

    advance(2999);
    expect(result.current).toMatchObject({ index: 0, visible: true });
    advance(1);
    expect(result.current).toMatchObject({ item: 'Compliance', visible: false });
    advance(499);
    expect(result.current).toMatchObject({ item: 'Compliance', visible: false });
    advance(1);
    expect(result.current).toEqual({ item: 'Business Control', index: 1, visible: true });
  });

  it('walks the 16 terms in order, one every 3000 ms, and wraps from the last to the first', () => {
    const { result } = renderHook(() => useRotatingItem(expertise, 3000, 500));
    advance(500);
    const order: string[] = [result.current.item];
    for (let n = 1; n <= expertise.length; n++) {
      advance(3000);
      order.push(result.current.item);
    }
    expect(order.slice(0, 16)).toEqual([...expertise]);
    expect(order[16]).toBe('Compliance');
  });

  it('stands still while paused, never stuck invisible, and goes on when resumed', () => {
    const { result, rerender } = renderHook(({ paused }) => useRotatingItem(expertise, 3000, 500, paused), {
      initialProps: { paused: false },
    });
    advance(3000);
    expect(result.current.visible).toBe(false);
    rerender({ paused: true });
    expect(result.current).toEqual({ item: 'Business Control', index: 1, visible: true });
    advance(30_000);
    expect(result.current.index).toBe(1);
    rerender({ paused: false });
    advance(3500);
    expect(result.current.item).toBe('Cybersecurity');
  });
});
