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
    devDependencies?: Record<string, string>;
    exports?: Record<string, string>;
  };
const siteDependencies = (dependencies: Record<string, string> = {}) =>
  Object.keys(dependencies)
    .filter((name) => name.startsWith('@site/'))
    .map((name) => name.slice('@site/'.length));

/** What each workspace, and each workspace's tests, may import, as the lint rule holds it. */
const { LAYERS, TEST_LAYERS } = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as {
  LAYERS: Record<string, string[]>;
  TEST_LAYERS: Record<string, string[]>;
};

/**
 * The repository's own lint configuration, running only the rule under test. Without the
 * type-aware rules it needs no TypeScript program, which took nine of this file's ten seconds
 * to build; the import rule reads nothing but the import.
 */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

async function importErrors(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as other from '${specifier}';\nexport const used = other;\n`, {
    filePath: join(ROOT, file),
  });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('the layers', () => {
  it('refuse an import of a workspace above, naming the rule and what the workspace may import', async () => {
    const [fromCore] = await importErrors('core/src/contract.ts', '@site/lambda/store');
    expect(fromCore).toContain('Layer rule (docs/design.md, "Layers"): core may import no other workspace');
    const [fromFunction] = await importErrors('lambda/src/store/store.ts', '@site/infra/edge-functions');
    expect(fromFunction).toContain('lambda may import @site/core');
    expect(await importErrors('frontend/src/routes.ts', '@site/lambda/http')).toHaveLength(1);
    expect(await importErrors('infra/lib/app.ts', '@site/local/stack')).toHaveLength(1);
  }, 60_000);

  it('let a workspace import the ones below it, and tests import anything', async () => {
    expect(await importErrors('infra/lib/app.ts', '@site/lambda/bundle')).toEqual([]);
    expect(await importErrors('local/src/stack.ts', '@site/infra/edge-functions')).toEqual([]);
    expect(await importErrors('lambda/test/schema.test.ts', '@site/testing/local-aws')).toEqual([]);
    expect(await importErrors('test/browser/home.spec.ts', '@site/local/stack')).toEqual([]);
    // A workspace's Playwright tests are its tests too.
    expect(await importErrors('frontend/lone-words.spec.ts', '@site/testing/lone-words')).toEqual([]);
  }, 60_000);

  it('hold for tests too: a test imports what its workspace may, and the test support', async () => {
    const [fromFunctionTest] = await importErrors('lambda/test/schema.test.ts', '@site/local/stack');
    expect(fromFunctionTest).toContain("lambda's tests may import @site/core, @site/emulators, @site/testing");
    expect(await importErrors('frontend/src/App.test.tsx', '@site/local/stack')).toHaveLength(1);
    expect(await importErrors('lambda/test/support/contact-stack.ts', '@site/ops/messages/render')).toHaveLength(1);
    // The test support stands below the function and the site: it cannot reach up into them.
    expect(await importErrors('testing/src/local-aws.ts', '@site/lambda/config')).toHaveLength(1);
    expect(await importErrors('core/test/facts.test.ts', '@site/testing/local-aws')).toHaveLength(1);
  }, 60_000);

  it("keep core/node out of the site's script and the function's bundle, naming the budget it protects", async () => {
    const [fromSite] = await importErrors('frontend/src/routes.ts', '@site/core/node/content-check');
    expect(fromSite).toContain('85 KB');
    const [fromFunction] = await importErrors('lambda/src/contact/http.ts', '@site/core/node/cdk-context');
    expect(fromFunction).toContain('cold start');
    expect(await importErrors('frontend/src/content/site.ts', '@site/core/node/deploy-config')).toHaveLength(1);
    expect(await importErrors('lambda/src/contact/http.ts', '@site/core/contract')).toEqual([]);
    expect(await importErrors('infra/lib/app.ts', '@site/core/node/cdk-context')).toEqual([]);
    expect(await importErrors('frontend/vite.config.ts', '@site/core/node/cdk-context')).toEqual([]);
  }, 60_000);

  it('hold in every package.json: a workspace depends only on the ones below it, its tests only on those and the test support', () => {
    expect(Object.keys(LAYERS).sort()).toEqual(
      [...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces].sort(),
    );
    for (const [workspace, below] of Object.entries(LAYERS)) {
      const { dependencies, devDependencies } = manifest(workspace);
      expect(
        siteDependencies(dependencies).filter((name) => !below.includes(name)),
        `${workspace}/package.json`,
      ).toEqual([]);
      expect(
        siteDependencies(devDependencies).filter((name) => !TEST_LAYERS[workspace]!.includes(name)),
        `${workspace}/package.json devDependencies`,
      ).toEqual([]);
    }
  });

  it('form no cycle among the @site packages, counting devDependencies', () => {
    const edges = Object.fromEntries(
      Object.keys(LAYERS).map((workspace) => {
        const { dependencies, devDependencies } = manifest(workspace);
        return [workspace, [...siteDependencies(dependencies), ...siteDependencies(devDependencies)]];
      }),
    );
    const cycles: string[] = [];
    const visit = (workspace: string, path: string[]) => {
      if (path.includes(workspace)) return cycles.push([...path.slice(path.indexOf(workspace)), workspace].join(' → '));
      for (const next of edges[workspace] ?? []) visit(next, [...path, workspace]);
    };
    for (const workspace of Object.keys(edges)) visit(workspace, []);
    expect(cycles).toEqual([]);
  });

  it('export nothing from a test folder', () => {
    for (const workspace of Object.keys(LAYERS)) {
      const targets = Object.values(manifest(workspace).exports ?? {});
      expect(
        targets.filter((target) => /(^|\/)test\//.test(target) || target.includes('.test.')),
        `${workspace}/package.json`,
      ).toEqual([]);
    }
  });
});
