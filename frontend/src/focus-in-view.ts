import { clearScrollTop, type Extent } from './clear-scroll';

/**
 * Spread on what is shown with the focusable element inside it: a field with its label and its
 * message, a confirmation with its heading. It is kept in view whole.
 */
export const focusFrame = { 'data-focus-frame': '' } as const;

/** Spread on what must never be half under the header or a toast, focused or not: the form's submit button. */
export const keepClear = { 'data-keep-clear': '' } as const;

/** What must be in view while `element` has the focus: its frame, or itself. */
export function frameOf(element: Element): Element {
  return element.closest('[data-focus-frame]') ?? element;
}

const inPage = (element: Element): Extent => {
  const box = element.getBoundingClientRect();
  return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
};
const rendered = (element: Element) => element.getClientRects().length > 0;

/**
 * Scrolls the page as little as needed for `focused` (with its frame) to be in view, and for
 * nothing marked keepClear to be partly covered. How much the header and the toasts cover is
 * what the page's scroll padding and the scroll margins of focusable elements say together
 * (base.css), as the browser adds them, so a keyboard's own scrolling and this one agree. `focused` undefined: only what is marked keepClear.
 */
export function scrollClear(focused?: Element): void {
  const frame = focused && frameOf(focused);
  const keep = [...document.querySelectorAll('[data-keep-clear]')].filter(rendered);
  const measured = frame ?? keep[0];
  if (!measured) return;
  const margins = getComputedStyle(measured);
  const padding = getComputedStyle(document.documentElement);
  const covered = (side: 'Top' | 'Bottom') =>
    (parseFloat(padding[`scrollPadding${side}`]) || 0) + (parseFloat(margins[`scrollMargin${side}`]) || 0);
  const viewport = document.documentElement.clientHeight;
  const top = clearScrollTop({
    scrollTop: window.scrollY,
    maxScrollTop: document.documentElement.scrollHeight - viewport,
    viewportHeight: viewport,
    coveredTop: covered('Top'),
    coveredBottom: covered('Bottom'),
    focus: frame && inPage(frame),
    keep: keep.map(inPage),
  });
  if (Math.abs(top - window.scrollY) >= 1) window.scrollTo({ top });
}

/** Moves focus to `element` and scrolls only as far as needed (scrollClear). */
export function focusInView(element: HTMLElement): void {
  element.focus({ preventScroll: true });
  scrollClear(element);
}
