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
    expect(visual.style.transform).toBe('translate3d(-10.00px, -10.00px, 0)');
    moveMouse(1000, 800);
    expect(visual.style.transform).toBe('translate3d(10.00px, 10.00px, 0)');
    moveMouse(500, 400);
    expect(visual.style.transform).toBe('translate3d(0.00px, 0.00px, 0)');
    moveMouse(5000, -300);
    expect(visual.style.transform).toBe('translate3d(10.00px, -10.00px, 0)');
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
