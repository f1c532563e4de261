/**
 * The app's loader: the one script in the HTML, inlined into every page by the build
 * (build/inline-loader.ts) and allowed by the CSP through its hash. The prerendered page is
 * complete and styled without script, so no script is requested before the page has painted:
 * the app (the entry named in data-entry) is imported once the first contentful paint is
 * reported and the page has loaded, when the browser is next idle — or at once, when the
 * visitor acts first. Nor is the typeface: the page paints in its metric-matched fallback,
 * and the stylesheet's Inter faces (build/typeface.ts) are used by no text yet. At the first
 * paint the first view's face is fetched, which lays nothing out again: Chromium lays out
 * again only the text whose fonts include a face that was loading (adding a FontFace from
 * script, as this loader once did, lays out every text of the page). Once it is there, each
 * block of the page (the header, each section, the footer, what sits beside them) is set in
 * Inter (styles/base.css) when it comes within a screen of the view, one block a frame: the
 * first text shaped in Inter is the costly part of a block, and a frame each keeps every task
 * short. The rest is set as the visitor scrolls, before it is seen, with nothing moving. The
 * app waits for the blocks near the view (three seconds at most), so the two never share a
 * task.
 * The rest of the Latin range is fetched only if a character of it is shown.
 *
 * Nothing a visitor taps waits for the app either. The phone's menu is a popover the browser
 * opens and closes (components/Header.tsx); here it also closes when one of its links is
 * followed, as a menu does, and when its button is no longer shown (the window grew past the
 * phone's layout). A tap on one of the app's own buttons (a service tab) before the app has
 * started is handed over to it on <html> (hydration.ts), which replays it once the button has
 * hydrated.
 *
 * Its text never changes with a build (the entry’s address is an attribute, the family is
 * data), so neither does the CSP's hash.
 */
(() => {
  const entry = document.currentScript?.dataset.entry;
  if (!entry) return;
  const root = document.documentElement;

  addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      const popover = target.closest?.('[popover] a')?.closest<HTMLElement>('[popover]');
      if (popover?.matches(':popover-open')) popover.hidePopover();
      // Until the app has started (hydration.ts's APP_STARTED_ATTRIBUTE), the last of its buttons tapped (EARLY_TAP_ATTRIBUTE).
      const button = !root.hasAttribute('data-app-started') && target.closest?.('#root button[type="button"][id]:not([popovertarget])');
      if (button) root.setAttribute('data-early-tap', button.id);
    },
    true,
  );
  addEventListener('resize', () => {
    for (const popover of document.querySelectorAll<HTMLElement>('[popover]:popover-open')) {
      if (document.querySelector(`[popovertarget="${popover.id}"]`)?.checkVisibility() === false) popover.hidePopover();
    }
  });
  /** Whoever touches, types or tabs before the app is there gets it started at once. */
  const INTERACTIONS = ['pointerdown', 'touchstart', 'keydown', 'focusin'];
  /** The longest an idle callback may wait on a page that is never idle. */
  const IDLE_TIMEOUT_MS = 2000;
  /** The longest the app waits for the typeface to take over before it starts regardless. */
  const TYPEFACE_WAIT_MS = 3000;
  /**
   * The blocks that are set in the typeface one by one: the header, the footer, every child
   * of <main>, instead of the call bar's track (which holds most of the page) what it holds,
   * and what sits beside them (the skip link, the toasts).
   */
  const BLOCKS = 'header, footer, main > :not(.call-bar-track), .call-bar-track > *, #root > :not(header, main, footer)';
  /** Set on a block to set it in the typeface (styles/base.css). */
  const TYPEFACE_ATTRIBUTE = 'data-typeface';
  /** "About to be seen": within a screen above or below the view. */
  const NEAR = '100% 0px';

  /**
   * Loads the typeface's faces for the first view (declared by the stylesheet, used by no text
   * yet) and, once they are there, sets the blocks near the view in it; resolves when the page
   * has taken it over (or the file failed, or is slow), so that the app starts after that pass
   * over the page and never shares a task with it.
   */
  const takeTypeface = (): Promise<unknown> => {
    const data = document.getElementById('typeface')?.textContent;
    if (!data || !('fonts' in document)) return Promise.resolve();
    const { family } = JSON.parse(data) as { family: string };
    // A file that does not arrive leaves the page in the fallback, as it has been drawn.
    const taken = document.fonts.load(`1em "${family}"`).then(
      (loaded) =>
        loaded.length > 0 &&
        new Promise((resolve) => {
          // One block a frame: the first text shaped in Inter is the costly part, and a frame
          // for each block keeps every task short.
          const queue: Element[] = [];
          const setNext = () => {
            queue.shift()?.setAttribute(TYPEFACE_ATTRIBUTE, '');
            if (queue.length > 0) return void requestAnimationFrame(setNext);
            // Past the frame that lays the last block out: a task queued from its animation frame
            // runs after its rendering. Only the first batch's settles the promise; later ones are no-ops.
            requestAnimationFrame(() => setTimeout(resolve));
          };
          const near = new IntersectionObserver(
            (entries) => {
              const idle = queue.length === 0;
              for (const { target, isIntersecting } of entries) {
                if (!isIntersecting) continue;
                queue.push(target);
                near.unobserve(target);
              }
              if (idle && queue.length > 0) requestAnimationFrame(setNext);
            },
            { rootMargin: NEAR },
          );
          for (const block of document.querySelectorAll(BLOCKS)) near.observe(block);
        }),
      () => undefined,
    );
    return Promise.race([taken, new Promise((resolve) => setTimeout(resolve, TYPEFACE_WAIT_MS))]);
  };

  let requested = false;
  const start = () => {
    if (requested) return;
    requested = true;
    for (const type of INTERACTIONS) removeEventListener(type, start, true);
    void import(entry);
  };
  for (const type of INTERACTIONS) addEventListener(type, start, { capture: true, passive: true });

  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(start);
  };
  const afterLoad = () => {
    if (document.readyState === 'complete') whenIdle();
    else addEventListener('load', whenIdle, { once: true });
  };
  if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      void Promise.resolve().then(takeTypeface).then(afterLoad, afterLoad);
    }).observe({ type: 'paint', buffered: true });
  } else void Promise.resolve().then(takeTypeface).then(afterLoad, afterLoad);
})();
