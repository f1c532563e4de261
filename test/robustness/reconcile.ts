/**
 * The last phase: everything the service accepted over the whole run (the ledger), against
 * what the table and the outbox hold. Its last row, messages lost, must be 0.
 */
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import { DELIVERY_OUTCOMES } from '@site/core/table';
import { DIGEST_STATE_ID } from '@site/core/table';
import type { SentEmail } from '@site/emulators/servers';
import type { SuiteContext } from './context';
import { describeProblems } from './load';
import { count } from './report';
import {
  digestCountOf,
  messageIdOf,
  problemsOfDigest,
  problemsOfSpamRecord,
  problemsOfStoredMessage,
  problemsOfVisitorCounter,
  scanTable,
  sentEmails,
  tally,
  type TableContents,
} from './verify';

const AREA = 'messages lost';

export async function reconcile(ctx: SuiteContext): Promise<void> {
  const { report, ready, ledger } = ctx;
  console.log('\n# Reconciliation: every accepted message stored, and e-mailed or held for the digest');
  const delivered = await deliverWhatIsLeft(ctx);
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const all = await sentEmails(ready.urls.ses);
  const digests = all.filter((email) => digestCountOf(email) !== undefined);
  const emails = all.filter((email) => digestCountOf(email) === undefined);
  const { lost, orphans, held } = checkNothingLost(ctx, contents, emails);
  checkDigests(ctx, contents, digests);
  checkWhatIsStored(ctx, contents);
  checkRunLogs(ctx);
  report.row(
    'Messages lost',
    String(lost),
    `${count(ledger.accepted.size)} accepted over all phases; ${count(contents.messages.length)} stored; ${count(emails.length)} e-mails; ` +
      `${count(held)} held, counted in ${digests.length} digest(s); final retry run delivered ${delivered}; ${orphans} e-mails without a stored message`,
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

/**
 * Every message answered 200 is stored, and either e-mailed (and in the outbox) or held for
 * the digest (a suspect one, the honeypot's too: nothing accepted is dropped); every
 * e-mail of a message has its stored message.
 */
function checkNothingLost(
  ctx: SuiteContext,
  contents: TableContents,
  emails: SentEmail[],
): { lost: number; orphans: number; held: number } {
  const { report, ledger } = ctx;
  const items = new Map(contents.messages.map((item) => [item.id, item]));
  const mailed = tally(emails.map((email) => messageIdOf(email) ?? '')).counts;
  let notStored = 0;
  let neither = 0;
  let noEmail = 0;
  let held = 0;
  for (const { id } of ledger.accepted.values()) {
    const item = items.get(id);
    if (!item) notStored += 1;
    else if (item.status === 'held') held += 1;
    else if (!EMAILED.has(String(item.status))) neither += 1;
    else if (!mailed.has(id)) noEmail += 1;
  }
  const lost = notStored + neither + noEmail;
  report.check(
    AREA,
    `every message answered 200 is stored, and e-mailed or held (${count(ledger.accepted.size)} accepted)`,
    lost === 0,
    `${notStored} not stored, ${neither} stored but neither 'emailed' nor 'held', ${noEmail} 'emailed' without an e-mail in the outbox`,
  );
  const orphans = emails.filter((email) => !items.has(messageIdOf(email) ?? '')).length;
  report.check(AREA, 'no e-mail for a message that is not stored', orphans === 0, `${orphans} of ${count(emails.length)} e-mails`);
  const heldMailed = contents.messages.filter((item) => item.status === 'held' && mailed.has(item.id)).length;
  report.check(AREA, 'no held message e-mailed on its own', heldMailed === 0, `${heldMailed} held messages have an e-mail of their own`);
  return { lost, orphans, held };
}

/**
 * The firm hears of every held message: the digests counted each once (their counts add up
 * to the held messages, and the digest's state reaches the last of them), and each digest
 * went to MAIL_TO only, answering no one.
 */
function checkDigests(ctx: SuiteContext, contents: TableContents, digests: SentEmail[]): void {
  const { report, ready } = ctx;
  const heldItems = contents.messages.filter((item) => item.status === 'held');
  const counted = digests.reduce((sum, email) => sum + digestCountOf(email)!, 0);
  const through = contents.spamRecords.find((item) => item.id === DIGEST_STATE_ID)?.through;
  const after = heldItems.filter((item) => typeof through !== 'string' || String(item.receivedAt) > through).length;
  report.check(
    AREA,
    `every held message counted once in a digest (${count(heldItems.length)} held)`,
    counted === heldItems.length && after === 0,
    `the digests count ${count(counted)}; ${after} held after the last digest's`,
  );
  const unsafe = digests.map((email) => problemsOfDigest(email, ready)).filter((problems) => problems.length > 0);
  report.check(AREA, `every digest to MAIL_TO only, without a Reply-To (${digests.length})`, unsafe.length === 0, describeProblems(unsafe));
}

/**
 * Nothing stored that no client was given the id of; every message valid; every visitor
 * counter only a hash, message ids, a count and a TTL; every spam record only what its kind keeps.
 */
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
  const spamRecords = contents.spamRecords.map((item) => problemsOfSpamRecord(item)).filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `every spam record holds ids, keyed hashes, counts and times only (${count(contents.spamRecords.length)})`,
    spamRecords.length === 0,
    describeProblems(spamRecords),
  );
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
