import { useCallback, type RefCallback } from 'react';
import { prefersReducedMotion } from '../reduced-motion';

/** Share of an element that must be in view before it fades in. */
export const REVEAL_THRESHOLD = 0.1;

/**
 * A ref for elements that fade in once 10 % of them is in view; one ref serves many elements.
 *
 * The prerendered HTML has no hidden state at all, so the page is complete without JavaScript
 * and hydration sees exactly the server markup. After hydration, only elements that are out
 * of view get `data-reveal="hidden"`: what the visitor already sees is never hidden again.
 * Whether an element is in view is the observer's first report, which comes with the
 * browser's next frame, so hydrating never forces a layout of its own. React does not render
 * `data-reveal`, so its re-renders never touch it.
 */
export function useReveal<T extends HTMLElement>(): RefCallback<T> {
  return useCallback((element: T | null) => {
    if (!element || prefersReducedMotion()) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (element.dataset.reveal === undefined) {
          if (entry.isIntersecting) observer.disconnect();
          else element.dataset.reveal = 'hidden';
        } else if (entry.intersectionRatio >= REVEAL_THRESHOLD) {
          element.dataset.reveal = 'shown';
          observer.disconnect();
        }
      },
      { threshold: [0, REVEAL_THRESHOLD] },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
}
