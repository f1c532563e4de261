/**
 * The release before the typeface, built from git: the site as it was at 7a0a696, the last
 * commit set in the system fonts. The no-script and no-font pages are made from the build
 * under test, so a cost they share with it (the styling, the page's own rendering) cannot
 * show against them; this page changes with no commit, so it can. It is built with its own
 * lockfile and build, once, and kept in bench/.work (git-ignored).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const RELEASE_BEFORE_TYPEFACE = '7a0a696810ec9c303b3aeb3cbd0283f364cd3407';
export const RELEASE_SHORT = RELEASE_BEFORE_TYPEFACE.slice(0, 7);

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The bench's own settings must not steer the release's install and build: `npm run bench`'s
 * (npm_config_local_prefix would point the nested npm at this checkout; npm_lifecycle_*,
 * npm_package_*) and tsx's (TSX_TSCONFIG_PATH, a path relative to this checkout, which the
 * release's prerender, run by tsx, would look for in its own folder).
 */
function withoutBenchSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(npm_|tsx_)/i.test(name)));
}

interface Started {
  stdout: Readable;
  /** What the command wrote to stdout, once it has exited 0 (nothing when its stdout went to another process). */
  finished: Promise<string>;
}

/**
 * A command run without blocking: the bench's local stack serves from this process, and a
 * minute of synchronous install would stall it. A failure carries the end of the command's
 * stderr, which is where npm and tar say why.
 */
function start(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: Readable; stdoutPiped?: boolean },
): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  if (!options.stdoutPiped) child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  // A reader that quits early (tar on a broken archive) reports it by its exit code; the broken pipe needs no crash of its own.
  child.stdin.on('error', () => {});
  if (options.stdin) options.stdin.pipe(child.stdin);
  else child.stdin.end();
  const finished = new Promise<string>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (code === 0) return done(Buffer.concat(out).toString('utf8'));
      const why = signal ? `was stopped by ${signal}` : `exited with ${code}`;
      const said = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-15).join('\n');
      fail(new Error(`\`${[command, ...args].join(' ')}\` in ${options.cwd} ${why}${said ? `:\n${said}` : ''}`));
    });
  });
  return { stdout: child.stdout, finished };
}

const run = (command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  start(command, args, options).finished;

/**
 * Builds the release's site once and returns its built directory (frontend/dist). The first
 * build takes about a minute (its `npm ci`, then its build) and needs git's full history
 * and the npm registry; later runs take the folder as it is.
 */
export async function buildReleasePage(workDir: string): Promise<string> {
  const releaseDir = resolve(workDir, `release-${RELEASE_SHORT}`);
  const built = (dir: string) => join(dir, 'frontend', 'dist');
  // Looked for before git is asked: a checkout that built it once needs neither its history nor the registry again.
  if (existsSync(join(built(releaseDir), 'index.html'))) return built(releaseDir);

  const root = (await run('git', ['rev-parse', '--show-toplevel'], { cwd: BENCH_DIR })).trim();
  try {
    await run('git', ['cat-file', '-e', `${RELEASE_BEFORE_TYPEFACE}^{commit}`], { cwd: root });
  } catch {
    throw new Error(
      `commit ${RELEASE_SHORT} (the release before the typeface) is not in this clone, as in a shallow clone: ` +
        'run `git fetch --unshallow` (or fetch that commit) and run the bench again.',
    );
  }

  // Built under another name and renamed when done, so that an interrupted build is never taken for a finished one.
  const building = `${releaseDir}.building`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  console.log(
    `  building the release before the typeface (${RELEASE_SHORT}) from git, with its own lockfile: ` +
      `npm ci (about 60 s, from the registry) and its build (about 6 s), once; kept in ${releaseDir}`,
  );
  const archive = start('git', ['archive', RELEASE_BEFORE_TYPEFACE], { cwd: root, stdoutPiped: true });
  await Promise.all([archive.finished, start('tar', ['-x', '-C', building], { cwd: root, stdin: archive.stdout }).finished]);
  const env = withoutBenchSettings(process.env);
  await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: building, env });
  await run('npm', ['run', 'build'], { cwd: building, env });
  if (!existsSync(join(built(building), 'index.html')))
    throw new Error(`the release's build finished without writing ${join(built(building), 'index.html')}.`);
  await rm(releaseDir, { recursive: true, force: true });
  await rename(building, releaseDir);
  return built(releaseDir);
}
