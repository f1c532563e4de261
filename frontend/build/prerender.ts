/**
 * Last build step: renders each route with the server bundle into the client build's
 * index.html, so dist/index.html, dist/privacy.html, dist/404.html and the form's result pages carry the whole
 * page before any script runs; writes the icons, the web manifest and the share picture
 * (brand-files.ts); writes the stylesheets again, as one, under the fixed name the function's answer to a
 * refused form post links (FORM_ANSWER_STYLESHEET); and fills the site origin into robots.txt and sitemap.xml.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brandFiles } from './brand-files';
import { FORM_ANSWER_STYLESHEET } from '@site/core/contract';
import { SITE_ORIGIN_TOKEN } from './build-facts';
import { SITE_ORIGIN } from '../src/content/site';
import { PAGE_PATHS, type Route } from '../src/routes';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ssrDir = join(root, '.ssr');

/** Each route's file in dist/: the edge serves /<name> from <name>.html (/controleer-bericht/email too). */
const PAGES: [Route, string][] = [
  ...Object.entries(PAGE_PATHS).map(([route, path]): [Route, string] => [
    route as Route,
    path === '/' ? 'index.html' : `${path.slice(1)}.html`,
  ]),
  ['not-found', '404.html'],
];

function fill(template: string, slots: Record<string, string>): string {
  return Object.entries(slots).reduce((html, [slot, value]) => {
    if (!html.includes(slot)) throw new Error(`index.html has no ${slot}; the prerender cannot place its output.`);
    return html.replace(slot, () => value);
  }, template);
}

const { render } = (await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href)) as typeof import('../src/entry-server');
const template = readFileSync(join(dist, 'index.html'), 'utf8');

for (const [route, file] of PAGES) {
  const { head, html } = await render(route);
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  writeFileSync(join(dist, file), fill(template, { '<!--app-head-->': head, '<!--app-route-->': route, '<!--app-html-->': html }));
}

for (const [path, body] of await brandFiles()) writeFileSync(join(dist, path), body);

// The refused-post page links one stylesheet under a fixed name: the page's own, in the order
// index.html links them (the site's styles, then the typeface's faces), as one file; then the
// firm's page of held messages' few rules, which the site's own pages never load.
const stylesheets = [...template.matchAll(/<link rel="stylesheet"[^>]* href="\/([^"]+\.css)"/g)].map((match) => match[1]!);
if (stylesheets.length === 0) throw new Error('index.html links no stylesheet; the refused-post page would wear none.');
const heldPageStyles = readFileSync(join(root, 'src/styles/held-page.css'), 'utf8');
writeFileSync(
  join(dist, FORM_ANSWER_STYLESHEET.slice(1)),
  [...stylesheets.map((file) => readFileSync(join(dist, file), 'utf8')), heldPageStyles].join('\n'),
);

for (const file of ['robots.txt', 'sitemap.xml']) {
  const path = join(dist, file);
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll(SITE_ORIGIN_TOKEN, SITE_ORIGIN));
}

rmSync(ssrDir, { recursive: true, force: true });
console.log(`prerendered ${PAGES.length} pages into dist/ for ${SITE_ORIGIN}`);
