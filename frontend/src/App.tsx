import { lazy, Suspense } from 'react';
import { HOME_PARTS, HomePage } from './components/HomePage';
import { NotFound } from './components/NotFound';
import { Part } from './components/Part';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import { formResultOf, type Route } from './routes';

/**
 * The privacy statement and the form's result pages are few visitors' pages, so they are
 * chunks of their own rather than weight in the home page's first-load JS. The prerender
 * waits for them (entry-server.tsx); in the browser each page is one part that keeps its
 * prerendered markup until its chunk has come and it has hydrated.
 */
const PrivacyPage = lazy(() => import('./components/PrivacyPage').then(({ PrivacyPage }) => ({ default: PrivacyPage })));
const FormResult = lazy(() => import('./contact/FormResult').then(({ FormResult }) => ({ default: FormResult })));

/** The element the app renders into, in every page. */
export const ROOT_ID = 'root';

function Page({ route }: { route: Route }) {
  if (route === 'home') return <HomePage />;
  if (route === 'not-found') return <NotFound />;
  const result = formResultOf(route);
  return <Part id={ROOT_ID}>{result === undefined ? <PrivacyPage /> : <FormResult {...result} />}</Part>;
}

/** The parts of a route's page that hydrate each on its own turn (see hydration.ts), by element id. */
export function partsOf(route: Route): readonly string[] {
  if (route === 'home') return HOME_PARTS;
  return route === 'not-found' ? [] : [ROOT_ID];
}

/**
 * The page sits in a Suspense boundary, which nothing suspends: React hydrates what is inside
 * a boundary at a low priority, in slices of a few milliseconds that leave the main thread
 * free in between, where the root's own hydration would be one task.
 */
export function App({ route }: { route: Route }) {
  return (
    <RouteErrorBoundary>
      <Suspense>
        <Page route={route} />
      </Suspense>
    </RouteErrorBoundary>
  );
}
