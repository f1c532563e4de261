/**
 * The pages Lighthouse measures beside the site, each served by the local edge as the site
 * is (CloudFront's headers and compression), so Lighthouse compares content, not servers:
 * the no-script and no-font pages made from the build, the React-only page built in the
 * same run with the same toolchain, and the release before the typeface built from git.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import type { RunningServer } from '@site/emulators/servers';
import { inlineLoader } from '@site/frontend/inline-loader';
import { TYPEFACE_ELEMENT_ID } from '@site/frontend/typeface';
import { startEdge } from '@site/local/edge';
import { RELEASE_BEFORE_TYPEFACE } from './budgets';
import { Hello } from './hello-react/Hello';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export function startStaticSite(siteDir: string): Promise<RunningServer> {
  return startEdge({
    port: 0,
    siteDir,
    // These copies have no API; nothing on their pages calls it.
    handler: () => Promise.resolve({ statusCode: 404, body: '' }),
    functionName: 'none',
    functionTimeoutMs: 1000,
    originSecret: 'none: no function to prove anything to',
  });
}

type Change = (html: string) => { html: string; removed: number };

/** Replaces every match, counting them. */
const removing =
  (...patterns: RegExp[]): Change =>
  (html) => {
    let removed = 0;
    const out = patterns.reduce((text, pattern) => text.replace(pattern, () => (removed++, '')), html);
    return { html: out, removed };
  };

/** Every `<script>` element (the loader, JSON-LD, the typeface's data) and every modulepreload link. */
export const stripScripts = removing(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, /<link\b[^>]*\brel\s*=\s*["']?modulepreload\b[^>]*>/gi);

/**
 * Where the page names its web font: the typeface's data block, from which the loader sets the
 * page in it at the first paint, and the stylesheet that does so without script
 * (frontend/build/typeface.ts). Without both the faces are used by no text and never fetched.
 */
export const stripTypeface = removing(
  new RegExp(`<script\\b[^>]*\\bid="${TYPEFACE_ELEMENT_ID}"[^>]*>[\\s\\S]*?</script\\s*>`, 'gi'),
  /<noscript>\s*<link\b[^>]*\brel="stylesheet"[^>]*\/typeface-[^>]*>\s*<\/noscript>/gi,
);

/** A copy of the build with its home page changed, which must remove something: a page the same as the site's would pass whatever the site costs. */
export function writeChangedSite(distDir: string, outDir: string, what: string, change: Change): { removed: number } {
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} has no index.html: run \`npm run build\` first.`);
  rmSync(outDir, { recursive: true, force: true });
  cpSync(distDir, outDir, { recursive: true });
  const { html, removed } = change(readFileSync(join(outDir, 'index.html'), 'utf8'));
  if (removed === 0) throw new Error(`The built index.html has no ${what} to remove: the bench no longer knows how the page names it.`);
  writeFileSync(join(outDir, 'index.html'), html);
  return { removed };
}

/**
 * React 19 hydrating a trivial prerendered tree (hello-react/), built with Vite's defaults plus
 * what the site's build adds for loading: its inline loader, which imports the entry after the
 * first paint. Loaded as a plain module script, React's evaluation would fall before the paint
 * and out of the window the longest-task budget counts. Built every run, so the floor follows
 * React, Vite and the minifier.
 */
export async function buildReactOnlyPage(outDir: string): Promise<void> {
  await build({
    root: join(BENCH_DIR, 'hello-react'),
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react(), inlineLoader()],
    build: { outDir, emptyOutDir: true, modulePreload: false },
  });
  const indexPath = join(outDir, 'index.html');
  writeFileSync(
    indexPath,
    readFileSync(indexPath, 'utf8').replace('<!--app-->', () => renderToString(createElement(Hello))),
  );
  // The edge insists on a 404 page, as the site has one.
  copyFileSync(indexPath, join(outDir, '404.html'));
}

const run = promisify(execFile);

/**
 * The release before the typeface, built once from git with its own lockfile into
 * bench/.work (about a minute: its `npm ci` from the registry, its build), and its built
 * folder returned. Built under another name and renamed when done, so an interrupted build is
 * never taken for a finished one. Not blocking: the bench's local stack serves from this process.
 */
export async function buildReleasePage(workDir: string): Promise<string> {
  const releaseDir = resolve(workDir, `release-${RELEASE_BEFORE_TYPEFACE.slice(0, 7)}`);
  const built = join(releaseDir, 'frontend', 'dist');
  if (existsSync(join(built, 'index.html'))) return built;
  const root = (await run('git', ['rev-parse', '--show-toplevel'], { cwd: BENCH_DIR })).stdout.trim();
  await run('git', ['cat-file', '-e', `${RELEASE_BEFORE_TYPEFACE}^{commit}`], { cwd: root }).catch(() => {
    throw new Error(`commit ${RELEASE_BEFORE_TYPEFACE.slice(0, 7)} is not in this clone (a shallow one?): run \`git fetch --unshallow\`.`);
  });
  const building = `${releaseDir}.building`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  console.log(`  building the release before the typeface from git, once (npm ci and its build, about a minute): ${releaseDir}`);
  await run('git', ['archive', '--output', join(building, 'release.tar'), RELEASE_BEFORE_TYPEFACE], { cwd: root });
  await run('tar', ['-xf', 'release.tar'], { cwd: building });
  // Neither npm's settings for this checkout (npm_config_local_prefix) nor tsx's (a tsconfig path relative to it) may steer the release's install and build.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|tsx_)/i.test(name)));
  const options = { cwd: building, env, maxBuffer: 64 * 2 ** 20 };
  await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], options);
  await run('npm', ['run', 'build'], options);
  await rm(releaseDir, { recursive: true, force: true });
  await rename(building, releaseDir);
  return built;
}
