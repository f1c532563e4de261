import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolationPart, sharedModuleGraph } from '@site/testing/isolation';

/** A workspace with one test file that replaces a module and one that does not. */
function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'isolation-'));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test/plain.test.ts'), "import { it } from 'vitest';\nit('runs', () => {});\n");
  writeFileSync(join(root, 'test/replacing.test.ts'), "import { vi } from 'vitest';\nvi.mock('./firm', () => ({ name: 'X' }));\n");
  return root;
}

describe('test files and module graphs', () => {
  it('isolate each file that replaces a module, and let the others share one graph', () => {
    const root = workspace();
    expect(isolationPart(root, ['test/**/*.test.ts'], 'shared')).toEqual({
      include: ['test/**/*.test.ts'],
      exclude: ['test/replacing.test.ts'],
      isolate: false,
    });
    expect(isolationPart(root, ['test/**/*.test.ts'], 'isolated')).toEqual({ include: ['test/replacing.test.ts'], isolate: true });
  });

  it('refuse, by name, a file that replaces a module in a project that shares its graph', () => {
    expect(() => sharedModuleGraph(workspace(), ['test/**/*.test.ts'])).toThrow(/test\/replacing\.test\.ts replaces a module/);
  });
});
