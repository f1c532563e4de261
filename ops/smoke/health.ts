/**
 * The stage's health, as `npm run smoke` reads it where the operator's credentials allow: when
 * the last delivery event came (do SES's events still arrive?), the oldest message not yet
 * delivered, and the retry job's backlog (messages stored, waiting for their e-mail). All three
 * from the stage's table, through its status index only: read-only, and the one permission on
 * top of finding the table (docs/on-call.md, "Smoke checks", gives the policy). Nothing of a
 * message but its id, status and times is read into a line.
 *
 * readHealth does the I/O; healthReport is pure.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_OUTCOMES, type MESSAGE_TABLE, type DeliveryStatus, type MessageStatus, type StoredMessage } from '@site/core/table';
import { countUndelivered, type MessageTable } from '@site/lambda/store';

/** What a health line says of one message. */
export interface MessageMark {
  id: string;
  status: MessageStatus;
  /** When it arrived (ISO). */
  receivedAt: string;
}

export interface Health {
  /** The newest outcome SES reported on a message, and when; none when no message has one. */
  lastDeliveryEvent?: MessageMark & { at: string; outcome: DeliveryStatus };
  /** The oldest message SES has not yet reported delivered: waiting for its e-mail, or e-mailed without an outcome. */
  oldestUndelivered?: MessageMark;
  /** Messages stored and waiting for their e-mail: the retry job's work. */
  retryBacklog: number;
}

/** The statuses of a message on its way: waiting for its e-mail, or e-mailed and not yet (or only delayed) reported. */
const UNDELIVERED: readonly MessageStatus[] = ['received', 'emailed', 'delayed'];
const DELIVERY_STATUSES = Object.keys(DELIVERY_OUTCOMES) as DeliveryStatus[];
/**
 * How many of the newest messages of each outcome to look at for the last event. An older
 * message's event can be the newest (a delay answered hours later), so a few dozen, not one.
 */
const NEWEST_PER_OUTCOME = 25;

const STATUS_INDEX = 'byStatus' satisfies keyof typeof MESSAGE_TABLE.indexes;

/** Messages of one status from the status index, oldest or newest first. */
async function byStatus(table: MessageTable, status: MessageStatus, order: 'oldest' | 'newest', limit: number): Promise<StoredMessage[]> {
  const found: StoredMessage[] = [];
  const pages = paginateQuery(
    { client: table.client, pageSize: limit },
    {
      TableName: table.name,
      IndexName: STATUS_INDEX,
      KeyConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
      ScanIndexForward: order === 'oldest',
    },
  );
  for await (const page of pages) {
    found.push(...((page.Items ?? []) as StoredMessage[]));
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}

const mark = (message: StoredMessage): MessageMark => ({ id: message.id, status: message.status, receivedAt: message.receivedAt });

export async function readHealth(table: MessageTable, now: Date): Promise<Health> {
  const [oldest, newest, retryBacklog] = await Promise.all([
    Promise.all(UNDELIVERED.map((status) => byStatus(table, status, 'oldest', 1))),
    Promise.all(DELIVERY_STATUSES.map((status) => byStatus(table, status, 'newest', NEWEST_PER_OUTCOME))),
    countUndelivered(table, now),
  ]);
  const oldestUndelivered = oldest.flat().sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))[0];
  const reported = newest.flat().filter((message) => message.outcome !== undefined);
  const last = reported.sort((a, b) => b.outcome!.at.localeCompare(a.outcome!.at))[0];
  return {
    ...(last && { lastDeliveryEvent: { ...mark(last), at: last.outcome!.at, outcome: last.outcome!.status } }),
    ...(oldestUndelivered && { oldestUndelivered: mark(oldestUndelivered) }),
    retryBacklog,
  };
}

/** How long ago, in the largest two units that matter: `4 min`, `2 h 5 min`, `3 d 4 h`. */
export function age(from: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} d ${Math.floor((minutes % 1440) / 60)} h`;
}

export interface HealthLimits {
  /** A message waiting this long for its e-mail is what MessagesUndelivered fires on. */
  waitingMinutes: number;
  /** A message e-mailed this long ago without an outcome is what MessagesNotDelivered fires on (deliveryAlarmHours). */
  deliveryAlarmHours: number;
}

export interface HealthLine {
  /** Past what the alarms allow: look now, before (or while) the alarm fires. */
  look: boolean;
  name: string;
  text: string;
}

/** The three lines, each marked when it is past what its alarm allows. */
export function healthReport(health: Health, now: Date, limits: HealthLimits): HealthLine[] {
  const minutesOld = (iso: string) => (now.getTime() - Date.parse(iso)) / 60_000;
  const event = health.lastDeliveryEvent;
  const oldest = health.oldestUndelivered;
  const waiting = oldest?.status === 'received';
  const oldestLimit = waiting ? limits.waitingMinutes : limits.deliveryAlarmHours * 60;
  const look = oldest !== undefined && minutesOld(oldest.receivedAt) >= oldestLimit;
  const alarm = waiting
    ? `MessagesUndelivered fires after ${limits.waitingMinutes} min`
    : `MessagesNotDelivered fires after ${limits.deliveryAlarmHours} h`;
  const what = (message: MessageMark) =>
    message.status === 'received' ? 'stored, waiting for its e-mail' : `${message.status}, no delivery reported yet`;
  return [
    {
      look: false,
      name: 'last delivery event',
      text: event
        ? `${age(event.at, now)} ago: ${event.outcome}, message ${event.id}`
        : 'none recorded on any message (a new stage, or SES’s events never arrived)',
    },
    {
      look,
      name: 'oldest undelivered',
      text: oldest
        ? `${age(oldest.receivedAt, now)} old: message ${oldest.id}, ${what(oldest)}${look ? ` (${alarm})` : ''}`
        : 'none: every message is delivered (or bounced, …)',
    },
    {
      look: false,
      name: 'retry backlog',
      text: `${health.retryBacklog} ${health.retryBacklog === 1 ? 'message' : 'messages'} waiting for the retry job to e-mail ${health.retryBacklog === 1 ? 'it' : 'them'}`,
    },
  ];
}

/** The health section of the smoke check's report; `source` names the table and where it is. */
export function formatHealth(source: string, lines: HealthLine[]): string {
  const width = Math.max(...lines.map((line) => line.name.length));
  return [
    `Health, from ${source}:`,
    ...lines.map((line) => `  ${line.look ? 'LOOK' : '    '}  ${line.name.padEnd(width)}  ${line.text}`),
  ].join('\n');
}
