import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './App';
import { HOME_COPY, HomeCopyProvider, type HomeCopy } from './components/home-copy';
import { renderHead } from './head';
import type { Route } from './routes';

/**
 * Used by the prerender step: the page's markup and its <head> tags for one route. `copy`
 * sets the home page's sections in other texts than the firm's (the typography test's
 * invented ones); the build renders the firm's.
 */
export async function render(route: Route, { copy = HOME_COPY }: { copy?: HomeCopy } = {}): Promise<{ html: string; head: string }> {
  // prerender, not renderToString: it waits for the pages that load as chunks of their own.
  // An unbounded chunk size keeps every boundary in place, where React would otherwise move
  // large ones after the page with an inline script (for streaming) that the CSP refuses.
  const { prelude } = await prerender(
    <StrictMode>
      <HomeCopyProvider value={copy}>
        <App route={route} />
      </HomeCopyProvider>
    </StrictMode>,
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  return { html: await new Response(prelude).text(), head: renderHead(route) };
}
