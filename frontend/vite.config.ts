import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { bareDynamicImport } from './build/bare-dynamic-import.ts';
import { checkContentFacts, deploymentDefines, SITE_ORIGIN_TOKEN, siteOrigin } from './build/build-facts.ts';
import { inlineLoader } from './build/inline-loader.ts';
import { typeface } from './build/typeface.ts';

/** In dev the page is not prerendered; it still gets the real <head> (title, icon, meta) of its route. */
function devHead(): Plugin {
  return {
    name: 'dev-head',
    apply: 'serve',
    async transformIndexHtml(html, { server, originalUrl }) {
      const { renderHead } = (await server!.ssrLoadModule('/src/head.ts')) as typeof import('./src/head');
      const { routeFor } = (await server!.ssrLoadModule('/src/routes.ts')) as typeof import('./src/routes');
      return html.replace('<!--app-head-->', renderHead(routeFor(new URL(originalUrl ?? '/', 'http://dev').pathname)));
    },
  };
}

/** The print stylesheet writes out where a link goes, with the site's public address in front. */
function siteOriginInCss(origin: string): Plugin {
  return {
    name: 'site-origin-in-css',
    transform(code, id) {
      return id.endsWith('.css') && code.includes(SITE_ORIGIN_TOKEN) ? code.replaceAll(SITE_ORIGIN_TOKEN, origin) : undefined;
    },
  };
}

export default defineConfig(async ({ command }) => {
  // A build ships production React and JSX even when a test run (NODE_ENV=test) starts it:
  // Vite takes NODE_ENV as it finds it, and anything else gives React's development build.
  // Vite reads it only after loading this file, so setting it here is in time.
  if (command === 'build') process.env.NODE_ENV = 'production';
  await checkContentFacts();
  const origin = await siteOrigin();
  return {
    plugins: [
      react(),
      devHead(),
      inlineLoader(),
      bareDynamicImport(),
      // The server bundle, which `npm run build` makes first: the typeface is cut to the text of the pages it renders.
      typeface({ ssrDir: join(import.meta.dirname, '.ssr'), filled: { [SITE_ORIGIN_TOKEN]: origin } }),
      siteOriginInCss(origin),
    ],
    define: {
      // Prerender and hydration must print the same year; see useCurrentYear.
      __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
      ...(await deploymentDefines()),
    },
    // The stamp worker (src/contact/stamp-worker.ts) as an ES module, as the page starts it.
    worker: { format: 'es' as const },
    build: {
      // The app is imported after the first paint on purpose (src/loader.ts): nothing to preload.
      modulePreload: false,
    },
  };
});
