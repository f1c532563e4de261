/**
 * The release before the typeface, built from git: the site as it was at 7a0a696, the last
 * commit set in the system fonts. The no-script and no-font pages are made from the build
 * under test, so a cost they share with it (the styling, the page's own rendering) cannot
 * show against them; this page changes with no commit, so it can. It is built with its own
 * lockfile and build, once, and kept in bench/.work.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RELEASE_BEFORE_TYPEFACE = '7a0a696810ec9c303b3aeb3cbd0283f364cd3407';
export const RELEASE_SHORT = RELEASE_BEFORE_TYPEFACE.slice(0, 7);

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The bench's own settings must not steer the release's install and build: `npm run bench`'s
 * (npm_config_*, npm_lifecycle_*) and tsx's (TSX_TSCONFIG_PATH, a path relative to this
 * checkout, which the release's build would look for in its own folder).
 */
function withoutBenchSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(npm_|tsx_)/i.test(name)));
}

/** Builds the release's site once (about a minute: its `npm ci` and its build) and returns its built directory. */
export function buildReleasePage(workDir: string): string {
  const releaseDir = join(workDir, `release-${RELEASE_SHORT}`);
  const dist = join(releaseDir, 'frontend', 'dist');
  if (existsSync(join(dist, 'index.html'))) return dist;

  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
  try {
    execFileSync('git', ['cat-file', '-e', `${RELEASE_BEFORE_TYPEFACE}^{commit}`], { cwd: root, stdio: 'ignore' });
  } catch {
    throw new Error(
      `commit ${RELEASE_SHORT} (the release before the typeface) is not in this clone; a shallow clone lacks it: run \`git fetch --unshallow\`.`,
    );
  }
  // Built under another name and renamed when done, so an interrupted build is never taken for a finished one.
  const building = `${releaseDir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  console.log(`  building the release before the typeface (${RELEASE_SHORT}) from git, with its own lockfile: about a minute, once`);
  const archive = execFileSync('git', ['archive', RELEASE_BEFORE_TYPEFACE], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', building], { input: archive });
  const env = withoutBenchSettings(process.env);
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: building,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync('npm', ['run', 'build'], { cwd: building, env, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(releaseDir, { recursive: true, force: true });
  renameSync(building, releaseDir);
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`the release's build wrote no ${join(dist, 'index.html')}.`);
  return dist;
}
