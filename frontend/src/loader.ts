/**
 * The app's loader: the one script in the HTML, inlined into every page by the build
 * (build/inline-loader.ts) and allowed by the CSP through its hash. The prerendered page is
 * complete and styled without script, so no script is requested before the page has painted:
 * the app (the entry named in data-entry) is imported once the first contentful paint is
 * reported and the page has loaded, when the browser is next idle — or at once, when the
 * visitor acts first. Nor is the typeface: the page paints in its metric-matched fallback;
 * at the first paint the first view's face (described in the page by build/typeface.ts) is
 * fetched. The page's text names the family only block by block (styles/base.css): each
 * block (the header, each section, the footer) is set in Inter when it comes within a screen
 * of the view, so the pass at the start shapes in Inter only what the visitor is about to
 * see, and the rest is set a block at a time as they scroll, before it is seen, with nothing
 * moving. Once the file is there every face is added, in the task that sets the first blocks:
 * adding a face lays out every text again (Chromium marks them all), so the two share that
 * one pass. A face added before its file arrived would cost another. The app waits for the
 * first pass (three seconds at most), so the two never share a task.
 * The rest of the Latin range is fetched only if a character of it is shown. Its text
 * never changes with a build (the entry's address is an attribute, the faces are data), so
 * neither does the CSP's hash.
 */
(() => {
  const entry = document.currentScript?.dataset.entry;
  if (!entry) return;
  /** Whoever touches, types or tabs before the app is there gets it started at once. */
  const INTERACTIONS = ['pointerdown', 'touchstart', 'keydown', 'focusin'];
  /** The longest an idle callback may wait on a page that is never idle. */
  const IDLE_TIMEOUT_MS = 2000;
  /** The longest the app waits for the typeface to take over before it starts regardless. */
  const TYPEFACE_WAIT_MS = 3000;
  /**
   * The blocks that are set in the typeface one by one: the header, the footer, every child
   * of <main>, and instead of the call bar's track (which holds most of the page) what it holds.
   */
  const BLOCKS = 'header, footer, main > :not(.call-bar-track), .call-bar-track > *';
  /** Set on a block to set it in the typeface (styles/base.css). */
  const TYPEFACE_ATTRIBUTE = 'data-typeface';
  /** "About to be seen": within a screen above or below the view. */
  const NEAR = '100% 0px';

  /**
   * Fetches the first view's face and, once it is there, adds every face; resolves when the
   * page has taken it over (or the file failed, or is slow), so that the app starts after
   * that pass over the page and never shares a task with it.
   */
  const addTypeface = (): Promise<unknown> => {
    const data = document.getElementById('typeface')?.textContent;
    if (!data || !('fonts' in document)) return Promise.resolve();
    const { family, weight, faces } = JSON.parse(data) as {
      family: string;
      weight: string;
      faces: { src: string; unicodeRange: string }[];
    };
    const [firstView, ...rest] = faces.map(
      ({ src, unicodeRange }) => new FontFace(family, `url(${src})`, { weight, unicodeRange, display: 'swap' }),
    );
    if (!firstView) return Promise.resolve();
    // A file that does not arrive leaves the page in the fallback, as it has been drawn.
    const added = firstView.load().then(
      () =>
        new Promise((resolve) => {
          let faceAdded = false;
          const near = new IntersectionObserver(
            (entries) => {
              for (const { target, isIntersecting } of entries) {
                if (!isIntersecting) continue;
                target.setAttribute(TYPEFACE_ATTRIBUTE, '');
                near.unobserve(target);
              }
              if (faceAdded) return;
              faceAdded = true;
              // In the same task as the first blocks are set: adding a face lays out every text of the page again, whatever its font, so the two share that pass.
              for (const face of [firstView, ...rest]) document.fonts.add(face);
              // Past the frame that lays the page out: a task queued from its animation frame runs after its rendering.
              requestAnimationFrame(() => setTimeout(resolve));
            },
            { rootMargin: NEAR },
          );
          for (const block of document.querySelectorAll(BLOCKS)) near.observe(block);
        }),
      () => undefined,
    );
    return Promise.race([added, new Promise((resolve) => setTimeout(resolve, TYPEFACE_WAIT_MS))]);
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
      void Promise.resolve().then(addTypeface).then(afterLoad, afterLoad);
    }).observe({ type: 'paint', buffered: true });
  } else void Promise.resolve().then(addTypeface).then(afterLoad, afterLoad);
})();
