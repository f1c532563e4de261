/**
 * The docs stay short enough to be read: the design describes today in at most 400 lines (the
 * decisions and the measured figures live elsewhere), and a folder's README, the detail behind
 * the root README's one line, in at most 60.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = [...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces, 'bench', 'test'];
const lines = (page: string) => readFileSync(join(ROOT, page), 'utf8').trimEnd().split('\n').length;

describe('the docs’ length', () => {
  it('keeps docs/design.md within 400 lines', () => {
    expect(lines('docs/design.md')).toBeLessThanOrEqual(400);
  });

  it.each(FOLDERS.map((folder) => `${folder}/README.md`).filter((page) => existsSync(join(ROOT, page))))(
    'keeps %s within 60 lines',
    (page) => {
      expect(lines(page)).toBeLessThanOrEqual(60);
    },
  );
});
