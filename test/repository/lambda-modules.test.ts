/**
 * The functions' modules (lambda/src) are grouped by concern so that one can be read without
 * the rest: at most 12 files at any level, none over 300 lines unless it says why, no import
 * cycle (type-only imports included), and what every function shares below the concerns.
 * `npm run lint` holds the size (ESLint's max-lines) and the import graph (dependency-cruiser,
 * .dependency-cruiser.cjs); this proves those checks refuse what they must.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = join(ROOT, 'lambda', 'src');
const MAX_FILES = 12;

const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as Required<
  Pick<IConfiguration, 'forbidden' | 'options'>
>;

/** The rules the lint runs, over `files`, as `rule: from → to` for each violation. */
async function violations(files: string[], options: { baseDir: string; includeOnly?: string; tsConfig?: string }): Promise<string[]> {
  const { tsConfig, ...cruiseOptions } = options;
  const { output } = await cruise(
    files,
    {
      ...config.options,
      ...cruiseOptions,
      tsConfig: tsConfig ? { fileName: tsConfig } : undefined,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    },
    {},
    tsConfig ? { tsConfig: extractTSConfig(tsConfig) } : {},
  );
  return (output as ICruiseResult).summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
}

describe('lambda/src', () => {
  it(`holds at most ${MAX_FILES} files in any folder`, () => {
    const folders = [
      SOURCE,
      ...readdirSync(SOURCE, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(entry.parentPath, entry.name)),
    ];
    const crowded = folders.flatMap((folder) => {
      const files = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile());
      return files.length > MAX_FILES ? [`${relative(ROOT, folder)}: ${files.length} files`] : [];
    });
    expect(folders.length).toBeGreaterThan(5);
    expect(crowded).toEqual([]);
  });

  it('has no import cycle, and its shared modules import none of the concerns above them', async () => {
    expect(await violations(['lambda/src'], { baseDir: ROOT, tsConfig: join(ROOT, 'lambda', 'tsconfig.json') })).toEqual([]);
  });
});

describe('the size check', () => {
  // The repository's lint configuration with only the rule under test: no TypeScript program to build.
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'max-lines',
  });
  const lineCount = async (text: string, file = 'lambda/src/contact/answer.ts') => {
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) });
    return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
  };
  const module = (lines: number) => `${Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};`).join('\n')}\n`;

  it('refuses a module of the function over 300 lines, and lets one of 300 through', async () => {
    expect(await lineCount(module(300))).toEqual([]);
    expect(await lineCount(module(301))).toEqual(['max-lines: File has too many lines (301). Maximum allowed is 300.']);
  });

  it('lets a module through that says at its top why its size is earned', async () => {
    expect(await lineCount(`/* eslint-disable max-lines -- Its size: one table, read as one. */\n${module(320)}`)).toEqual([]);
  });
});

describe('the import check', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));
  const write = (path: string, text: string) => writeFileSync(join(fixture, path), text);

  it('refuses a cycle of type-only imports, which leaves nothing in the bundle but ties the modules all the same', async () => {
    write(
      'answer.ts',
      "import type { Summary } from './count';\nexport type Outcome = 'stored' | 'refused';\nexport const summaries: Summary[] = [];\n",
    );
    write('count.ts', "import type { Outcome } from './answer';\nexport interface Summary { outcome: Outcome }\n");
    write('entry.ts', "import { summaries } from './answer';\nexport default summaries;\n");
    // One violation per cycle, named from its first module.
    expect(await violations(['.'], { baseDir: fixture, includeOnly: '' })).toEqual(['no-cycle: answer.ts → count.ts']);
  });

  it('refuses a shared module that imports a concern, and a module that imports an entry', async () => {
    for (const folder of ['shared', 'contact', 'handlers']) mkdirSync(join(fixture, 'lambda', 'src', folder), { recursive: true });
    write('lambda/src/contact/answer.ts', 'export const answer = (status: number) => ({ status });\n');
    write('lambda/src/shared/log.ts', "import { answer } from '../contact/answer';\nexport const logged = answer(200);\n");
    write('lambda/src/handlers/send.ts', "import { logged } from '../shared/log';\nexport const handler = () => logged;\n");
    write('lambda/src/contact/form.ts', "import { handler } from '../handlers/send';\nexport const form = handler;\n");
    expect(await violations(['lambda/src'], { baseDir: fixture })).toEqual([
      'entries-are-entries: lambda/src/contact/form.ts → lambda/src/handlers/send.ts',
      'shared-stays-below: lambda/src/shared/log.ts → lambda/src/contact/answer.ts',
    ]);
  });
});
