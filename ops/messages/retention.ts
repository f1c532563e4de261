/**
 * `npm run messages -- retention [--apply]`: brings the messages already stored to the
 * retention the deploy is configured with (retentionDays in cdk.json, which the site's
 * privacy statement quotes and the contact function writes on every new message).
 *
 * - A message kept longer than the period gets the period's expiry, counted from when it
 *   arrived: the privacy statement promises that period for every stored message, so a
 *   shorter period applies to what is stored too. One already past it DynamoDB deletes
 *   within days, as it does any expired item.
 * - A message stored under a shorter period keeps its expiry: who wrote it was told that
 *   period, and keeping it longer would need telling them.
 *
 * A dry run unless --apply. Each change is a conditional update that only ever moves an
 * expiry earlier, so a second run, or one racing the functions, changes nothing more. Only
 * counts are written, on stderr: never a name, an address or a message.
 */
import { expiresAtFor } from '@site/core/table';
import { listExpiries, shortenExpiry, type MessageExpiry } from './queries';
import { type MessageTable } from '@site/lambda/store';

/** What the period means for one stored message. */
export type RetentionVerdict = 'shorten' | 'in step' | 'keep';

export function verdictFor(message: MessageExpiry, retentionDays: number): RetentionVerdict {
  const due = expiresAtFor(message.receivedAt, retentionDays);
  return message.expiresAt > due ? 'shorten' : message.expiresAt === due ? 'in step' : 'keep';
}

export interface RetentionCounts {
  checked: number;
  /** Kept longer than the period. */
  longer: number;
  /** Of those, already past the period's expiry: deleted within days once set. */
  pastDue: number;
  /** Of those, set (with --apply). */
  shortened: number;
  inStep: number;
  /** Stored under a shorter period. */
  kept: number;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The report, one fact a line, counts only. */
export function retentionReport(counts: RetentionCounts, retentionDays: number, table: string, apply: boolean): string {
  const days = count(retentionDays, 'day');
  const lines = [
    `Retention: ${days} (retentionDays in cdk.json). Checked ${count(counts.checked, 'stored message')} in ${table}; idempotency records and visitor counters are not messages and were left alone.`,
  ];
  if (counts.longer > 0) {
    const due =
      counts.pastDue > 0
        ? ` ${counts.pastDue.toLocaleString('en')} of them ${counts.pastDue === 1 ? 'is' : 'are'} past it already: DynamoDB deletes ${counts.pastDue === 1 ? 'it' : 'those'} within a few days${apply ? '' : ' of the change'}.`
        : '';
    lines.push(
      apply
        ? `  ${count(counts.shortened, 'message')} now expire${counts.shortened === 1 ? 's' : ''} ${days} after arriving, as the privacy statement says.${due}`
        : `  ${count(counts.longer, 'message')} ${counts.longer === 1 ? 'is' : 'are'} kept longer than ${days} after arriving: --apply sets ${counts.longer === 1 ? 'it' : 'them'} to expire ${days} after arriving.${due}`,
    );
    if (apply && counts.shortened < counts.longer) {
      lines.push(`  ${count(counts.longer - counts.shortened, 'message')} changed or went while this ran; run the command again to check.`);
    }
  }
  lines.push(`  ${count(counts.inStep, 'message')} already expire${counts.inStep === 1 ? 's' : ''} ${days} after arriving.`);
  if (counts.kept > 0) {
    lines.push(
      `  ${count(counts.kept, 'message')} stored under a shorter period keep${counts.kept === 1 ? 's' : ''} ${counts.kept === 1 ? 'its' : 'their'} expiry: ` +
        'who wrote them was told that period, and a longer one applies to new messages only.',
    );
  }
  if (!apply)
    lines.push(
      counts.longer > 0 ? 'Dry run: nothing changed. Run npm run messages -- retention --apply to set them.' : 'Nothing to change.',
    );
  return lines.join('\n');
}

/** Reads every stored message's expiry and, with `apply`, brings those kept too long to the period. */
export async function bringToRetention(table: MessageTable, retentionDays: number, apply: boolean, now: Date): Promise<RetentionCounts> {
  const counts: RetentionCounts = { checked: 0, longer: 0, pastDue: 0, shortened: 0, inStep: 0, kept: 0 };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  for await (const message of listExpiries(table)) {
    counts.checked += 1;
    const verdict = verdictFor(message, retentionDays);
    if (verdict === 'in step') counts.inStep += 1;
    else if (verdict === 'keep') counts.kept += 1;
    else {
      const due = expiresAtFor(message.receivedAt, retentionDays);
      counts.longer += 1;
      if (due <= nowSeconds) counts.pastDue += 1;
      if (apply && (await shortenExpiry(table, message.id, due))) counts.shortened += 1;
    }
  }
  return counts;
}
