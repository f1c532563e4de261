/**
 * `npm run where -- <function> <position>…`: where in the TypeScript a function's logged
 * error was thrown. An unexpected error's log line carries `where`, the bundle's positions
 * innermost first (`index.mjs:37:9456 < index.mjs:37:8120`); paste it, or the positions one
 * by one. Run it at the commit of the release that logged them (its git tag): the bundle is
 * built again with its source map, and only the same commit gives the same positions.
 * Exit code 0: every position was found; 1: one was not; 2: the command line was wrong.
 */
import { parseArgs } from 'node:util';
import { HANDLER_ENTRIES, sourcePositions, type HandlerName } from '@site/lambda/bundle';

const FUNCTIONS = Object.keys(HANDLER_ENTRIES) as HandlerName[];
const USAGE = `Usage: npm run where -- <${FUNCTIONS.join('|')}> <position>… (as logged in "where": index.mjs:37:9456 < index.mjs:37:8120)`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let positionals: string[];
try {
  ({ positionals } = parseArgs({ allowPositionals: true, options: {} }));
} catch (error) {
  fail((error as Error).message);
}
const [name, ...rest] = positionals;
if (name === undefined || !FUNCTIONS.includes(name as HandlerName)) fail(`Name the function: ${FUNCTIONS.join(', ')}.`);
const logged = rest
  .flatMap((argument) => argument.split('<'))
  .map((position) => position.trim())
  .filter(Boolean);
if (logged.length === 0) fail('Give at least one position.');

const found = await sourcePositions(name as HandlerName, logged);
for (const { logged: position, source, name: at } of found) {
  console.log(
    source ? `${position}  ${source}${at ? ` (${at})` : ''}` : `${position}  not in this build's map: is this the release's commit?`,
  );
}
process.exit(found.every((position) => position.source) ? 0 : 1);
