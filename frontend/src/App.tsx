import type { ReactNode } from 'react';
import { HomePage } from './components/HomePage';
import { NotFound } from './components/NotFound';
import { PrivacyPage } from './components/PrivacyPage';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import type { Route } from './routes';

const PAGES: Record<Route, () => ReactNode> = {
  home: () => <HomePage />,
  privacy: () => <PrivacyPage />,
  'not-found': () => <NotFound />,
};

export function App({ route }: { route: Route }) {
  return <RouteErrorBoundary>{PAGES[route]()}</RouteErrorBoundary>;
}
