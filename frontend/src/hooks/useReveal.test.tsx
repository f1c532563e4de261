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

/** jsdom lays nothing out; place the element as the browser would. */
function placeElementsAt(top: number) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ top, bottom: top + 200 } as DOMRect);
}

describe('useReveal', () => {
  it('hides an element below the fold and shows it once 10 % of it is in view', () => {
    placeElementsAt(window.innerHeight + 300);
    render(<Revealed />);
    const block = screen.getByTestId('block');
    expect(block).toHaveAttribute('data-reveal', 'hidden');

    const [observer] = FakeIntersectionObserver.instances;
    expect(observer!.options.threshold).toBe(REVEAL_THRESHOLD);
    expect(REVEAL_THRESHOLD).toBe(0.1);

    observer!.report(block, 0.05);
    expect(block).toHaveAttribute('data-reveal', 'hidden');
    observer!.report(block, 0.1);
    expect(block).toHaveAttribute('data-reveal', 'shown');
    expect(observer!.disconnected).toBe(true);
  });

  it('never hides what the visitor already sees', () => {
    placeElementsAt(100);
    render(<Revealed />);
    expect(screen.getByTestId('block')).not.toHaveAttribute('data-reveal');
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
  });

  it('does nothing when the visitor prefers reduced motion', () => {
    setReducedMotion(true);
    placeElementsAt(window.innerHeight + 300);
    render(<Revealed />);
    expect(screen.getByTestId('block')).not.toHaveAttribute('data-reveal');
  });
});
