import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './App';
import { renderHead } from './head';
import type { Route } from './routes';

/** Used by the prerender step only: the page's markup and its <head> tags for one route. */
export async function render(route: Route): Promise<{ html: string; head: string }> {
  // prerender, not renderToString: it waits for the pages that load as chunks of their own.
  // An unbounded chunk size keeps every boundary in place, where React would otherwise move
  // large ones after the page with an inline script (for streaming) that the CSP refuses.
  const { prelude } = await prerender(
    <StrictMode>
      <App route={route} />
    </StrictMode>,
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  return { html: await new Response(prelude).text(), head: renderHead(route) };
}
