import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FakeIntersectionObserver, setReducedMotion } from '../../test/browser-fakes';
import { REVEAL_THRESHOLD, useReveal } from './useReveal';

function Revealed() {
  const reveal = useReveal<HTMLDivElement>();
  return (
    <div ref={reveal} data-testid="block">
      Inhoud
    </div>
  );
}

describe('useReveal', () => {
  it('hides an element the first report finds out of view, and shows it once 10 % of it is in view', () => {
    render(<Revealed />);
    const block = screen.getByTestId('block');
    const [observer] = FakeIntersectionObserver.instances;
    expect(observer!.options.threshold).toEqual([0, REVEAL_THRESHOLD]);
    expect(REVEAL_THRESHOLD).toBe(0.1);
    // Nothing changes before the browser has reported where the element is.
    expect(block).not.toHaveAttribute('data-reveal');

    observer!.report(block, 0);
    expect(block).toHaveAttribute('data-reveal', 'hidden');
    observer!.report(block, 0.05);
    expect(block).toHaveAttribute('data-reveal', 'hidden');
    observer!.report(block, 0.1);
    expect(block).toHaveAttribute('data-reveal', 'shown');
    expect(observer!.disconnected).toBe(true);
  });

  it('never hides what the visitor already sees, however little of it', () => {
    render(<Revealed />);
    const block = screen.getByTestId('block');
    const [observer] = FakeIntersectionObserver.instances;
    observer!.report(block, 0.02);
    expect(block).not.toHaveAttribute('data-reveal');
    expect(observer!.disconnected).toBe(true);
  });

  it('never reads the layout itself while hydrating', () => {
    const measure = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
    render(<Revealed />);
    expect(measure).not.toHaveBeenCalled();
  });

  it('does nothing when the visitor prefers reduced motion', () => {
    setReducedMotion(true);
    render(<Revealed />);
    expect(screen.getByTestId('block')).not.toHaveAttribute('data-reveal');
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
  });
});
