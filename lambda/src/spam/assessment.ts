/**
 * How a valid message is judged before it is stored: its spam signals (spam-signals.ts) from
 * its stamp, its text and its fields, counted where they must be (the stamp's use, the same
 * text from other visitors), and then whether it is e-mailed at once (within its mail budget)
 * or held for the digest (suspect, or past the budget). A message is never refused here.
 */
import type { FieldValues } from '@site/core/contract';
import { SUSPECT_SCORE, scoreOf, type HeldFor, type SpamSignal } from '@site/core/spam';
import { budgetKindOf, type BudgetKind, type MailBudgets } from './mail-budget';
import { fingerprintOf, senderTag, signalsOf, type Observations } from './spam-signals';
import { countSameText, takeMailBudget, useStamp } from './spam-store';
import { checkStamp, type StampKeys } from './stamp';
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
  now: Date;
}

/** Scores a message. Its writes are the same however often a retry of the message makes them. */
export async function assess(
  message: Judged,
  context: { table: MessageTable; stampKeys: StampKeys; fingerprintKey: Buffer },
): Promise<Assessment> {
  const { table } = context;
  const checked = await checkStamp(message.stamp, context.stampKeys, message.now);
  const fingerprint = fingerprintOf(context.fingerprintKey, message.contact.message);
  const sender = message.sender && senderTag(context.fingerprintKey, message.sender);
  // Two items that do not depend on each other: written at once, one round trip of the visitor's wait, not two.
  const [unused, repeatedIn] = await Promise.all([
    checked.kind !== 'valid' || useStamp(table, { id: checked.id, expiresAt: checked.expiresAt, messageId: message.messageId }),
    countSameText(table, fingerprint, sender, message.now),
  ]);
  const stamp: Observations['stamp'] = unused ? checked : { kind: 'used' };
  const signals = signalsOf({
    stamp,
    receivedAt: Math.floor(message.now.getTime() / 1000),
    name: message.contact.name,
    company: message.contact.company,
    message: message.contact.message,
    repeatedIn,
    honeypot: message.honeypot,
  });
  return { signals, score: scoreOf(signals), fingerprint, stamped: stamp.kind === 'valid' };
}

export type Disposition =
  /** E-mailed at once; `budget` is what it spent, to give back if it is not stored. */
  { status: 'received'; budget: BudgetKind } | { status: 'held'; heldFor: HeldFor };

/** E-mail it at once, within its budget, or hold it: suspect, or its budget spent for the hour or the day. */
export async function dispose(assessment: Assessment, table: MessageTable, budgets: MailBudgets, now: Date): Promise<Disposition> {
  if (assessment.score >= SUSPECT_SCORE) return { status: 'held', heldFor: 'suspect' };
  const kind = budgetKindOf(assessment.signals, assessment.stamped);
  return (await takeMailBudget(table, kind, budgets[kind], now))
    ? { status: 'received', budget: kind }
    : { status: 'held', heldFor: 'budget' };
}
