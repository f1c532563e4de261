/**
 * How a valid message is judged before it is stored: its spam signals (spam-signals.ts) from
 * its stamp, its text and its fields, counted where they must be (the stamp's use, the same
 * text from other visitors), and then whether it is e-mailed at once (within its mail budget)
 * or held for the digest (suspect, or past the budget). A message is never refused here.
 */
import type { FieldValues } from '@site/core/contract';
import { SUSPECT_SCORE, scoreOf, type HeldFor, type SpamSignal } from '@site/core/spam';
import { budgetKindsOf, type MailBudgets } from './mail-budget';
import { fingerprintOf, nearCopyBands, senderTag, signalsOf, type Observations } from './spam-signals';
import { countNearCopies, readNearCopies, takeMailBudget, useStamp, type NearCopyBands, type SpentBudget } from './spam-store';
import { checkStamp, type StampCheck, type StampKeyring } from './stamp';
import type { MessageTable } from '../store/store';

export interface Assessment {
  signals: SpamSignal[];
  score: number;
  fingerprint: string;
  /** The message came with a valid stamp of the site's own form. */
  stamped: boolean;
}

export interface Judged {
  messageId: string;
  /** What the signals read of the message: nothing else of it. */
  contact: Pick<FieldValues, 'name' | 'company' | 'message'>;
  stamp: unknown;
  honeypot: boolean;
  /** Who sent it, as repeatedText counts senders (senderTag); none for the same message sent again, which was counted. */
  sender?: { network: string } | { messageId: string };
  /** The network the request came from (visitor-limit.ts's budgetNetworks, narrowest), which the stamp must have been given to. */
  network: string | undefined;
  now: Date;
}

/** The signals of a message as judged, with its stamp as checked and its text's count. */
function observed(message: Pick<Judged, 'now' | 'contact' | 'honeypot'>, stamp: Observations['stamp'], repeatedIn: number) {
  return signalsOf({
    stamp,
    receivedAt: Math.floor(message.now.getTime() / 1000),
    name: message.contact.name,
    company: message.contact.company,
    message: message.contact.message,
    repeatedIn,
    honeypot: message.honeypot,
  });
}

/** What assess reads before it writes anything: the stamp as checked, and the near-copy bands unless the message is suspect anyway. */
export interface AssessmentReads {
  checked: StampCheck;
  nearCopies?: NearCopyBands;
}

type AssessmentContext = { table: MessageTable; stampKeys: StampKeyring; fingerprintKey: Buffer };

/**
 * Reads only: the handler makes them while the message is claimed and its visitor counted, so
 * they add no round trip to the visitor's wait, and a post refused meanwhile cost reads, not writes.
 */
export async function readForAssessment(
  message: Omit<Judged, 'sender' | 'messageId'>,
  context: AssessmentContext,
): Promise<AssessmentReads> {
  const checked = await checkStamp(message.stamp, context.stampKeys, message.network, message.now);
  // A message held whatever its text's count is not counted: a wave that is suspect anyway
  // costs no near-copy reads or writes. Its stamp proving used could only raise its score.
  if (scoreOf(observed(message, checked, 0)) >= SUSPECT_SCORE) return { checked };
  return {
    checked,
    nearCopies: await readNearCopies(context.table, nearCopyBands(context.fingerprintKey, message.contact.message), message.now),
  };
}

/** Scores a message from what readForAssessment read of it. Its writes are the same however often a retry of the message makes them. */
export async function assess(message: Judged, context: AssessmentContext, reads: AssessmentReads): Promise<Assessment> {
  const { table } = context;
  const { checked, nearCopies } = reads;
  const fingerprint = fingerprintOf(context.fingerprintKey, message.contact.message);
  const sender = message.sender && senderTag(context.fingerprintKey, message.sender);
  // Two items that do not depend on each other: written at once, one round trip of the visitor's wait, not two.
  const [unused, repeatedIn] = await Promise.all([
    checked.kind !== 'valid' || useStamp(table, { id: checked.id, expiresAt: checked.expiresAt, messageId: message.messageId }),
    nearCopies ? countNearCopies(table, nearCopies, sender) : 0,
  ]);
  const stamp: Observations['stamp'] = unused ? checked : { kind: 'used' };
  const signals = observed(message, stamp, repeatedIn);
  return { signals, score: scoreOf(signals), fingerprint, stamped: stamp.kind === 'valid' };
}

export type Disposition =
  /** E-mailed at once; `budget` is what it spent, to give back if it is not stored. */
  { status: 'received'; budget: SpentBudget } | { status: 'held'; heldFor: HeldFor };

/**
 * E-mail it at once, within its budget and its networks' shares (`networks`: keyed hashes,
 * narrowest first; none when the address is not known), or hold it: suspect, or past a
 * budget or a share for the hour or the day.
 */
export async function dispose(
  assessment: Assessment,
  spend: { table: MessageTable; budgets: MailBudgets; networks: readonly string[] },
  now: Date,
): Promise<Disposition> {
  if (assessment.score >= SUSPECT_SCORE) return { status: 'held', heldFor: 'suspect' };
  const kinds = budgetKindsOf(assessment.signals, assessment.stamped);
  const spent = await takeMailBudget(spend.table, { kinds, budgets: spend.budgets, networks: spend.networks }, now);
  return spent ? { status: 'received', budget: spent } : { status: 'held', heldFor: 'budget' };
}
