/**
 * The visitor limit under concurrency, through the edge: visitors (each on a loopback
 * address of its own) send more valid messages than the limit all at once. Each must get
 * exactly its limit accepted and the rest 429, with nothing stored or e-mailed for those,
 * however the requests interleave, and no visitor's count may touch another's.
 */
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import type { SuiteContext } from './context';
import { standardPolicy, submit, type SubmissionResult } from './client';
import { runPool } from './pool';
import { makeSubmissions } from './submissions';
import { markerOf, markerOfItem, scanTable, sentEmails } from './verify';
import { newVisitor, wellInsideAWindow } from './visitors';

export async function visitorLimitPhase(ctx: SuiteContext, options: { visitors: number; extra: number }): Promise<void> {
  const { report } = ctx;
  const area = 'visitor limit';
  const { messages: limit } = visitorLimitFrom(CDK_JSON_CONTEXT);
  const perVisitor = limit + options.extra;
  console.log(`\n# Visitor limit: ${options.visitors} visitors each send ${perVisitor} messages at once (limit ${limit})`);
  const first = newVisitor();
  if (first === undefined) {
    report.row('Visitor limit', 'not checked', 'only 127.0.0.1 can be bound on this machine, so the limit is off for the run');
    return;
  }
  await wellInsideAWindow(20);
  const started = performance.now();
  const visitors = [first, ...Array.from({ length: options.visitors - 1 }, () => newVisitor()!)];
  const { results, notRun } = await sendAtOnce(ctx, visitors, perVisitor);

  const byVisitor = visitors.map((address) =>
    results.filter((result) => result.submission.from === address).map((result) => result.finalStatus),
  );
  const wrong = byVisitor.filter(
    (statuses) =>
      statuses.filter((status) => status === 200).length !== limit || statuses.filter((status) => status === 429).length !== options.extra,
  );
  report.check(
    area,
    `each visitor got exactly ${limit} accepted and ${options.extra} × 429 (${options.visitors} visitors at once)`,
    wrong.length === 0 && notRun === 0,
    `${wrong.length} visitors otherwise: ${wrong
      .slice(0, 3)
      .map((statuses) => statuses.join(' '))
      .join('; ')}`,
  );

  const refused = new Set(results.filter((result) => result.finalStatus === 429).map((result) => result.submission.marker));
  await checkNothingKeptOf(ctx, area, refused);
  report.timing('visitor limit', performance.now() - started);
  report.row(
    'Visitor limit at once',
    report.checks.slice(-2).every((check) => check.ok) ? 'held' : '**FAILED**',
    `${options.visitors} visitors × ${perVisitor} messages, limit ${limit}: ${results.filter((result) => result.finalStatus === 200).length} accepted, ${refused.size} refused`,
  );
}

/**
 * Every visitor's messages, `perVisitor` each, all at once and one attempt each: a 429 here
 * is the answer under test, not something to wait out. The accepted ones go in the ledger.
 */
async function sendAtOnce(
  ctx: SuiteContext,
  visitors: string[],
  perVisitor: number,
): Promise<{ results: SubmissionResult[]; notRun: number }> {
  const submissions = makeSubmissions('LIM', ctx.runTag, visitors.length * perVisitor, ctx.seed + 7).map((submission, index) => ({
    ...submission,
    from: visitors[Math.floor(index / perVisitor)],
  }));
  const deadline = Date.now() + 60_000;
  const run = await runPool(
    submissions,
    submissions.length,
    (submission) => submit(ctx.site, submission, standardPolicy(1, deadline)),
    deadline,
  );
  const results = run.results.filter((result): result is SubmissionResult => result !== undefined);
  for (const result of results) {
    if (result.finalStatus === 200 && result.id)
      ctx.ledger.accept({ id: result.id, phase: 'visitor-limit', marker: result.submission.marker });
  }
  return { results, notRun: run.notRun };
}

/** Nothing stored or e-mailed for the refused messages, found by their markers. */
async function checkNothingKeptOf(ctx: SuiteContext, area: string, refused: ReadonlySet<string>): Promise<void> {
  const { ready } = ctx;
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const stored = contents.messages.filter((item) => refused.has(markerOfItem(item) ?? '')).length;
  const mailed = (await sentEmails(ready.urls.ses)).filter((email) => refused.has(markerOf(email.body.text) ?? '')).length;
  ctx.report.check(
    area,
    'nothing stored or e-mailed for a refused message',
    stored === 0 && mailed === 0,
    `${stored} stored, ${mailed} e-mailed`,
  );
}
