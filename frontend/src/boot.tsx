import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, partsOf, ROOT_ID } from './App';
import { scheduleHydration, takeEarlyTap } from './hydration';
import { routeFor } from './routes';

/** Hydrates the prerendered page (or renders one that is not prerendered). */
export function start(): void {
  const container = document.getElementById(ROOT_ID)!;
  const route = routeFor(window.location.pathname);
  const app = (
    <StrictMode>
      <App route={route} />
    </StrictMode>
  );
  // Hydrate only markup prerendered for this very route. Anything else (the dev server's empty
  // page, a host that answers every path with index.html) is rendered fresh instead of patched.
  const tapped = takeEarlyTap();
  if (container.dataset.route === route) {
    scheduleHydration(partsOf(route), tapped);
    // As a transition, React renders the hydration in slices of 5 ms and lets the browser in
    // between; otherwise the page's frame and its first part would render in one task.
    startTransition(() => void hydrateRoot(container, app));
  } else {
    createRoot(container).render(app);
  }
}
