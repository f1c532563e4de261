/**
 * The proof-of-work stamp part of `npm run bench` on its own (`npx tsx --tsconfig
 * bench/tsconfig.json bench/run-stamp-solve.ts`, after `npm run build`), for checking it
 * after a change to the difficulty or the worker: the same measurement, its rows of the table
 * and its section. Writes no report.
 */
import { DEFAULT_SITE_DIR } from '@site/local/stack';
import { stampSolveRows } from './budget-rows';
import { stampSolveSection } from './markdown';
import { renderText } from './report';
import { measureStampSolves, STAMP_SOLVES } from './stamp-solve';

const stamp = await measureStampSolves({ siteDir: DEFAULT_SITE_DIR, solves: STAMP_SOLVES });
console.log(`${stampSolveSection(stamp).join('\n')}\n${renderText(stampSolveRows(stamp))}`);
console.log(`ready, each in ms: ${stamp.solves.map((solve) => Math.round(solve.readyMs)).join(' ')}`);
process.exit(0);
