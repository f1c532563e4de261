/**
 * The workspaces form layers that only import downward (docs/design.md, "Layers"): a wrong
 * import fails `npm run lint` with a message that names the rule, and no workspace's
 * package.json depends on a workspace above it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = (workspace: string) =>
  JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };

/** What each workspace may import, as the lint rule holds it. */
const { LAYERS } = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { LAYERS: Record<string, string[]> };

async function importErrors(file: string, specifier: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(`import * as other from '${specifier}';\nexport const used = other;\n`, {
    filePath: join(ROOT, file),
  });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('the layers', () => {
  it('refuse an import of a workspace above, naming the rule and what the workspace may import', async () => {
    const [fromCore] = await importErrors('core/src/contract.ts', '@site/lambda/store');
    expect(fromCore).toContain('Layer rule (docs/design.md, "Layers"): core may import no other workspace');
    const [fromFunction] = await importErrors('lambda/src/store.ts', '@site/infra/edge-functions');
    expect(fromFunction).toContain('lambda may import @site/core');
    expect(await importErrors('frontend/src/routes.ts', '@site/lambda/http')).toHaveLength(1);
    expect(await importErrors('infra/lib/app.ts', '@site/local/stack')).toHaveLength(1);
  }, 60_000);

  it('let a workspace import the ones below it, and tests import anything', async () => {
    expect(await importErrors('infra/lib/app.ts', '@site/lambda/bundle')).toEqual([]);
    expect(await importErrors('local/src/stack.ts', '@site/infra/edge-functions')).toEqual([]);
    expect(await importErrors('lambda/test/schema.test.ts', '@site/local/emulators')).toEqual([]);
  }, 60_000);

  it('hold in every package.json: a workspace depends only on the ones below it', () => {
    expect(Object.keys(LAYERS).sort()).toEqual(
      [...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces].sort(),
    );
    for (const [workspace, below] of Object.entries(LAYERS)) {
      const dependencies = Object.keys(manifest(workspace).dependencies ?? {}).filter((name) => name.startsWith('@site/'));
      expect(
        dependencies.filter((name) => !below.includes(name.slice('@site/'.length))),
        `${workspace}/package.json`,
      ).toEqual([]);
    }
  });
});
