import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './App';
import { renderHead } from './head';
import type { Route } from './routes';

/** Used by the prerender step only: the page's markup and its <head> tags for one route. */
export function render(route: Route): { html: string; head: string } {
  const html = renderToString(
    <StrictMode>
      <App route={route} />
    </StrictMode>,
  );
  return { html, head: renderHead(route) };
}
