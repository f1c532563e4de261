// `npm test`'s Vitest part: the browser tier and every other project as two runs at once, each
// one file at a time. One run with two workers would put two Chromiums side by side on a
// 2-core machine; one worker for everything leaves a core idle while a browser test waits on
// a page. The browser tests that mostly wait as a person would (`browser-sending`, see
// test/browser/tier.ts) run in the other lane, which keeps the two about as long as each other.
// Arguments go to both runs (`npm test -- stamp` runs the files named like it).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const LANES = [
  { name: 'browser', projects: ['*browser'] },
  { name: 'other', projects: ['!*browser'] },
];
const extra = process.argv.slice(2);
const width = Math.max(...LANES.map((lane) => lane.name.length));

function run({ name, projects }) {
  const args = ['run', '--passWithNoTests', ...projects.flatMap((project) => ['--project', project]), ...extra];
  const child = spawn('vitest', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
  });
  const label = `${name.padEnd(width)} │ `;
  createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(label + line + '\n'));
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(label + line + '\n'));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`${label}could not start Vitest: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const codes = await Promise.all(LANES.map(run));
const seconds = Math.round((Date.now() - started) / 1000);
const failed = LANES.filter((_, i) => codes[i] !== 0).map((lane) => lane.name);
console.log(failed.length ? `\nFailed: ${failed.join(' and ')} (${seconds} s)` : `\nBoth runs passed in ${seconds} s.`);
process.exitCode = failed.length ? 1 : 0;
