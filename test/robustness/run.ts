/**
 * `npm run test:robustness` (issue 6): the product under load, under faults and under
 * hostile input, against a local stack this script starts itself on free ports.
 *
 *   load     2,000 valid submissions at concurrency 100 through the edge; all stored, all
 *            e-mailed once; the edge process's memory stays bounded.
 *   faults   (a) DynamoDB stopped mid-load, (b) SES stopped, (c) SES slower than its timeout.
 *   hostile  5,000 generated requests (seeded); no 5xx, nothing invalid stored or e-mailed.
 *   visitors visitors over their limit at once: each gets exactly its limit, the rest 429.
 *
 * Every client is a visitor of its own, on a loopback address of its own (visitors.ts), so
 * the visitor limit stays on for the whole run as in production; where only 127.0.0.1 can
 * be bound the limit is turned off instead, and the run says so.
 *   lost     every message the service answered 200 for is stored and e-mailed: must be 0.
 *
 * Every loop is bounded in count and time, all traffic stays on 127.0.0.1, and a watchdog
 * ends the run if the whole takes longer than WATCHDOG_MS. Exit code 1 on any failed check
 * (listed by name at the end), 2 when the run could not complete.
 *
 * Environment: ROBUSTNESS_SEED replays a run's hostile inputs and generated content;
 * ROBUSTNESS_KEEP=1 keeps the temp dir (stack log, DynamoDB data) for inspection.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SITE_DIR } from '@site/local/stack';
import { Ledger, type SuiteContext } from './context';
import { dynamoDbOutage, sesOutage, sesSlow } from './faults';
import { hostilePhase } from './hostile/phase';
import { loadPhase, sameKeyAtOnce } from './load';
import { visitorLimitPhase } from './limits';
import { reconcile } from './reconcile';
import { Report } from './report';
import { startStackProcess, type StackClient } from './stack-client';
import { enableVisitors } from './visitors';

/** Generous next to the ~5 minutes the suite is meant to take on 2 cores. */
const WATCHDOG_MS = 9 * 60_000;

const seed = process.env.ROBUSTNESS_SEED ? Number(process.env.ROBUSTNESS_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(seed)) {
  console.error(`ROBUSTNESS_SEED must be an integer, not "${process.env.ROBUSTNESS_SEED}"`);
  process.exit(2);
}
// Part of every marker, so e-mails and items of this run can never be confused with another's.
const runTag = (Date.now() % 36 ** 5).toString(36).padStart(5, '0');

/** The API is all the suite needs: without a build, a two-page stand-in site will do. */
function siteDir(work: string): string {
  if (existsSync(join(DEFAULT_SITE_DIR, 'index.html')) && existsSync(join(DEFAULT_SITE_DIR, '404.html'))) return DEFAULT_SITE_DIR;
  const dir = join(work, 'site');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>robustness</title>');
  writeFileSync(join(dir, '404.html'), '<!doctype html><title>404</title>');
  return dir;
}

/** The stack in a child process, on loopback only, each client a visitor of its own where the machine allows. */
async function startStack(work: string): Promise<StackClient> {
  const visitors = await enableVisitors();
  if (!visitors) console.log('Only 127.0.0.1 can be bound here: every client is one visitor, so the visitor limit is off for this run.');
  const stack = await startStackProcess(
    { dataDir: join(work, 'dynamodb'), siteDir: siteDir(work), visitorLimit: visitors ? undefined : 0 },
    join(work, 'stack.log'),
  );
  const { ready } = stack;
  const notLoopback = Object.values(ready.urls).find((url) => new URL(url).hostname !== '127.0.0.1');
  if (notLoopback) {
    await stack.close();
    throw new Error(`the stack listens on ${notLoopback}, not loopback`);
  }
  console.log(`Stack process ${ready.pid}: edge ${ready.urls.site}, DynamoDB ${ready.urls.dynamodb}, SES ${ready.urls.ses}`);
  return stack;
}

/** Every phase in turn; one that throws fails the run but does not hide the others' results. */
async function runPhases(ctx: SuiteContext): Promise<void> {
  const phases: [string, () => Promise<void>][] = [
    ['load', () => loadPhase(ctx, { count: 2_000, concurrency: 100, warmup: 1_000 })],
    ['load', () => sameKeyAtOnce(ctx)],
    ['fault: DynamoDB', () => dynamoDbOutage(ctx)],
    ['fault: SES down', () => sesOutage(ctx)],
    ['fault: SES slow', () => sesSlow(ctx)],
    ['hostile input', () => hostilePhase(ctx, { runs: 5_000, concurrency: 50 })],
    ['visitor limit', () => visitorLimitPhase(ctx, { visitors: 20, extra: 2 })],
    ['messages lost', () => reconcile(ctx)],
  ];
  for (const [area, phase] of phases) {
    try {
      await phase();
    } catch (error) {
      ctx.report.check(area, 'phase ran to the end', false, `${(error as Error).name}: ${(error as Error).message}`);
    }
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'robustness-'));
  const report = new Report();
  let stack: StackClient | undefined;
  const watchdog = setTimeout(() => {
    console.error(`\nWATCHDOG: the run took longer than ${WATCHDOG_MS / 60_000} minutes; stopping.`);
    console.log(report.render());
    stack?.kill();
    process.exit(2);
  }, WATCHDOG_MS);

  try {
    console.log(`Robustness suite: seed ${seed}, run ${runTag}, temp ${work}`);
    stack = await startStack(work);
    report.timing('stack start', performance.now() - started);
    const ready = stack.ready;
    await runPhases({ stack, ready, site: ready.urls.site, runTag, seed, report, ledger: new Ledger() });
  } catch (error) {
    report.check('setup', 'stack started', false, (error as Error).message);
  } finally {
    await stack?.close().catch(() => undefined);
    clearTimeout(watchdog);
  }
  report.timing('total', performance.now() - started);
  console.log(`\n${report.render()}`);
  console.log(`\nSeed ${seed} (replay with ROBUSTNESS_SEED=${seed}). Stack log: ${stack?.logFile ?? 'none'}`);
  // Kept when something failed: the stack log (outcomes and ids, no visitor data) explains it.
  if (process.env.ROBUSTNESS_KEEP !== '1' && report.failed().length === 0) rmSync(work, { recursive: true, force: true });
  return report.failed().length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error);
    process.exit(2);
  },
);
