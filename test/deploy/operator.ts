/**
 * The operator of the deploy guide: a checkout whose cdk.json carries the configuration the
 * guide has them add, and a terminal to type the guide's commands into.
 *
 * The checkout is a scratch directory of symbolic links to this repository, except cdk.json
 * (a copy of the committed one, to which the guide's keys are added when the guide gets to
 * them) and cdk.out: the committed cdk.json is never touched, and the synthesized assembly
 * of the run stays out of the repository.
 *
 * Commands run in a pseudo-terminal (`script` from util-linux), as an operator types them:
 * without a terminal the CDK CLI refuses to ask before a deploy that changes IAM or before a
 * destroy, and a flag to skip the question would no longer be the command the guide shows.
 * Each question is answered yes (`y` to the CDK CLI's, `yes` to `npm run messages -- erase`'s),
 * and recorded so the test can say which were asked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Written by the CDK CLI in a checkout, or the committed configuration the checkout replaces. */
const NOT_LINKED = new Set(['cdk.json', 'cdk.out', 'cdk.context.json', '.git']);

export interface Checkout {
  dir: string;
  /** Adds keys to the context of the checkout's cdk.json, as the operator edits it. */
  configure(keys: Record<string, unknown>): void;
  /** The context of the checkout's cdk.json now. */
  context(): Record<string, unknown>;
  /** A directory of the checkout's own, outside the repository, for the test's files. */
  scratch: string;
  remove(): void;
}

interface CdkJson {
  context: Record<string, unknown>;
}

export function operatorCheckout(root: string): Checkout {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-guide-'));
  const links = readdirSync(root).filter((entry) => !NOT_LINKED.has(entry));
  for (const entry of links) symlinkSync(join(root, entry), join(dir, entry));
  const cdkJson = join(dir, 'cdk.json');
  writeFileSync(cdkJson, readFileSync(join(root, 'cdk.json')));
  const read = () => JSON.parse(readFileSync(cdkJson, 'utf8')) as CdkJson;
  const scratch = join(dir, '.deploy-test');
  mkdirSync(scratch);
  return {
    dir,
    configure(keys) {
      const current = read();
      writeFileSync(cdkJson, JSON.stringify({ ...current, context: { ...current.context, ...keys } }, null, 2));
    },
    context: () => read().context,
    scratch,
    remove() {
      // The links first, one by one, so that nothing can reach into the repository they point at.
      for (const entry of links) unlinkSync(join(dir, entry));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `script` runs a command in a new pseudo-terminal and passes its input and output through. */
export function checkTerminal(): void {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error('The deploy test types commands into a terminal made by `script` (util-linux): apt-get install bsdutils');
  }
}

export interface Run {
  command: string;
  exitCode: number | null;
  /** What the terminal showed, without colours and cursor movement. */
  output: string;
  /** The questions the command asked (each answered `y`). */
  prompts: string[];
  seconds: number;
}

// eslint-disable-next-line no-control-regex -- terminal control sequences are what this removes
const TERMINAL_CODES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\r/g;

/** The questions the guides' commands ask, with the answer an operator who read the guide types. */
const QUESTIONS = [
  { ends: '(y/n)', answer: 'y' },
  { ends: 'Type yes to delete: ', answer: 'yes' },
];

export function runInTerminal(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  const started = Date.now();
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let searchFrom = 0;
  const prompts: string[] = [];
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString().replace(TERMINAL_CODES, '');
    for (;;) {
      const asked = QUESTIONS.map((question) => ({ ...question, at: output.indexOf(question.ends, searchFrom) }))
        .filter(({ at }) => at !== -1)
        .sort((a, b) => a.at - b.at)[0];
      if (!asked) break;
      searchFrom = asked.at + asked.ends.length;
      prompts.push(output.slice(output.lastIndexOf('\n', asked.at) + 1, searchFrom).trim());
      child.stdin.write(`${asked.answer}\n`);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ command, exitCode, output, prompts, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The end of a command's output, for an assertion's message. */
export function tail(run: Run, lines = 40): string {
  return `\`${run.command}\` (exit ${run.exitCode}, ${run.seconds.toFixed(1)} s) ended with:\n${run.output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-lines)
    .join('\n')}`;
}
