import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** In dev the page is not prerendered; it still gets the real <head> (title, icon, meta). */
function devHead(): Plugin {
  return {
    name: 'dev-head',
    apply: 'serve',
    async transformIndexHtml(html, { server }) {
      const { renderHead } = (await server!.ssrLoadModule('/src/head.ts')) as typeof import('./src/head');
      return html.replace('<!--app-head-->', renderHead('home'));
    },
  };
}

export default defineConfig({
  plugins: [react(), devHead()],
  define: {
    // Prerender and hydration must print the same year; see useCurrentYear.
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  build: {
    // Every browser that runs this site supports modulepreload; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
  },
});
