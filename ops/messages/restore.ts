/**
 * `restore-from <table>`: after a point-in-time restore into a new table, put back into the
 * stage's own table the messages the restored copy holds and the stage's table lost. The
 * stack keeps its own table (its indexes, TTL, backups, alarms and permissions stay as
 * deployed); only messages move. What is already in the stage's table is never touched, so a
 * message that changed since the restore point keeps its newer state. Visitor counters are
 * left behind (they only count the current window), and so is whatever has expired.
 */
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import type { StoredMessage } from '@site/core/table';
import { getMessage, storeMessage, type MessageTable } from '@site/lambda/store';
import { IDEMPOTENCY_PREFIX } from '@site/core/table';
import { putIdempotencyRecord, type IdempotencyRecord } from '@site/lambda/idempotency-records';
import { VISITOR_COUNTER_PREFIX } from '@site/lambda/visitor-limit';
import { alignedColumns } from '@site/ops/columns';
import { CommandError } from './errors';
import type { Target } from './target';

/** What a restored copy holds, sorted by what restore-from does with it. */
export interface RestoredItems {
  messages: StoredMessage[];
  /** Idempotency records by the id of the message they reserved. */
  records: Map<string, IdempotencyRecord>;
  /** Messages and records whose expiresAt has passed: DynamoDB removes them some time after. */
  expired: number;
  visitorCounters: number;
}

/** Sorts the restored items; `now` in epoch seconds. No I/O. */
export function sortRestored(items: readonly Record<string, unknown>[], now: number): RestoredItems {
  const sorted: RestoredItems = { messages: [], records: new Map(), expired: 0, visitorCounters: 0 };
  for (const item of items) {
    const id = String(item.id);
    if (id.startsWith(VISITOR_COUNTER_PREFIX)) sorted.visitorCounters += 1;
    else if (typeof item.expiresAt === 'number' && item.expiresAt <= now) sorted.expired += 1;
    else if (id.startsWith(IDEMPOTENCY_PREFIX)) {
      const record = item as unknown as IdempotencyRecord;
      sorted.records.set(record.messageId, record);
    } else if ('status' in item) sorted.messages.push(item as unknown as StoredMessage);
  }
  sorted.messages.sort((a, b) => a.id.localeCompare(b.id));
  return sorted;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

async function scanAll(table: MessageTable): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: table.client }, { TableName: table.name, ConsistentRead: true })) {
    items.push(...(page.Items ?? []));
  }
  return items;
}

/** The messages that would go back, without personal data: what the operator needs to decide. */
const missingTable = (messages: readonly StoredMessage[]) =>
  alignedColumns([['id', 'received', 'status', 'attempts'], ...messages.map((m) => [m.id, m.receivedAt, m.status, String(m.attempts)])]);

export async function restoreFrom(target: Target, command: { table: string; apply: boolean }, at: Date): Promise<void> {
  const live = target.table;
  if (command.table === live.name) {
    throw new CommandError(`${live.name} is the stage's own table; give the table the point-in-time restore created.`);
  }
  const restored: MessageTable = { name: command.table, client: live.client };
  const now = Math.floor(at.getTime() / 1000);
  let items: Record<string, unknown>[];
  try {
    items = await scanAll(restored);
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') {
      throw new CommandError(
        `No table ${restored.name} ${target.where}: give the target table name of the restore (aws dynamodb list-tables lists them).`,
      );
    }
    throw error;
  }
  const sorted = sortRestored(items, now);
  const skipped = `skipped ${plural(sorted.expired, 'expired item')} and ${plural(sorted.visitorCounters, 'visitor counter')}`;

  if (!command.apply) {
    const present = await Promise.all(sorted.messages.map(async (message) => (await getMessage(live, message.id)) !== undefined));
    const missing = sorted.messages.filter((_, i) => !present[i]);
    console.log(
      `${plural(sorted.messages.length, 'message')} in ${restored.name}: ${missing.length} missing from ${live.name}, ${sorted.messages.length - missing.length} already there; ${skipped}.`,
    );
    if (missing.length === 0) {
      console.log('Nothing to put back, and nothing changed.');
      return;
    }
    console.log(missingTable(missing));
    console.log(`Nothing changed yet. With --apply, ${missing.length === 1 ? 'it goes' : 'they go'} back into ${live.name}.`);
    return;
  }

  const putBack: StoredMessage[] = [];
  let records = 0;
  for (const message of sorted.messages) {
    if ((await storeMessage(live, message)) === 'exists') continue;
    putBack.push(message);
    const record = sorted.records.get(message.id);
    // Unless the key was claimed again since, by an unexpired record of another message.
    if (record && (await putIdempotencyRecord(live, record, now))) records += 1;
  }
  const there = sorted.messages.length - putBack.length;
  const withRecords = records > 0 ? ` (and ${plural(records, 'idempotency record')})` : '';
  console.log(
    `Put back ${plural(putBack.length, 'message')}${withRecords} into ${live.name}; left ${plural(there, 'message')} already there as ${there === 1 ? 'it was' : 'they were'}; ${skipped}.`,
  );
  if (putBack.length > 0) console.log(missingTable(putBack));
  const waiting = putBack.filter((message) => message.status === 'received').length;
  if (waiting > 0)
    console.log(`${waiting} of them ${waiting === 1 ? 'is' : 'are'} 'received': the retry job e-mails them within 10 minutes.`);
  console.log(
    `Next: run erase again for every erasure request answered since the moment restored to (docs/privacy-requests.md), then delete ${restored.name}.`,
  );
}
