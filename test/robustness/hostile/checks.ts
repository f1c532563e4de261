/**
 * What must hold after the hostile requests: every answer is one the contract names, with
 * no 5xx, hang or stack trace; nothing invalid was stored; no e-mail carries an injected
 * header, an extra recipient or unescaped visitor HTML, in the outbox or on the wire to SES.
 */
import { decodeWords } from 'postal-mime';
import { hasInvisible, hasLineBreaking } from '@site/lambda/characters';
import { isPlainHeaderText, mailbox } from '@site/lambda/mail-header';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import type { SuiteContext } from '../context';
import type { WireSendEmail } from '../delay-proxy';
import { describeProblems } from '../load';
import { count } from '../report';
import {
  digestCountOf,
  problemsOfDigest,
  isSingleAddress,
  messageIdOf,
  problemsOfEmail,
  problemsOfIdempotencyRecord,
  problemsOfStoredMessage,
  scanTable,
  sentEmails,
  tally,
  ULID,
  type Item,
} from '../verify';
import type { HostileCase } from './case';
import type { HostileRun } from './phase';
import type { RawAnswer } from './raw-http';

export const AREA = 'hostile input';

const STACK_TRACE = /\n\s+at\s|node:internal|node_modules|\.tsx?:\d+|\bTypeError\b|\bReferenceError\b/;

/** The answers sorted by what they say about the service. */
interface Answered {
  fiveXx: HostileCase[];
  noAnswer: HostileCase[];
  offContract: { hostileCase: HostileCase; status: number }[];
  traces: HostileCase[];
  /** A 200 without {"id": <ULID>}. */
  badOk: HostileCase[];
  /** Each 200 with its id. */
  accepted: { hostileCase: HostileCase; id: string }[];
  /** Statuses by kind of case, for the console. */
  byKind: Map<string, Map<number, number>>;
}

function idOf(answer: RawAnswer): unknown {
  try {
    return (JSON.parse(answer.body) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

export function sortAnswers(cases: readonly HostileCase[], answers: readonly (RawAnswer | undefined)[]): Answered {
  const answered: Answered = { fiveXx: [], noAnswer: [], offContract: [], traces: [], badOk: [], accepted: [], byKind: new Map() };
  cases.forEach((hostileCase, i) => {
    const answer = answers[i];
    if (!answer) return;
    const kindCounts = answered.byKind.get(hostileCase.kind) ?? new Map<number, number>();
    kindCounts.set(answer.status, (kindCounts.get(answer.status) ?? 0) + 1);
    answered.byKind.set(hostileCase.kind, kindCounts);
    if (answer.status === 0) answered.noAnswer.push(hostileCase);
    else if (answer.status >= 500) answered.fiveXx.push(hostileCase);
    else if (!hostileCase.expect.includes(answer.status)) answered.offContract.push({ hostileCase, status: answer.status });
    if (STACK_TRACE.test(answer.body)) answered.traces.push(hostileCase);
    if (answer.status === 200 && hostileCase.method !== 'HEAD') {
      const id = idOf(answer);
      if (typeof id !== 'string' || !ULID.test(id)) answered.badOk.push(hostileCase);
      else answered.accepted.push({ hostileCase, id });
    }
  });
  return answered;
}

/** "3: #12 deep [whole-body depth 900]; …": the first few cases of a list, by index, kind and variant. */
function describeCases(list: HostileCase[], extra?: (c: HostileCase) => string): string {
  if (list.length === 0) return 'none';
  const shown = list.slice(0, 5).map((c) => `#${c.index} ${c.kind} [${c.variant}]${extra ? ` ${extra(c)}` : ''}`);
  return `${list.length}: ${shown.join('; ')}${list.length > 5 ? ' …' : ''}`;
}

/** Checks what came back, and records each accepted message in the ledger (the honeypot's too: they are stored, held). */
export function checkAnswers(ctx: SuiteContext, cases: readonly HostileCase[], { answers, primed }: HostileRun): Answered {
  const { report, ledger } = ctx;
  const answered = sortAnswers(cases, answers);
  const poolIds = new Map<string, Set<string>>();
  for (const { hostileCase, id } of answered.accepted) {
    ledger.accept({ id, phase: 'hostile' });
    if (hostileCase.honeypotMarker) ledger.honeypotIds.add(id);
    else {
      const key = hostileCase.poolKey;
      if (key) poolIds.set(key, (poolIds.get(key) ?? new Set([primed.get(key)!])).add(id));
    }
  }
  const { fiveXx, noAnswer, offContract, traces, badOk } = answered;
  report.check(
    AREA,
    'zero 5xx',
    fiveXx.length === 0,
    describeCases(fiveXx, (c) => String(answers[c.index]?.status)),
  );
  report.check(
    AREA,
    'zero hangs or dropped connections',
    noAnswer.length === 0,
    describeCases(noAnswer, (c) => answers[c.index]?.error ?? ''),
  );
  report.check(
    AREA,
    'every status is one the contract names for that input',
    offContract.length === 0,
    offContract.length === 0
      ? 'none'
      : `${offContract.length}: ${offContract
          .slice(0, 6)
          .map(({ hostileCase: c, status }) => `#${c.index} ${c.kind} [${c.variant}] got ${status}, expected ${c.expect.join('/')}`)
          .join('; ')}`,
  );
  report.check(AREA, 'no stack trace or internal path in any answer', traces.length === 0, describeCases(traces));
  report.check(AREA, 'every 200 carries {"id": <ULID>}', badOk.length === 0, describeCases(badOk));
  const splitPool = [...poolIds].filter(([, ids]) => ids.size > 1);
  report.check(
    AREA,
    'same Idempotency-Key and body → same id',
    splitPool.length === 0,
    `${poolIds.size} pooled keys, ${splitPool.length} answered more than one id`,
  );
  return answered;
}

/** How many stored items and e-mails failed their checks, for the summary row. */
interface StoredAndSent {
  invalidItems: number;
  unsafeEmails: number;
}

/** Checks the table, the outbox and the wire to SES after the phase. */
export async function checkStoredAndSent(
  ctx: SuiteContext,
  cases: readonly HostileCase[],
  wire: readonly WireSendEmail[],
): Promise<StoredAndSent> {
  const { report, ready } = ctx;
  const contents = await scanTable(ready.urls.dynamodb, ready.tableName);
  const invalid = contents.messages.map((item) => problemsOfStoredMessage(item)).filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `zero invalid items stored (all ${count(contents.messages.length)} messages re-validated)`,
    invalid.length === 0,
    describeProblems(invalid),
  );
  const badRecords = contents.idempotency.map((item) => problemsOfIdempotencyRecord(item)).filter((problems) => problems.length > 0);
  report.check(AREA, 'idempotency records carry no status and a message id', badRecords.length === 0, describeProblems(badRecords));
  const outbox = await sentEmails(ready.urls.ses);
  checkHoneypots(ctx, cases, contents.messages, outbox);
  // A digest speaks of many visitors, so it is held to its own rules (no Reply-To).
  const emails = outbox.filter((email) => digestCountOf(email) === undefined);
  const digests = outbox.filter((email) => digestCountOf(email) !== undefined);
  const unsafeDigests = digests.map((email) => problemsOfDigest(email, ready)).filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `every digest to MAIL_TO only, without a Reply-To (${digests.length})`,
    unsafeDigests.length === 0,
    describeProblems(unsafeDigests),
  );

  const itemsById = new Map(contents.messages.map((item) => [item.id, item]));
  const template = ctx.template ?? { tags: new Set<string>(), skeleton: '' };
  const unsafe = emails
    .map((email) => problemsOfEmail(email, { ...ready, ...template }, itemsById.get(messageIdOf(email) ?? '')))
    .filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `no e-mail with an injected header, extra recipient or unescaped HTML (all ${count(emails.length)} e-mails)`,
    unsafe.length === 0,
    describeProblems(unsafe),
  );
  const wireProblems = wire.map((sent) => problemsOnWire(sent, ready)).filter((problems) => problems.length > 0);
  report.check(
    AREA,
    `on the wire to SES: To = MAIL_TO only, no Cc/Bcc, one Reply-To, one-line subject (${wire.length} SendEmail calls)`,
    wireProblems.length === 0,
    describeProblems(wireProblems),
  );
  return { invalidItems: invalid.length, unsafeEmails: unsafe.length + wireProblems.length };
}

/**
 * A filled honeypot gets the same 200 as a real message, and is stored held as suspect with
 * the honeypot among its signals: never e-mailed on its own, and never refused or dropped
 * (a person's autofill can fill it too; the firm finds it in the digest).
 */
function checkHoneypots(
  ctx: SuiteContext,
  cases: readonly HostileCase[],
  messages: readonly Item[],
  emails: Awaited<ReturnType<typeof sentEmails>>,
): void {
  const honeypotMarkers = cases.flatMap((c) => (c.honeypotMarker ? [c.honeypotMarker] : []));
  const carriesMarker = (text: string) => honeypotMarkers.some((m) => text.includes(m));
  const storedHoney = messages.filter((item) => ctx.ledger.honeypotIds.has(item.id) || carriesMarker(JSON.stringify(item)));
  const notHeld = storedHoney.filter(
    (item) => item.status !== 'held' || item.heldFor !== 'suspect' || !(item.signals as string[] | undefined)?.includes('honeypot'),
  ).length;
  const missing = [...ctx.ledger.honeypotIds].filter((id) => !storedHoney.some((item) => item.id === id)).length;
  const mailedHoney = emails.filter((email) => digestCountOf(email) === undefined && carriesMarker(email.body.text ?? '')).length;
  ctx.report.check(
    AREA,
    'filled honeypot: stored, held as suspect, never e-mailed on its own',
    notHeld === 0 && missing === 0 && mailedHoney === 0,
    `${honeypotMarkers.length} honeypot requests, ${ctx.ledger.honeypotIds.size} answered 200: ${missing} not stored, ${notHeld} stored otherwise than held as suspect, ${mailedHoney} e-mailed on their own`,
  );
}

/** The subject as mail-header.ts writes text that is not plain: UTF-8 "B" encoded words, separated by spaces. */
const OUR_ENCODED_WORDS = /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=(?: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=)*$/;

function problemsOnWire(sent: WireSendEmail, expected: { mailFrom: string; mailTo: string[] }): string[] {
  const problems: string[] = [];
  if (sent.source !== mailbox(NOTIFICATION_TEXT.sender, expected.mailFrom)) problems.push('Source is not the named MAIL_FROM');
  if (JSON.stringify([...sent.to].sort()) !== JSON.stringify([...expected.mailTo].sort())) problems.push('To is not exactly MAIL_TO');
  if (sent.cc.length) problems.push('Cc present');
  if (sent.bcc.length) problems.push('Bcc present');
  if (sent.replyTo.length !== 1 || !isSingleAddress(sent.replyTo[0])) problems.push('Reply-To is not one plain address');
  const subject = sent.subject ?? '';
  // Plain text, or nothing but encoded words of the function's own: never a visitor's =?…?= for the client to decode.
  if (!isPlainHeaderText(subject) && !OUR_ENCODED_WORDS.test(subject)) problems.push('Subject holds an encoded word that is not ours');
  // As the firm's mail client reads it.
  const shown = decodeWords(subject);
  if (hasLineBreaking(shown)) problems.push('Subject holds a control character');
  if (hasInvisible(shown)) problems.push('Subject holds an invisible or direction character');
  return problems;
}

/** The phase's row in the summary table, and its statuses per kind on the console. */
export function reportTotals(ctx: SuiteContext, run: HostileRun, answered: Answered, stored: StoredAndSent): void {
  const sent = run.answers.filter((answer): answer is RawAnswer => answer !== undefined);
  const statusTotals = tally(sent.map((answer) => answer.status)).counts;
  console.log(
    `  status per kind: ${[...answered.byKind].map(([kind, counts]) => `${kind} {${[...counts].map(([s, n]) => `${s}:${n}`).join(' ')}}`).join('; ')}`,
  );
  ctx.report.row(
    'Hostile inputs tried',
    `${count(sent.length)} (seed ${ctx.seed})`,
    `${[...statusTotals]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s || 'none'}×${n}`)
      .join(' ')}; ${answered.fiveXx.length} × 5xx; ` +
      `${stored.invalidItems} invalid items stored; ${stored.unsafeEmails} unsafe e-mails; ${run.wire.length} SendEmail calls checked on the wire; ${answered.byKind.size} kinds`,
  );
}
