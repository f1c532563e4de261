import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { deploymentDefines } from './build-facts.ts';

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

/**
 * Nothing on the first view needs script (see src/main.ts), so the entry is fetched at low
 * priority and never competes with the HTML and CSS. Vite writes the tag itself, hence here.
 */
function lowPriorityEntry(): Plugin {
  const entryTag = '<script type="module" crossorigin';
  return {
    name: 'low-priority-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(entryTag)) throw new Error(`No ${entryTag} in index.html to mark as low priority.`);
        return html.replace(entryTag, '<script type="module" fetchpriority="low" crossorigin');
      },
    },
  };
}

export default defineConfig(async ({ command }) => {
  // A build ships production React and JSX even when a test run (NODE_ENV=test) starts it:
  // Vite takes NODE_ENV as it finds it, and anything else gives React's development build.
  // Vite reads it only after loading this file, so setting it here is in time.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), devHead(), lowPriorityEntry()],
    define: {
      // Prerender and hydration must print the same year; see useCurrentYear.
      __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
      ...(await deploymentDefines()),
    },
    build: {
      // The app chunk is imported after first paint on purpose (see main.ts): nothing to preload.
      modulePreload: false,
    },
  };
});
