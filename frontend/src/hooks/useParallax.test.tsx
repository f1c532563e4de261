import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setReducedMotion } from '../../test/browser-fakes';
import { useParallax } from './useParallax';

function Visual() {
  const ref = useParallax<HTMLDivElement>(10);
  return <div ref={ref} data-testid="visual" />;
}

function moveMouse(clientX: number, clientY: number, pointerType = 'mouse') {
  act(() => {
    window.dispatchEvent(new PointerEvent('pointermove', { clientX, clientY, pointerType }));
  });
}

/** The x and y shift in px, however the CSSOM serialises the transform (jsdom 31 normalises it as browsers do). */
function shift(element: HTMLElement): [number, number] {
  const match = /^translate3d\((-?[\d.]+)px, (-?[\d.]+)px, 0(?:px)?\)$/.exec(element.style.transform);
  if (!match) throw new Error(`Not a translate3d shift: "${element.style.transform}"`);
  return [Number(match[1]), Number(match[2])];
}

describe('useParallax(10)', () => {
  beforeEach(() => {
    // Run each animation frame at once.
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      callback(0);
      return 1;
    });
    window.innerWidth = 1000;
    window.innerHeight = 800;
  });

  it('follows the mouse by at most 10 px each way', () => {
    render(<Visual />);
    const visual = screen.getByTestId('visual');
    moveMouse(0, 0);
    expect(shift(visual)).toEqual([-10, -10]);
    moveMouse(1000, 800);
    expect(shift(visual)).toEqual([10, 10]);
    moveMouse(500, 400);
    expect(shift(visual)).toEqual([0, 0]);
    moveMouse(5000, -300);
    expect(shift(visual)).toEqual([10, -10]);
  });

  it('ignores touch and stays still for visitors who prefer reduced motion', () => {
    render(<Visual />);
    moveMouse(0, 0, 'touch');
    expect(screen.getByTestId('visual').style.transform).toBe('');

    setReducedMotion(true);
    render(<Visual />);
    moveMouse(0, 0);
    expect(screen.getAllByTestId('visual')[1]!.style.transform).toBe('');
  });
});
