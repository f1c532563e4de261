/**
 * Which test files share a module graph. Vitest isolates every file by default, importing its
 * modules afresh; a project whose files share one graph per worker (`isolate: false`) loads a
 * heavy import once rather than once per file. aws-cdk-lib's import took two thirds of the
 * infrastructure tests' time, the AWS SDK's a third of the function's.
 *
 * A file that replaces or reloads a module (`vi.mock`, `vi.doMock`, `vi.resetModules`) cannot
 * share: the replacement would stay for the files after it, or come too late for modules they
 * loaded first. Such files are found here by their text, so a new one is never shared by
 * mistake, and there is no list to keep.
 */
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPLACES_A_MODULE = /\bvi\.(mock|doMock|resetModules)\(/;

export function filesReplacingModules(root: string, include: string[]): string[] {
  return globSync(include, { cwd: root }).filter((file) => REPLACES_A_MODULE.test(readFileSync(join(root, file), 'utf8')));
}

/**
 * A workspace's tests as two projects: `shared`, the files that can share a module graph, and
 * `isolated`, those that replace a module, each in a graph of its own.
 */
export function isolationPart(root: string, include: string[], part: 'shared' | 'isolated') {
  const replacing = filesReplacingModules(root, include);
  return part === 'shared' ? { include, exclude: replacing, isolate: false } : { include: replacing, isolate: true };
}

/** For a project whose files all share one graph: refuses, by name, a file that replaces a module. */
export function sharedModuleGraph(root: string, include: string[]) {
  const replacing = filesReplacingModules(root, include);
  if (replacing.length > 0) {
    throw new Error(
      `${replacing.join(', ')} replaces a module (vi.mock, vi.doMock or vi.resetModules), so it cannot share its project's ` +
        `module graph: give the workspace an isolated project, as lambda/vitest.isolated.config.ts does (@site/testing/isolation).`,
    );
  }
  return { include, isolate: false };
}
