/**
 * Where the numbers were taken. Lighthouse's simulated throttling, cold imports and
 * emulator latency all scale with the machine, so a result is only comparable with one
 * from the same hardware and versions; the load average says whether something else was
 * running at the same time (on a shared 2-core box it often is).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { findChromium } from '@site/testing/chromium';

export interface Environment {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  lighthouse: string;
  commit: string;
  /** 1-minute load average at the start, at the end and the highest seen in between (sampled every 2 s). */
  loadAverage: { start: number; end?: number; max?: number };
  /** Lighthouse's own CPU benchmark (higher is faster); it scales the simulated CPU slowdown. */
  lighthouseBenchmarkIndex?: number;
}

function quiet(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${name}/package.json`)), 'utf8')) as { version: string }).version;
}

export function describeEnvironment(): Environment {
  const commit = quiet('git', ['rev-parse', '--short', 'HEAD']);
  const dirty = quiet('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    chromium: quiet(findChromium(), ['--version']),
    lighthouse: packageVersion('lighthouse'),
    commit: dirty ? `${commit} (with uncommitted changes)` : commit,
    loadAverage: { start: Math.round(loadavg()[0]! * 100) / 100 },
  };
}
