/**
 * Hydration in slices. Hydrating the whole home page at once is one long task; instead the
 * page's parts (the sections in <main>, see components/Part.tsx) each wait behind a gate
 * while the rest hydrates, and are let through one at a time, each in an idle period of its
 * own: parts near the viewport first, then the others in page order. A part the visitor
 * touches, types or tabs into is let through at once, before React sees the event, so React
 * hydrates it on the spot and the event reaches it (React's selective hydration).
 *
 * A tap on one of the app's buttons (a service tab) before the app started, which no handler
 * heard, is handed over by the loader (loader.ts): its part is let through at once, and the tap
 * is replayed on the button once the part has hydrated, so it takes effect without a second tap.
 *
 * A gate is a thenable React suspends on (`use`): while it is shut, the part keeps its
 * prerendered markup, which React leaves as it is. Each part, once hydrated, and then the
 * whole page leave a performance mark (`hydrated:<id>`, `hydrated`) for tests and traces.
 */

/** What a part waits for; React's `use` reads it as settled as soon as it is marked fulfilled. */
export type Gate = Promise<void>;

interface HeldPart {
  gate: Gate;
  open: () => void;
  state: 'shut' | 'open' | 'hydrated';
}

/** Events that mean the visitor is using a part now (those React hydrates a part for, and focus). */
const INTERACTIONS = [
  'pointerdown',
  'mousedown',
  'touchstart',
  'keydown',
  'focusin',
  'click',
  'input',
  'paste',
  'dragstart',
  'contextmenu',
];
/** "Near the viewport": within one screen height of it. */
const NEAR_MARGIN = '100% 0px';
/** The longest an idle callback may wait on a page that is never idle. */
const IDLE_TIMEOUT_MS = 1000;
export const HYDRATED_MARK = 'hydrated';
/** On <html>: set when the app starts, from when React hears taps itself (the loader stops handing them over). */
export const APP_STARTED_ATTRIBUTE = 'data-app-started';
/** On <html>: the id of the button the visitor tapped before the app started, set by the loader. */
export const EARLY_TAP_ATTRIBUTE = 'data-early-tap';

/** The parts of the page, by the id of their element, in page order; none when the page was not hydrated behind a schedule. */
let parts: Map<string, HeldPart> | undefined;
let near = new Set<string>();
let observer: IntersectionObserver | undefined;
let stepPending = false;
/** The button tapped before the app started, until the tap is replayed. */
let earlyTap: HTMLElement | undefined;

function createPart(): HeldPart {
  let resolve!: () => void;
  const gate: Gate = new Promise<void>((done) => (resolve = done));
  const part: HeldPart = {
    gate,
    state: 'shut',
    open() {
      if (part.state !== 'shut') return;
      part.state = 'open';
      // Marked fulfilled at once (as React marks the promises it tracks), so a render React
      // starts synchronously for an event gets through without waiting for a microtask.
      const settled = gate as Gate & { status?: 'fulfilled'; value?: undefined };
      settled.status = 'fulfilled';
      settled.value = undefined;
      resolve();
    },
  };
  return part;
}

function whenIdle(callback: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(callback);
}

function scheduleStep(): void {
  if (stepPending) return;
  stepPending = true;
  whenIdle(step);
}

/** Lets the next part through, or, when every part has hydrated, ends the schedule. */
function step(): void {
  stepPending = false;
  if (!parts) return;
  const held = [...parts.entries()];
  // One part at a time: the next waits until this one has hydrated (partHydrated).
  if (held.some(([, part]) => part.state === 'open')) return;
  const shut = held.filter(([, part]) => part.state === 'shut');
  const next = shut.find(([id]) => near.has(id)) ?? shut[0];
  if (next) next[1].open();
  else finish();
}

function finish(): void {
  for (const type of INTERACTIONS) document.removeEventListener(type, onInteraction, true);
  observer?.disconnect();
  performance.mark(HYDRATED_MARK);
  replayEarlyTap();
}

/** The tap the loader handed over, on its button, once (in a task of its own, after React's commit). */
function replayEarlyTap(): void {
  const button = earlyTap;
  earlyTap = undefined;
  if (button) setTimeout(() => button.click());
}

/** Takes the tap the loader holds and tells it the app has started: from now on React hears taps. */
export function takeEarlyTap(): HTMLElement | undefined {
  const root = document.documentElement;
  root.setAttribute(APP_STARTED_ATTRIBUTE, '');
  const id = root.getAttribute(EARLY_TAP_ATTRIBUTE);
  root.removeAttribute(EARLY_TAP_ATTRIBUTE);
  return (id && document.getElementById(id)) || undefined;
}

function onInteraction(event: Event): void {
  if (!parts || !(event.target instanceof Node)) return;
  for (const [id, part] of parts) {
    if (part.state === 'shut' && document.getElementById(id)?.contains(event.target)) part.open();
  }
}

function onIntersection(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (entry.isIntersecting) near.add(entry.target.id);
    else near.delete(entry.target.id);
  }
  scheduleStep();
}

/**
 * Called before hydrating the prerendered page with the ids of its parts' elements, in page
 * order: from now on each part waits for its turn, but the one holding `tapped` (a button the
 * visitor tapped before the app started), which goes first, the tap replayed once it has hydrated.
 */
export function scheduleHydration(ids: readonly string[], tapped?: HTMLElement): void {
  parts = new Map(ids.map((id) => [id, createPart()]));
  earlyTap = tapped;
  near = new Set();
  stepPending = false;
  for (const type of INTERACTIONS) document.addEventListener(type, onInteraction, { capture: true, passive: true });
  observer = new IntersectionObserver(onIntersection, { rootMargin: NEAR_MARGIN });
  for (const id of ids) {
    const element = document.getElementById(id);
    if (element) observer.observe(element);
    if (tapped && element?.contains(tapped)) parts.get(id)!.open();
  }
  scheduleStep();
}

/**
 * The gate of the part whose element has this id (already open once its turn has come);
 * nothing when the page was not hydrated behind a schedule (the prerender, a fresh render).
 */
export function gateOf(id: string): Gate | undefined {
  return parts?.get(id)?.gate;
}

/** Called by a part when React has hydrated it; the next part gets its turn in the next idle period. */
export function partHydrated(id: string): void {
  const part = parts?.get(id);
  if (!part || part.state === 'hydrated') return;
  part.state = 'hydrated';
  performance.mark(`${HYDRATED_MARK}:${id}`);
  if (earlyTap && document.getElementById(id)?.contains(earlyTap)) replayEarlyTap();
  scheduleStep();
}
