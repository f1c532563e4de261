// size-limit's checks (`npx size-limit` after `npm run build`; `npm run bench` runs them too):
// the site's first-load JavaScript, the budget of docs/design.md ("Budgets"). What the first
// view runs is the inline loader in index.html and the entry it imports (data-entry); the
// other chunks load when the visitor acts. size-limit measures files, so the loader's text is
// written to one of its own, and the entry is the one index.html names, not a glob that a new
// chunk could match.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, 'frontend/dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script\b[^>]*\bdata-entry="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('frontend/dist/index.html names no data-entry: has the loader changed?');
// Inline scripts the browser runs: no src, and no type or a JavaScript one (not JSON-LD, not the typeface's data).
const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
  .filter(
    ([, attributes]) =>
      !/\bsrc\s*=/i.test(attributes) && /^(|module|(text|application)\/javascript)$/i.test(/\btype="([^"]*)"/.exec(attributes)?.[1] ?? ''),
  )
  .map(([, , text]) => text);
const loaderDir = join(import.meta.dirname, 'node_modules/.cache/size-limit');
mkdirSync(loaderDir, { recursive: true });
writeFileSync(join(loaderDir, 'inline-loader.js'), inline.join('\n'));

export default [
  {
    name: 'First-load JavaScript: the inline loader and the entry, gzip',
    path: [join('frontend/dist', entry), 'node_modules/.cache/size-limit/inline-loader.js'],
    gzip: true,
    limit: '85 kB',
  },
];
