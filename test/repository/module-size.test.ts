/**
 * The function's modules stay small enough to read in one sitting: none under lambda/src is
 * over 300 lines unless its header comment says why its size is earned, in a sentence that
 * starts "Its size:".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..', '..', 'lambda', 'src');
const MAX_LINES = 300;

it(`keeps every module of the function at ${MAX_LINES} lines or says in its header why not`, () => {
  const modules = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' }).filter((path) => /(?<!\.test)\.ts$/.test(path));
  expect(modules.length).toBeGreaterThan(10);
  const oversized = modules.flatMap((path) => {
    const text = readFileSync(join(SOURCE, path), 'utf8');
    const lines = text.trimEnd().split('\n').length;
    const header = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
    return lines > MAX_LINES && !/Its size:/.test(header) ? [`${path}: ${lines} lines`] : [];
  });
  expect(oversized).toEqual([]);
});
