import { FormResult } from './components/FormResult';
import { HomePage } from './components/HomePage';
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

export function App({ route }: { route: Route }) {
  return (
    <RouteErrorBoundary>
      <Page route={route} />
    </RouteErrorBoundary>
  );
}
