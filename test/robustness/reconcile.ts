/**
 * The last phase: everything the service accepted over the whole run (the ledger), against
 * what the table and the outbox hold. Its last row, messages lost, must be 0.
 */
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import { DELIVERY_OUTCOMES } from '@site/core/table';
import type { SentEmail } from '@site/emulators/servers';
import type { SuiteContext } from './context';
import { describeProblems } from './load';
import { count } from './report';
import { messageIdOf, problemsOfStoredMessage, problemsOfVisitorCounter, scanTable, sentEmails, tally, type TableContents } from './verify';

const AREA = 'messages lost';

export async function reconcile(ctx: SuiteContext): Promise<void> {
  const { report, ready, ledger } = ctx;
  console.log('\n# Reconciliation: every accepted message stored and e-mailed');
  const delivered = await deliverWhatIsLeft(ctx);
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const emails = await sentEmails(ready.urls.ses);
  const { lost, orphans } = checkNothingLost(ctx, contents, emails);
  checkWhatIsStored(ctx, contents);
  checkRunLogs(ctx);
  report.row(
    'Messages lost',
    String(lost),
    `${count(ledger.accepted.size)} accepted over all phases; ${count(contents.messages.length)} stored; ${count(emails.length)} e-mails; ` +
      `final retry run delivered ${delivered}; ${orphans} e-mails without a stored message`,
  );
}

/** Whatever is still 'received' is what a later scheduled run would deliver: run it now. */
async function deliverWhatIsLeft(ctx: SuiteContext): Promise<number> {
  let delivered = 0;
  for (let run = 0; run < 5; run += 1) {
    const summary = await ctx.stack.call('runRetryJob', { bypassGrace: true }, 120_000);
    delivered += summary.delivered;
    if (summary.examined === 0) break;
  }
  return delivered;
}

/** The statuses of a message SES took: 'emailed', and whatever its delivery events report since (abuse.ts feeds some). */
const EMAILED = new Set<string>(['emailed', ...Object.keys(DELIVERY_OUTCOMES)]);

/** Every message answered 200 is stored, e-mailed and in the outbox; every e-mail has its stored message. */
function checkNothingLost(ctx: SuiteContext, contents: TableContents, emails: SentEmail[]): { lost: number; orphans: number } {
  const { report, ledger } = ctx;
  const items = new Map(contents.messages.map((item) => [item.id, item]));
  const mailed = tally(emails.map((email) => messageIdOf(email) ?? '')).counts;
  let notStored = 0;
  let notEmailed = 0;
  let noEmail = 0;
  for (const { id } of ledger.accepted.values()) {
    const item = items.get(id);
    if (!item) notStored += 1;
    else if (!EMAILED.has(String(item.status))) notEmailed += 1;
    else if (!mailed.has(id)) noEmail += 1;
  }
  const lost = notStored + notEmailed + noEmail;
  report.check(
    AREA,
    `every message answered 200 is stored and e-mailed (${count(ledger.accepted.size)} accepted)`,
    lost === 0,
    `${notStored} not stored, ${notEmailed} stored but not 'emailed', ${noEmail} 'emailed' without an e-mail in the outbox`,
  );
  const orphans = emails.filter((email) => !items.has(messageIdOf(email) ?? '')).length;
  report.check(AREA, 'no e-mail for a message that is not stored', orphans === 0, `${orphans} of ${count(emails.length)} e-mails`);
  return { lost, orphans };
}

/** Nothing stored that no client was given the id of; every message valid, every visitor counter only a hash, message ids, a count and a TTL. */
function checkWhatIsStored(ctx: SuiteContext, contents: TableContents): void {
  const { report, ledger } = ctx;
  const unanswered = contents.messages.filter((item) => !ledger.accepted.has(item.id)).length;
  report.check(
    AREA,
    'no message stored that the client was not given the id of',
    unanswered === 0,
    `${unanswered} stored without a 200 for its id`,
  );
  const invalid = contents.messages.map((item) => problemsOfStoredMessage(item)).filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `every stored message valid at the end (${count(contents.messages.length)})`,
    invalid.length === 0,
    describeProblems(invalid),
  );
  const { windowMinutes } = visitorLimitFrom(CDK_JSON_CONTEXT);
  const counters = contents.visitors
    .map((item) => problemsOfVisitorCounter(item, windowMinutes * 60))
    .filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `every visitor counter holds a hash, message ids, a count and a TTL only (${count(contents.visitors.length)})`,
    counters.length === 0,
    describeProblems(counters),
  );
}

/** No handler crash or function timeout over the whole run; the handler's outcomes on the console. */
function checkRunLogs(ctx: SuiteContext): void {
  const { report, stack } = ctx;
  const functionErrors = stack.logs.filter((entry) => entry.msg === 'function error' || entry.msg === 'edge error').length;
  const unexpected = stack.logs.filter((entry) => entry.outcome === 'unexpected_error').length;
  report.check(
    AREA,
    'no handler crash or function timeout logged during the whole run',
    functionErrors === 0 && unexpected === 0,
    `${functionErrors} function errors, ${unexpected} unexpected_error outcomes`,
  );
  const outcomes = tally(stack.logs.filter((entry) => entry.msg === 'contact request').map((entry) => String(entry.outcome))).counts;
  console.log(`  handler outcomes over the run: ${[...outcomes].map(([outcome, n]) => `${outcome}×${n}`).join(', ')}`);
  if (stack.otherLines.length) console.log(`  ${stack.otherLines.length} non-JSON lines from the stack process (see ${stack.logFile})`);
}
