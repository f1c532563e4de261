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
import { CDK_JSON_CONTEXT } from '@site/core/cdk-context';
import { visitorLimitFrom } from '@site/core/deploy-config';
import { DEFAULT_SITE_DIR } from '@site/local/stack';
import { Ledger, type SuiteContext } from './context';
import { dynamoDbOutage, sesOutage, sesSlow } from './faults';
import { hostilePhase } from './hostile/phase';
import { describeProblems, loadPhase, sameKeyAtOnce } from './load';
import { visitorLimitPhase } from './limits';
import { count, Report } from './report';
import { startStackProcess, type StackClient } from './stack-client';
import { messageIdOf, problemsOfStoredMessage, problemsOfVisitorCounter, scanTable, sentEmails, tally } from './verify';
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

/** Last phase: everything the service accepted, against what the table and the outbox hold. */
async function reconcile(ctx: SuiteContext): Promise<void> {
  const { report, stack, ready, ledger } = ctx;
  const area = 'messages lost';
  console.log('\n# Reconciliation: every accepted message stored and e-mailed');
  // Whatever is still 'received' is what a later scheduled run would deliver: run it now.
  let delivered = 0;
  for (let run = 0; run < 5; run += 1) {
    const summary = await stack.call('runRetryJob', { bypassGrace: true }, 120_000);
    delivered += summary.delivered;
    if (summary.examined === 0) break;
  }
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const emails = await sentEmails(ready.urls.ses);
  const items = new Map(contents.messages.map((item) => [item.id, item]));
  const mailed = tally(emails.map((email) => messageIdOf(email) ?? '')).counts;

  let notStored = 0;
  let notEmailed = 0;
  let noEmail = 0;
  for (const { id } of ledger.accepted.values()) {
    const item = items.get(id);
    if (!item) notStored += 1;
    else if (item.status !== 'emailed') notEmailed += 1;
    else if (!mailed.has(id)) noEmail += 1;
  }
  const lost = notStored + notEmailed + noEmail;
  report.check(
    area,
    `every message answered 200 is stored and e-mailed (${count(ledger.accepted.size)} accepted)`,
    lost === 0,
    `${notStored} not stored, ${notEmailed} stored but not 'emailed', ${noEmail} 'emailed' without an e-mail in the outbox`,
  );
  const orphans = emails.filter((email) => !items.has(messageIdOf(email) ?? '')).length;
  report.check(area, 'no e-mail for a message that is not stored', orphans === 0, `${orphans} of ${count(emails.length)} e-mails`);
  const unanswered = contents.messages.filter((item) => !ledger.accepted.has(item.id)).length;
  report.check(
    area,
    'no message stored that the client was not given the id of',
    unanswered === 0,
    `${unanswered} stored without a 200 for its id`,
  );
  const invalid = contents.messages.map((item) => problemsOfStoredMessage(item)).filter((problems) => problems.length > 0);
  report.check(
    area,
    `every stored message valid at the end (${count(contents.messages.length)})`,
    invalid.length === 0,
    describeProblems(invalid),
  );

  const { windowMinutes } = visitorLimitFrom(CDK_JSON_CONTEXT);
  const counters = contents.visitors
    .map((item) => problemsOfVisitorCounter(item, windowMinutes * 60))
    .filter((problems) => problems.length > 0);
  report.check(
    area,
    `every visitor counter holds a hash, a count and a TTL only (${count(contents.visitors.length)})`,
    counters.length === 0,
    describeProblems(counters),
  );

  const functionErrors = stack.logs.filter((entry) => entry.msg === 'function error' || entry.msg === 'edge error').length;
  const unexpected = stack.logs.filter((entry) => entry.outcome === 'unexpected_error').length;
  report.check(
    area,
    'no handler crash or function timeout logged during the whole run',
    functionErrors === 0 && unexpected === 0,
    `${functionErrors} function errors, ${unexpected} unexpected_error outcomes`,
  );
  const outcomes = tally(stack.logs.filter((entry) => entry.msg === 'contact request').map((entry) => String(entry.outcome))).counts;
  console.log(`  handler outcomes over the run: ${[...outcomes].map(([outcome, n]) => `${outcome}×${n}`).join(', ')}`);
  if (stack.otherLines.length) console.log(`  ${stack.otherLines.length} non-JSON lines from the stack process (see ${stack.logFile})`);

  report.row(
    'Messages lost',
    String(lost),
    `${count(ledger.accepted.size)} accepted over all phases; ${count(contents.messages.length)} stored; ${count(emails.length)} e-mails; ` +
      `final retry run delivered ${delivered}; ${orphans} e-mails without a stored message`,
  );
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
    const visitors = await enableVisitors();
    if (!visitors) console.log('Only 127.0.0.1 can be bound here: every client is one visitor, so the visitor limit is off for this run.');
    stack = await startStackProcess(
      { dataDir: join(work, 'dynamodb'), siteDir: siteDir(work), visitorLimit: visitors ? undefined : 0 },
      join(work, 'stack.log'),
    );
    const ready = stack.ready;
    for (const url of Object.values(ready.urls)) {
      if (new URL(url).hostname !== '127.0.0.1') throw new Error(`the stack listens on ${url}, not loopback`);
    }
    console.log(`Stack process ${ready.pid}: edge ${ready.urls.site}, DynamoDB ${ready.urls.dynamodb}, SES ${ready.urls.ses}`);
    report.timing('stack start', performance.now() - started);
    const ctx: SuiteContext = { stack, ready, site: ready.urls.site, runTag, seed, report, ledger: new Ledger() };

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
        // One broken phase must not hide the others' results; it fails the run all the same.
        report.check(area, 'phase ran to the end', false, `${(error as Error).name}: ${(error as Error).message}`);
      }
    }
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
