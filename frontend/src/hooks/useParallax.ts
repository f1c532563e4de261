import { useEffect, useRef } from 'react';
import { REDUCED_MOTION_QUERY } from '../reduced-motion';

/**
 * Moves the element with the mouse: the pointer's place in the window, from one edge to
 * the other, maps to -maxOffsetPx … +maxOffsetPx on each axis. Transform only, set through
 * the CSSOM (allowed by the CSP, unlike a style attribute), at most once per frame.
 */
export function useParallax<T extends HTMLElement>(maxOffsetPx: number) {
  const ref = useRef<T>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const reducedMotion = window.matchMedia(REDUCED_MOTION_QUERY);
    const shift = (position: number, size: number) => Math.max(-1, Math.min(1, (position / size) * 2 - 1)) * maxOffsetPx;
    let frame = 0;

    const onMove = (event: PointerEvent) => {
      if (event.pointerType !== 'mouse' || reducedMotion.matches) return;
      const x = shift(event.clientX, window.innerWidth);
      const y = shift(event.clientY, window.innerHeight);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        element.style.transform = `translate3d(${x.toFixed(2)}px, ${y.toFixed(2)}px, 0)`;
      });
    };
    const reset = () => {
      if (reducedMotion.matches) element.style.transform = '';
    };

    window.addEventListener('pointermove', onMove, { passive: true });
    reducedMotion.addEventListener('change', reset);
    return () => {
      window.removeEventListener('pointermove', onMove);
      reducedMotion.removeEventListener('change', reset);
      cancelAnimationFrame(frame);
      element.style.transform = '';
    };
  }, [maxOffsetPx]);

  return ref;
}
