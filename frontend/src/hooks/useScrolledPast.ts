import { useEffect, useState } from 'react';

/**
 * True while the page is scrolled more than `thresholdPx`. Starts false so the prerendered
 * header (at the top) hydrates without a mismatch, then reads the real position at once,
 * which matters when the page was opened on a #section.
 */
export function useScrolledPast(thresholdPx: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > thresholdPx);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [thresholdPx]);
  return scrolled;
}
