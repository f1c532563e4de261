/**
 * `npm run messages -- wave [--since <time>] [--until <time>]`: what arrived in a period, to
 * see a spam wave before clearing it: messages per status (held ones by why), per score, per
 * signal, and the texts that came most often (by fingerprint, a keyed hash; never the text).
 * Reads the byStatus index by time, status by status, at most READ_LIMIT messages a run.
 */
import { SPAM_SIGNALS, SPAM_SIGNAL_NAMES, SUSPECT_SCORE } from '@site/core/spam';
import { MESSAGE_STATUSES, type MessageStatus } from '@site/core/table';
import type { MessageTable } from '@site/lambda/store';
import { alignedColumns } from '@site/ops/columns';
import { CommandError } from './errors';
import { shortFingerprint } from './spam-text';
import { periodOf, periodProblem, type Period, type TimeSpec } from './period';
import { receivedIn, type WaveItem } from './wave-queries';

/** At most this many messages a run: a day of a wave at the API's throttle is some ten times more, so the report says when it stopped. */
export const READ_LIMIT = 100_000;

const TOP_FINGERPRINTS = 10;

export interface FingerprintCount {
  fingerprint: string;
  messages: number;
  held: number;
  minScore?: number;
  maxScore?: number;
}

export interface WaveCounts {
  total: number;
  byStatus: Map<MessageStatus, number>;
  heldFor: Map<string, number>;
  /** By score; messages stored before scoring under `undefined`. */
  byScore: Map<number | undefined, number>;
  bySignal: Map<string, number>;
  byFingerprint: Map<string, FingerprintCount>;
  /** The status whose messages were still being read when READ_LIMIT was reached. */
  stoppedAt?: MessageStatus;
}

export const emptyCounts = (): WaveCounts => ({
  total: 0,
  byStatus: new Map(),
  heldFor: new Map(),
  byScore: new Map(),
  bySignal: new Map(),
  byFingerprint: new Map(),
});

const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** Counts one message in. No I/O. */
export function countIn(counts: WaveCounts, item: WaveItem): void {
  counts.total += 1;
  add(counts.byStatus, item.status);
  if (item.status === 'held') add(counts.heldFor, item.heldFor ?? 'unknown');
  add(counts.byScore, item.score);
  for (const signal of item.signals ?? []) add(counts.bySignal, signal);
  if (item.fingerprint === undefined) return;
  const short = shortFingerprint(item.fingerprint);
  const entry = counts.byFingerprint.get(short) ?? { fingerprint: short, messages: 0, held: 0 };
  entry.messages += 1;
  if (item.status === 'held') entry.held += 1;
  if (item.score !== undefined) {
    entry.minScore = Math.min(entry.minScore ?? item.score, item.score);
    entry.maxScore = Math.max(entry.maxScore ?? item.score, item.score);
  }
  counts.byFingerprint.set(short, entry);
}

/** Reads the period, status by status, and counts what it holds, stopping at `limit` messages. */
export async function countWave(table: MessageTable, period: Period, limit = READ_LIMIT): Promise<WaveCounts> {
  const counts = emptyCounts();
  for (const status of MESSAGE_STATUSES) {
    for await (const item of receivedIn(table, status, period)) {
      if (counts.total === limit) {
        counts.stoppedAt = status;
        return counts;
      }
      countIn(counts, item);
    }
  }
  return counts;
}

const number = (n: number) => n.toLocaleString('en');
const scoreRange = (entry: FingerprintCount) =>
  entry.minScore === undefined ? '' : entry.minScore === entry.maxScore ? String(entry.minScore) : `${entry.minScore}–${entry.maxScore}`;

/** The report, counts only: nothing a person wrote. No I/O. */
export function waveReport(counts: WaveCounts, period: Period, table: string, limit = READ_LIMIT): string {
  const lines = [`${number(counts.total)} messages received ${period.from} to ${period.to} in ${table}.`];
  if (counts.stoppedAt) {
    lines.push(
      `Stopped at ${number(limit)} messages, the most one run reads: the counts of '${counts.stoppedAt}' and the statuses after it are partial. Narrow --since/--until.`,
    );
  }
  if (counts.total === 0) return lines.join('\n');

  const held = (status: MessageStatus) =>
    status === 'held' && counts.heldFor.size > 0 ? [...counts.heldFor].map(([why, n]) => `${why} ${number(n)}`).join(', ') : '';
  lines.push(
    '',
    alignedColumns([
      ['status', 'messages', 'held for'],
      ...MESSAGE_STATUSES.filter((status) => counts.byStatus.has(status)).map((status) => [
        status,
        number(counts.byStatus.get(status)!),
        held(status),
      ]),
    ]),
  );

  const scores = [...counts.byScore].sort(([a], [b]) => (b ?? -1) - (a ?? -1));
  lines.push(
    '',
    alignedColumns([
      ['score', 'messages', ''],
      ...scores.map(([score, n]) => [
        score === undefined ? 'none' : String(score),
        number(n),
        score === undefined ? 'stored before scoring' : score >= SUSPECT_SCORE ? 'suspect' : '',
      ]),
    ]),
  );

  if (counts.bySignal.size > 0) {
    lines.push(
      '',
      alignedColumns([
        ['signal', 'messages', 'meaning'],
        ...SPAM_SIGNAL_NAMES.filter((signal) => counts.bySignal.has(signal)).map((signal) => [
          signal,
          number(counts.bySignal.get(signal)!),
          SPAM_SIGNALS[signal].meaning,
        ]),
      ]),
    );
  }

  const top = [...counts.byFingerprint.values()]
    .filter((entry) => entry.messages > 1)
    .sort((a, b) => b.messages - a.messages || a.fingerprint.localeCompare(b.fingerprint))
    .slice(0, TOP_FINGERPRINTS);
  if (top.length > 0) {
    lines.push(
      '',
      `The same text most often (${top.length === TOP_FINGERPRINTS ? `top ${TOP_FINGERPRINTS}` : 'every text sent more than once'}; purge --fingerprint takes one):`,
      alignedColumns([
        ['fingerprint', 'messages', 'held', 'score'],
        ...top.map((entry) => [entry.fingerprint, number(entry.messages), number(entry.held), scoreRange(entry)]),
      ]),
    );
  }
  return lines.join('\n');
}

export async function wave(table: MessageTable, given: { since?: TimeSpec; until?: TimeSpec }, now: Date): Promise<string> {
  const period = periodOf(given, now);
  const problem = periodProblem(period);
  if (problem) throw new CommandError(problem);
  return waveReport(await countWave(table, period), period, table.name);
}
