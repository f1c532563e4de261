/**
 * One of the repository's TypeScript commands (`npm run messages`, `npm run smoke`) in a child
 * process, as `npm run` starts it: Node with tsx's loader. One process, not tsx's own command,
 * which starts a second Node for the script: that doubled the start of each of the ops tests'
 * hundred or so commands. No time limit of its own: the test's (Vitest's testTimeout) is the one
 * limit, so a command that is slow on a busy machine is waited for, not killed part-way.
 */
import { execFile } from 'node:child_process';

const TSX_LOADER = import.meta.resolve('tsx');

export interface ScriptRun {
  /** The exit code; 1 when the process was ended by a signal. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface ScriptOptions {
  /** The whole environment: nothing of the test's own is passed on unless named here. */
  env: Record<string, string>;
  /** What stdin gives; an empty, closed stdin unless said. */
  input?: string;
}

export function runScript(script: string, args: string[], { env, input = '' }: ScriptOptions): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', TSX_LOADER, script, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}
