/**
 * One temporary directory for a whole test run, under the system's, removed when the run ends:
 * TMPDIR points into it for the runner's workers and every process they start (`npm start`,
 * the operator's commands, Chromium), so what a test leaves in os.tmpdir() (a synthesized
 * cloud assembly of some 20 MB, a copy of the site, a data directory) goes with the run. Without
 * it, each `npm test` left gigabytes in /tmp and filled a developer's disk in a day of runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Points TMPDIR at a new directory of the run's; the function returned removes it and points TMPDIR back. */
export function useScratchTmpdir(runner: string): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), `${runner}-run-`));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
