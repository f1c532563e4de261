import { Suspense } from 'react';
import { FormResult } from './components/FormResult';
import { HOME_PARTS, HomePage } from './components/HomePage';
import { NotFound } from './components/NotFound';
import { PrivacyPage } from './components/PrivacyPage';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import { formResultOf, type Route } from './routes';

function Page({ route }: { route: Route }) {
  const result = formResultOf(route);
  if (result !== undefined) return <FormResult result={result} />;
  if (route === 'home') return <HomePage />;
  if (route === 'privacy') return <PrivacyPage />;
  return <NotFound />;
}

/** The parts of a route's page that hydrate each on its own turn (see hydration.ts), by element id. */
export function partsOf(route: Route): readonly string[] {
  return route === 'home' ? HOME_PARTS : [];
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
