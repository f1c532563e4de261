/**
 * The React-only page, the floor for any React site: React 19 + react-dom hydrating a
 * trivial prerendered tree (hello-react/), built in the same run with the same toolchain as
 * the site (Vite + @vitejs/plugin-react, production mode, no module preload) and served by
 * the same edge. Building it every run, rather than quoting a figure, keeps the comparison
 * honest when React, Vite or the minifier change.
 *
 * It floors two budgets: first-load JavaScript (its bytes) and the longest task after the
 * first paint (Lighthouse measures it beside the site in the same run). It starts the way the
 * site does, through the site's inline loader (frontend/src/loader.ts: the entry is imported
 * once the page has painted and loaded, when the browser is idle), so the two differ only in
 * what the site's own code adds. A plain module script would be fetched and evaluated while
 * the page loads, before its first paint on loopback, and React's evaluation would drop out
 * of the window the budget counts: a floor no site that loads its script after the paint
 * could reach.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import { inlineLoader } from '@site/frontend/inline-loader';
import { Hello } from './hello-react/Hello';
import { scriptSizes, scriptsNamedIn, type ScriptSize } from './page-weight';
import { startStaticSite } from './static-site';

const HELLO_ROOT = join(dirname(fileURLToPath(import.meta.url)), 'hello-react');
/** Where the prerendered tree goes in hello-react/index.html. */
const APP_PLACEHOLDER = '<!--app-->';

export interface ReactFloor {
  scripts: ScriptSize[];
  js: { raw: number; gzip: number; br: number };
  reactVersion: string;
  viteVersion: string;
}

/** Builds the React-only page into `outDir`, prerendered, with the site's inline loader. */
export async function buildReactOnlyPage(outDir: string): Promise<void> {
  // No config file: Vite's defaults plus what the site's build adds for loading, which is
  // what "React alone" means. `react` resolves from the repository's node_modules, the same
  // copy the site bundles.
  await build({
    root: HELLO_ROOT,
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react(), inlineLoader()],
    build: { outDir, emptyOutDir: true, modulePreload: false },
  });
  const indexPath = join(outDir, 'index.html');
  const html = readFileSync(indexPath, 'utf8');
  if (!html.includes(APP_PLACEHOLDER)) throw new Error(`hello-react/index.html has no ${APP_PLACEHOLDER} for the prerendered tree`);
  writeFileSync(
    indexPath,
    html.replace(APP_PLACEHOLDER, () => renderToString(createElement(Hello))),
  );
  // The edge insists on a 404 page, as the site has one.
  copyFileSync(indexPath, join(outDir, '404.html'));
}

/** The React-only page's JavaScript, as the edge serves it (built by buildReactOnlyPage). */
export async function measureReactFloor(outDir: string): Promise<ReactFloor> {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const server = await startStaticSite(outDir);
  try {
    const { scripts, js } = await scriptSizes(server.url, scriptsNamedIn(html));
    if (scripts.length === 0) throw new Error('The React-only page names no script in its index.html');
    const version = (pkg: string) =>
      (JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${pkg}/package.json`)), 'utf8')) as { version: string }).version;
    return { scripts, js, reactVersion: version('react'), viteVersion: version('vite') };
  } finally {
    await server.close();
  }
}
