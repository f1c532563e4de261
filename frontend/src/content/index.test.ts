/**
 * Content modules are registered by name in index.ts, not by an import's side effect: a
 * content module that marks placeholders but is missing from the list would let its sample
 * facts go live, so this test finds every module that marks any.
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_DIR, CONTENT_MODULES, PLACEHOLDERS_BY_FILE } from './index';

/** The source of every module beside this one, by file name. */
const SOURCES = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['./*.ts', '!./*.test.ts', '!./index.ts'], { query: '?raw', import: 'default', eager: true }),
  ).map(([path, source]) => [path.replace('./', ''), source]),
);

describe('the content index', () => {
  it('lists every content module that marks placeholder(…) facts', () => {
    const marking = Object.keys(SOURCES).filter((file) => SOURCES[file]!.includes('placeholders()'));
    expect(marking.length).toBeGreaterThan(0);
    expect(
      Object.keys(CONTENT_MODULES)
        .map((name) => `${name}.ts`)
        .sort(),
    ).toEqual(marking.sort());
  });

  it('names each module by the file the firm edits, from the repository root', () => {
    expect(new URL(import.meta.url).pathname.endsWith(`/${CONTENT_DIR}/index.test.ts`)).toBe(true);
    for (const file of PLACEHOLDERS_BY_FILE.keys()) expect(Object.keys(SOURCES).map((name) => `${CONTENT_DIR}/${name}`)).toContain(file);
  });
});
