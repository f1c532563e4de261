/**
 * Content files are registered by path in content-files.ts, not by an import's side effect: a
 * content file that marks placeholders but is missing from the list would let its sample
 * facts go live, so this test finds every file that marks any, in both content folders.
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_FACTS, CONTENT_MODULES, PLACEHOLDERS_BY_FILE } from './content-files';

/** The source of every content module, by its path from the repository's root; tests left out. */
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries({
    ...import.meta.glob<string>(['./src/content/*.ts', '!./src/content/*.test.ts'], { query: '?raw', import: 'default', eager: true }),
    ...import.meta.glob<string>('../core/src/content/*.ts', { query: '?raw', import: 'default', eager: true }),
  }).map(([path, source]) => [path.startsWith('./') ? `frontend/${path.slice(2)}` : path.replace('../', ''), source]),
);

describe('the content index', () => {
  it('lists every content file that marks placeholder(…) facts', () => {
    const marking = Object.keys(SOURCES).filter((file) => SOURCES[file]!.includes('placeholders()'));
    expect(marking).toContain('core/src/content/firm.ts');
    expect(Object.keys(CONTENT_MODULES).sort()).toEqual(marking.sort());
  });

  it('names each file by its path from the repository root, as the firm finds it', () => {
    for (const file of [...PLACEHOLDERS_BY_FILE.keys(), ...CONTENT_FACTS.map((facts) => facts.file)]) {
      expect(Object.keys(SOURCES), file).toContain(file);
    }
  });
});
