/**
 * The floor for first-load JavaScript: React 19 + react-dom rendering one element, built
 * in the same run with the same toolchain as the site (Vite + @vitejs/plugin-react,
 * production mode) and served by the same edge. Building it every run, rather than quoting
 * the design's ~69 KB, keeps the ratio honest when React, Vite or the minifier change.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { scriptSizes, scriptsNamedIn, type ScriptSize } from './page-weight';
import { startStaticSite } from './static-site';

const HELLO_ROOT = join(dirname(fileURLToPath(import.meta.url)), 'hello-react');

export interface ReactFloor {
  scripts: ScriptSize[];
  js: { raw: number; gzip: number; br: number };
  reactVersion: string;
  viteVersion: string;
}

export async function measureReactFloor(outDir: string): Promise<ReactFloor> {
  // No config file: Vite's defaults plus the React plugin, which is what "React alone" means.
  // `react` resolves from the repository's node_modules, the same copy the site bundles.
  await build({
    root: HELLO_ROOT,
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  // The edge insists on a 404 page, as the site has one.
  copyFileSync(join(outDir, 'index.html'), join(outDir, '404.html'));
  const server = await startStaticSite(outDir);
  try {
    const { scripts, js } = await scriptSizes(server.url, scriptsNamedIn(html));
    if (scripts.length === 0) throw new Error('The React floor build names no script in its index.html');
    const version = (pkg: string) =>
      (JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${pkg}/package.json`)), 'utf8')) as { version: string }).version;
    return { scripts, js, reactVersion: version('react'), viteVersion: version('vite') };
  } finally {
    await server.close();
  }
}
