import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const nodeMajor = Number(read('.nvmrc').trim());

describe('the Node.js runtime', () => {
  it('is one major, named the same in .nvmrc, .node-version, every engines field and the Lambda runtime', () => {
    expect(nodeMajor).toBeGreaterThanOrEqual(24);
    expect(read('.node-version').trim()).toBe(String(nodeMajor));
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const manifest of ['package.json', ...workspaces.map((workspace) => `${workspace}/package.json`)]) {
      expect((JSON.parse(read(manifest)) as { engines?: { node?: string } }).engines?.node, manifest).toBe(`>=${nodeMajor}`);
    }
    expect(read('lambda/bundle.ts')).toContain(`target: 'node${nodeMajor}'`);
  });

  it('is what the tests run on', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(nodeMajor);
  });

  it('stops npm start and npm test on an older Node.js with one line naming the version needed', () => {
    // The guard is plain old JavaScript; run it as if on Node.js 20 by faking the version it reads.
    const script = `Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); require(${JSON.stringify(join(ROOT, 'scripts/require-node.cjs'))});`;
    const old = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(old.status).toBe(1);
    expect(old.stdout).toBe('');
    expect(old.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`needs Node.js ${nodeMajor} or newer; this is Node.js 20.20.2`),
    ]);

    expect(() => execFileSync(process.execPath, [join(ROOT, 'scripts/require-node.cjs')])).not.toThrow();
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const script of ['start', 'dev', 'test', 'test:robustness', 'bench']) {
      expect(scripts[`pre${script}`], script).toBe('node scripts/require-node.cjs');
    }
  });
});
