/**
 * `npm run messages -- purge`: marks a wave's held messages as spam, so they leave the
 * firm's digest and expire after spamRetentionDays (cdk.json) instead of retentionDays.
 *
 * - Only held messages: one that was e-mailed reached the firm already, and marking it would
 *   hide nothing. Of those, the ones with the given text (--fingerprint, as wave shows it)
 *   and/or a score of at least --min-score, received in the period.
 * - A dry run unless --confirm: it says what it would mark.
 * - Nothing is deleted: a marked message keeps every attribute, and DynamoDB removes it when
 *   its new, shorter expiry passes, never later than it would have anyway.
 * - Each mark is a conditional update on status `held`, so a second run, or one racing a
 *   release, changes nothing more.
 */
import { SPAM_SIGNALS, type SpamSignal } from '@site/core/spam';
import type { MessageTable } from '@site/lambda/store';
import { alignedColumns } from '@site/ops/columns';
import { CommandError } from './errors';
import { periodOf, periodProblem, type Period, type TimeSpec } from './period';
import { markSpam, spamExpiry } from '@site/lambda/held-store';
import { receivedIn, type WaveItem } from './wave-queries';
import { shortFingerprint } from './spam-text';
import { READ_LIMIT } from './wave';

export interface PurgeSelection {
  since?: TimeSpec;
  until?: TimeSpec;
  /** The start of a fingerprint (lower-case hex), as wave shows it. */
  fingerprint?: string;
  minScore?: number;
}

/** Messages listed by id in the report; the rest are counted. */
const LISTED = 20;

/** Whether a held message is one the selection names. No I/O. */
export function isSelected(item: WaveItem, selection: PurgeSelection): boolean {
  if (selection.fingerprint !== undefined && !item.fingerprint?.startsWith(selection.fingerprint)) return false;
  if (selection.minScore !== undefined && (item.score === undefined || item.score < selection.minScore)) return false;
  return true;
}

export interface PurgeResult {
  period: Period;
  /** Held messages read in the period. */
  held: number;
  selected: WaveItem[];
  /** With --confirm: marked now, and selected but no longer held (or changed) when marked. */
  marked: number;
  missed: number;
  /** READ_LIMIT held messages were read and more were there. */
  stopped: boolean;
}

function criteriaText(selection: PurgeSelection): string {
  return [
    selection.fingerprint && `fingerprint ${selection.fingerprint}`,
    selection.minScore !== undefined && `a score of at least ${selection.minScore}`,
  ]
    .filter(Boolean)
    .join(' and ');
}

const number = (n: number) => n.toLocaleString('en');
const messages = (n: number) => `${number(n)} message${n === 1 ? '' : 's'}`;
const signalsText = (signals: readonly SpamSignal[] = []) => signals.filter((signal) => signal in SPAM_SIGNALS).join(',');

/** The report: ids, scores and signals, never what a person wrote. No I/O. */
export function purgeReport(
  result: PurgeResult,
  selection: PurgeSelection,
  run: { table: string; confirm: boolean; spamRetentionDays: number },
): string {
  const { period, selected } = result;
  const lines = [
    `Held messages received ${period.from} to ${period.to} in ${run.table} with ${criteriaText(selection)}: ` +
      `${number(selected.length)} of ${messages(result.held)} held.`,
  ];
  if (result.stopped) {
    lines.push(
      `Stopped at ${number(READ_LIMIT)} held messages, the most one run reads: narrow --since/--until, or run again once these are marked.`,
    );
  }
  if (selected.length > 0) {
    lines.push(
      alignedColumns([
        ['id', 'received', 'score', 'held for', 'fingerprint', 'signals'],
        ...selected
          .slice(0, LISTED)
          .map((item) => [
            item.id,
            item.receivedAt,
            item.score === undefined ? '' : String(item.score),
            item.heldFor ?? '',
            shortFingerprint(item.fingerprint ?? ''),
            signalsText(item.signals),
          ]),
      ]),
    );
    if (selected.length > LISTED) lines.push(`… and ${number(selected.length - LISTED)} more.`);
  }
  const expiry = `spamRetentionDays (${run.spamRetentionDays} days, cdk.json) from now, or sooner where a message already expires sooner`;
  if (!run.confirm) {
    lines.push(
      selected.length === 0
        ? 'Nothing to mark.'
        : `Dry run: nothing changed. With --confirm, these are marked spam and expire ${expiry}; nothing is deleted before then.`,
    );
    return lines.join('\n');
  }
  lines.push(`Marked ${messages(result.marked)} as spam: ${result.marked === 1 ? 'it expires' : 'they expire'} ${expiry}.`);
  if (result.missed > 0) {
    lines.push(
      `${messages(result.missed)} had been released, marked or changed meanwhile and ${result.missed === 1 ? 'was' : 'were'} left as ${result.missed === 1 ? 'it is' : 'they are'}.`,
    );
  }
  lines.push('Only held messages are marked: running purge again changes nothing for these.');
  return lines.join('\n');
}

/** Reads the held messages of the period, picks the selected ones and, with `confirm`, marks each. */
export async function purge(
  table: MessageTable,
  selection: PurgeSelection,
  run: { confirm: boolean; spamRetentionDays: number; now: Date },
): Promise<PurgeResult> {
  const period = periodOf(selection, run.now);
  const problem = periodProblem(period);
  if (problem) throw new CommandError(problem);
  const result: PurgeResult = { period, held: 0, selected: [], marked: 0, missed: 0, stopped: false };
  for await (const item of receivedIn(table, 'held', period)) {
    if (result.held === READ_LIMIT) {
      result.stopped = true;
      break;
    }
    result.held += 1;
    if (isSelected(item, selection)) result.selected.push(item);
  }
  if (!run.confirm) return result;
  for (const item of result.selected) {
    if (await markSpam(table, item.id, spamExpiry(item, run.now, run.spamRetentionDays))) result.marked += 1;
    else result.missed += 1;
  }
  return result;
}
