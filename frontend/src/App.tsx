import { HomePage } from './components/HomePage';
import { NotFound } from './components/NotFound';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import type { Route } from './routes';

export function App({ route }: { route: Route }) {
  return <RouteErrorBoundary>{route === 'home' ? <HomePage /> : <NotFound />}</RouteErrorBoundary>;
}
