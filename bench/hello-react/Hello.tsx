import { useLayoutEffect } from 'react';
import { HYDRATED_MARK } from '@site/frontend/hydration';

/**
 * The trivial tree of the React-only page. Once React has hydrated it, it leaves the mark the
 * site leaves when its whole page has hydrated, so the bench can tell that a Lighthouse run
 * recorded the hydration of both pages.
 */
export function Hello() {
  useLayoutEffect(() => void performance.mark(HYDRATED_MARK), []);
  return <h1>Hello, world</h1>;
}
