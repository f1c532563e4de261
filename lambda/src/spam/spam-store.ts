/**
 * What the spam signals and the mail budget count in the message table: each stamp's use,
 * the messages of one text today, and the e-mails each budget and each sender network has cost
 * in its hour and its day. Items of their own (no status, no address, no text: keyed hashes, ids and counts),
 * each with a TTL, so none is ever in an index and none outlives its day by much.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { DIGEST_STATE_ID, TEXT_PREFIX, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { conditionalWrite, writeIfCondition } from '../store/conditional-write';
import { DAY_ITEMS_KEPT_DAYS_AFTER, REPEATED_IN } from '@site/core/spam';
import { budgetCounter, networkShare, withoutReserve, type BudgetCounter, type BudgetKind, type MailBudgets } from './mail-budget';
import type { MessageTable } from '../store/store';

const DAY_SECONDS = 24 * 60 * 60;

/** Every stamp's record starts so: the challenge's id, and the message that used it. */
export const STAMP_PREFIX = 'stamp#';

/**
 * Records a valid stamp's use by a message; false when another message used it before (a
 * replayed stamp). The same message may use it again: a visitor's retry after a failed send
 * carries the same stamp and the same Idempotency-Key.
 */
export function useStamp(table: MessageTable, stamp: { id: string; expiresAt: number; messageId: string }): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: { id: `${STAMP_PREFIX}${stamp.id}`, messageId: stamp.messageId, expiresAt: stamp.expiresAt },
        ConditionExpression: 'attribute_not_exists(id) OR messageId = :messageId',
        ExpressionAttributeValues: { ':messageId': stamp.messageId },
      }),
    ),
  );
}

/** A text's near-copy bands today (nearCopyBands), as read: each band's item and the sender tags it holds. */
export interface NearCopyBands {
  keys: { id: string }[];
  senders: Set<string>[];
  day: number;
}

/** A BatchGetItem's keys DynamoDB left unread (under throttling) are asked for again, this often at most. */
const BATCH_READS = 3;
const BATCH_READ_PAUSE_MS = 25;

/**
 * Reads the items of a text's near-copy bands today (UTC), all in one request: reads only, so
 * the handler makes them while the visitor is counted, and a post refused after it costs no write.
 */
export async function readNearCopies(table: MessageTable, bands: readonly string[], now: Date): Promise<NearCopyBands> {
  const day = Math.floor(now.getTime() / 1000 / DAY_SECONDS);
  const keys = bands.map((band) => ({ id: `${TEXT_PREFIX}${band}#${day}` }));
  const found = new Map<string, Set<string>>();
  // Each band's hash names its band (nearCopyBands): no key is asked for twice, which BatchGetItem refuses.
  let unread: BatchGetCommandInput['RequestItems'] = { [table.name]: { Keys: keys, ProjectionExpression: 'id, senders' } };
  for (let read = 0; read < BATCH_READS && unread !== undefined; read += 1) {
    // As AWS advises for unprocessed keys: after a pause that doubles, so a throttled table can recover.
    if (read > 0) await sleep(BATCH_READ_PAUSE_MS * 2 ** (read - 1));
    const answer: BatchGetCommandOutput = await table.client.send(new BatchGetCommand({ RequestItems: unread }));
    for (const item of answer.Responses?.[table.name] ?? []) found.set(item.id as string, item.senders as Set<string>);
    unread = Object.keys(answer.UnprocessedKeys ?? {}).length > 0 ? answer.UnprocessedKeys : undefined;
  }
  if (unread !== undefined) throw new Error(`near-copy bands unread after ${BATCH_READS} reads (throttled)`);
  return { keys, senders: keys.map((key) => found.get(key.id) ?? new Set<string>()), day };
}

/**
 * Counts `sender` (senderTag in spam-signals.ts) as one of those who sent a near-copy of a
 * text today: an item per band of its near-copy fingerprint, each a set of keyed sender tags,
 * `read` by readNearCopies. Answers how many sent a text sharing a band with this one, this
 * sender included, up to REPEATED_IN. When a band was full as read, the text is repeated and
 * nothing is written, so a wave of near-copies costs reads only, never a write per band per
 * message, and no item grows past REPEATED_IN tags. Without a sender (the same message sent
 * again, already counted) nothing is written. No item holds a message id, so nothing in it
 * leads to a message.
 */
export async function countNearCopies(table: MessageTable, read: NearCopyBands, sender: string | undefined): Promise<number> {
  const counted = (sizes: readonly number[]) => Math.min(Math.max(...sizes), REPEATED_IN);
  const before = counted(read.senders.map((senders) => senders.size));
  if (sender === undefined || before === REPEATED_IN) return before;
  const written = await Promise.all(
    read.keys.map(async (Key, band) => {
      if (read.senders[band]!.has(sender)) return read.senders[band]!.size;
      let senders: Set<string> | undefined;
      const write = await conditionalWrite(async () => {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.name,
            Key,
            UpdateExpression: 'ADD senders :sender SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
            ConditionExpression: 'attribute_not_exists(senders) OR size(senders) < :full',
            ExpressionAttributeValues: {
              ':sender': new Set([sender]),
              ':expiresAt': (read.day + 1 + DAY_ITEMS_KEPT_DAYS_AFTER) * DAY_SECONDS,
              ':full': REPEATED_IN,
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        senders = Attributes?.senders as Set<string> | undefined;
      });
      // Refused only when others filled the band since it was read: the text is repeated.
      return write.applied ? (senders?.size ?? 1) : REPEATED_IN;
    }),
  );
  return counted(written);
}

/** What one e-mail took from the budgets: the budget it spent and every counter it counted in, to give back when its message is not stored. */
export interface SpentBudget {
  kind: BudgetKind;
  counters: Pick<BudgetCounter, 'id' | 'hour'>[];
}

/**
 * Counts one e-mail in `counter`'s hour and day, unless either is spent: one conditional
 * update of the day's item, which holds the hour's count too, so concurrent requests never
 * spend past either. The day's count after it, or undefined when it was spent.
 */
async function take(table: MessageTable, counter: BudgetCounter): Promise<number | undefined> {
  let sent: number | undefined;
  const write = await conditionalWrite(async () => {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { id: counter.id },
        UpdateExpression: 'ADD sent :one, #hour :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: '(attribute_not_exists(sent) OR sent < :perDay) AND (attribute_not_exists(#hour) OR #hour < :perHour)',
        ExpressionAttributeNames: { '#hour': counter.hour },
        ExpressionAttributeValues: { ':one': 1, ':perDay': counter.perDay, ':perHour': counter.perHour, ':expiresAt': counter.expiresAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    sent = Attributes?.sent as number | undefined;
  });
  return write.applied ? (sent ?? 1) : undefined;
}

/**
 * Takes one e-mail for a message, or none: from its sender's networks' shares (narrowest first;
 * `networks` are keyed hashes, visitor-limit.ts's budgetNetworks) and from the first of `kinds`
 * with room. The day's reserve is open only when this is the narrowest network's first e-mail
 * of the day. Whatever was counted for an e-mail that is not sent is given back, so a held
 * message costs its network nothing.
 */
export async function takeMailBudget(
  table: MessageTable,
  plan: { kinds: readonly BudgetKind[]; budgets: MailBudgets; networks: readonly string[] },
  now: Date,
): Promise<SpentBudget | undefined> {
  const shares = plan.networks.map((network, index) =>
    budgetCounter({ network }, networkShare(plan.budgets, index === 0 ? 'network' : 'wider'), now),
  );
  const kindCounter = (kind: BudgetKind, reserve: boolean) =>
    budgetCounter({ kind }, reserve ? plan.budgets[kind] : withoutReserve(plan.budgets[kind]), now);
  // The shares and the first budget without its reserve at once: one round trip of the
  // visitor's wait, not two (decision 0050). A share that refuses gives the budget's place back
  // a round trip later; the reserve, which only a share's answer opens, is tried after it.
  const [firstKind, ...laterKinds] = plan.kinds;
  const together = firstKind === undefined ? shares : [...shares, kindCounter(firstKind, false)];
  const counted = await Promise.allSettled(together.map((counter) => take(table, counter)));
  const sent = counted.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  const taken = together.filter((_, index) => sent[index] !== undefined);
  try {
    const failed = counted.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (sent.slice(0, shares.length).includes(undefined)) return await giveBack(table, taken);
    if (firstKind !== undefined && sent[shares.length] !== undefined) return { kind: firstKind, counters: taken };
    const first = sent[0] === 1;
    for (const kind of first ? plan.kinds : laterKinds) {
      const counter = kindCounter(kind, first);
      if ((await take(table, counter)) !== undefined) return { kind, counters: [...taken, counter] };
    }
    return await giveBack(table, taken);
  } catch (error) {
    await giveBack(table, taken).catch(() => undefined);
    throw error;
  }
}

async function giveBack(table: MessageTable, counters: readonly Pick<BudgetCounter, 'id' | 'hour'>[]): Promise<undefined> {
  await Promise.all(
    counters.map((counter) =>
      table.client.send(
        new UpdateCommand({
          TableName: table.name,
          Key: { id: counter.id },
          UpdateExpression: 'ADD sent :back, #hour :back',
          ConditionExpression: 'attribute_exists(sent)',
          ExpressionAttributeNames: { '#hour': counter.hour },
          ExpressionAttributeValues: { ':back': -1 },
        }),
      ),
    ),
  );
  return undefined;
}

/** Gives an e-mail back to every counter it was counted in: the message it was taken for was not stored. Best effort. */
export async function returnMailBudget(table: MessageTable, spent: SpentBudget): Promise<void> {
  await giveBack(table, spent.counters);
}

/** When the last digest went out, and the last held message it counted (ISO): its one item. */
export interface DigestState {
  sentAt?: string;
  through?: string;
}

export async function readDigestState(table: MessageTable): Promise<DigestState> {
  const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: { id: DIGEST_STATE_ID }, ConsistentRead: true }));
  return { sentAt: Item?.sentAt as string | undefined, through: Item?.through as string | undefined };
}

/** Moves the digest's state from `from` to `to`; false when another run moved it first. */
export function claimDigest(table: MessageTable, from: DigestState, to: DigestState): Promise<boolean> {
  return writeIfCondition(() =>
    table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: { id: DIGEST_STATE_ID, ...to },
        ...(from.sentAt === undefined
          ? { ConditionExpression: 'attribute_not_exists(sentAt)' }
          : { ConditionExpression: 'sentAt = :sentAt', ExpressionAttributeValues: { ':sentAt': from.sentAt } }),
      }),
    ),
  );
}

/** Held messages that arrived after `after` (ISO), oldest first, at most `cap`; `more` when there are others. */
export async function listHeldSince(
  table: MessageTable,
  after: string | undefined,
  cap: number,
): Promise<{ messages: StoredMessage[]; more: boolean }> {
  const messages: StoredMessage[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'byStatus' satisfies IndexName,
        // DynamoDB refuses an empty string as a key's value (dynalite does not): before the first
        // digest, every held message, with no condition on receivedAt at all.
        KeyConditionExpression: after === undefined ? '#status = :held' : '#status = :held AND receivedAt > :after',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':held': 'held' satisfies MessageStatus, ...(after !== undefined && { ':after': after }) },
        Limit: cap - messages.length,
        ExclusiveStartKey: startKey,
      }),
    );
    messages.push(...((page.Items ?? []) as StoredMessage[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined && messages.length < cap);
  return { messages, more: startKey !== undefined };
}
