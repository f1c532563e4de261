import { useLayoutEffect, useRef, type RefObject } from 'react';
import { frameOf, scrollClear } from '../focus-in-view';

/**
 * The toaster's height, on the root element, for the scroll margins that keep a focused
 * element clear of the toasts (see base.css and Toaster.css, which say on which side).
 */
export const TOASTER_HEIGHT_PROPERTY = '--toaster-height';

/** The element with the focus, when the visitor can see it: not when they have scrolled away from it. */
function focusedInView(toaster: HTMLElement): Element | undefined {
  const focused = document.activeElement;
  if (!focused || focused === document.body || toaster.contains(focused)) return undefined;
  const box = frameOf(focused).getBoundingClientRect();
  const shown = box.height > 0 && box.bottom > 0 && box.top < document.documentElement.clientHeight;
  return shown ? focused : undefined;
}

/**
 * After every change of the toasts, before the browser paints: publishes the toaster's height
 * and, when a toast has come, scrolls as little as needed for no toast to cover the focused
 * element or the submit button (scrollClear). Runs before the effects that move focus with
 * the same change (React runs layout effects first), so they scroll with margins that already
 * count the new toast. Nothing scrolls when the toaster starts or a toast goes: the page never
 * moves under a visitor who did nothing.
 */
export function useToasterRoom(region: RefObject<HTMLElement | null>, toasts: readonly { id: number }[]): void {
  const shown = useRef<ReadonlySet<number>>(new Set());
  // What the stylesheet assumes until told otherwise (its fallback): no toasts, no height.
  const published = useRef(0);
  useLayoutEffect(() => {
    const toaster = region.current;
    if (!toaster) return;
    // A custom property on the root restyles every element of the page (some 400, 10 ms on a
    // fast machine): set it only when the height changed, never while the app starts.
    const height = Math.ceil(toaster.getBoundingClientRect().height);
    if (height !== published.current) {
      document.documentElement.style.setProperty(TOASTER_HEIGHT_PROPERTY, `${height}px`);
      published.current = height;
    }
    const before = shown.current;
    shown.current = new Set(toasts.map((toast) => toast.id));
    if (toasts.some((toast) => !before.has(toast.id))) scrollClear(focusedInView(toaster));
  }, [region, toasts]);
}
