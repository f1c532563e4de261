// size-limit's check (`npx size-limit` after `npm run build`; `npm run bench` runs it too): the
// site's first-load JavaScript against its budget, counted as frontend/build/first-load.ts
// counts it for every measure. size-limit measures files, so the inline loader's text is
// written to a file of its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_LOAD_JS_BUDGET_BYTES, firstLoadOf } from './frontend/build/first-load.ts';

const dist = join(import.meta.dirname, 'frontend/dist');
const { inline, files } = firstLoadOf(dist);
const loaderDir = join(import.meta.dirname, 'node_modules/.cache/size-limit');
mkdirSync(loaderDir, { recursive: true });
writeFileSync(join(loaderDir, 'inline-loader.js'), inline);

export default [
  {
    name: 'First-load JavaScript: the inline loader, the entry and its static imports, gzip',
    path: [...files.map((file) => join('frontend/dist', file)), 'node_modules/.cache/size-limit/inline-loader.js'],
    gzip: true,
    limit: `${FIRST_LOAD_JS_BUDGET_BYTES} B`,
  },
];
