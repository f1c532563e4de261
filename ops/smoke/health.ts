/**
 * The stage's health, as `npm run smoke` reads it where the operator's credentials allow:
 * - the stage's alarms and their states (CloudWatch, in the stage's region and us-east-1);
 * - SES's account: sending paused or not, the sandbox, the quota used (SES v2 GetAccount);
 * - whether the retry job's and the outside check's schedules are enabled (EventBridge);
 * - from the table's status index: when the last delivery event came (do SES's events still
 *   arrive?), the oldest message waiting for its e-mail, the oldest e-mailed one without a
 *   delivery event, and the retry job's backlog.
 * All read-only, each read on its own: a read the credentials do not allow is one line saying
 * why, and the others still show (docs/on-call.md, "Smoke checks", gives the policy). Nothing of
 * a message but its id, status and times is read into a line.
 *
 * The read* functions do the I/O; healthReport is pure.
 */
import { DescribeAlarmsCommand, type CloudWatchClient, type StateValue } from '@aws-sdk/client-cloudwatch';
import { DescribeRuleCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { stagePrefix } from '@site/core/names';
import {
  AWAITING_DELIVERY,
  DELIVERY_OUTCOMES,
  type MESSAGE_TABLE,
  type DeliveryStatus,
  type MessageStatus,
  type StoredMessage,
} from '@site/core/table';
import { COUNT_CAP, countUndelivered, type MessageTable } from '@site/lambda/store';

/** What a health line says of one message. */
export interface MessageMark {
  id: string;
  status: MessageStatus;
  /** When it arrived (ISO). */
  receivedAt: string;
}

/** What the table says. */
export interface Health {
  /** The newest outcome SES reported on a message, and when; none when no message has one. */
  lastDeliveryEvent?: MessageMark & { at: string; outcome: DeliveryStatus };
  /** The oldest message stored and waiting for its e-mail. */
  oldestWaiting?: MessageMark;
  /**
   * The oldest message SES accepted through a configuration set and has not reported on (or only
   * delayed). A message e-mailed before delivery events existed has no set: no event will ever
   * come for it, so it is not one.
   */
  oldestUndelivered?: MessageMark;
  /** Messages stored and waiting for their e-mail: the retry job's work. */
  retryBacklog: number;
}

/** A read the credentials or the endpoint did not allow: why, in one sentence. */
export interface NotRead {
  notRead: string;
}

export interface StageAlarm {
  name: string;
  state: StateValue;
  /** When it last changed state (ISO). */
  since: string;
}

/** What the stage's account says: its alarms, SES's sending, its schedules. */
export interface AccountHealth {
  alarms: { alarms: StageAlarm[] } | NotRead;
  ses: { sendingEnabled: boolean; productionAccess: boolean; enforcement: string; sent: number; quota: number } | NotRead;
  schedules: { rules: { job: string; rule: string; state: 'ENABLED' | 'DISABLED' | 'missing' }[] } | NotRead;
}

const DELIVERY_STATUSES = Object.keys(DELIVERY_OUTCOMES) as DeliveryStatus[];
/**
 * How many of the newest messages of each outcome to look at for the last event. An older
 * message's event can be the newest (a delay answered hours later), so a few dozen, not one.
 */
const NEWEST_PER_OUTCOME = 25;

const STATUS_INDEX = 'byStatus' satisfies keyof typeof MESSAGE_TABLE.indexes;

/** Messages of one status from the status index, oldest or newest first, at most `limit`, reading at most COUNT_CAP. */
async function byStatus(
  table: MessageTable,
  status: MessageStatus,
  order: 'oldest' | 'newest',
  limit: number,
  keep: (message: StoredMessage) => boolean = () => true,
): Promise<StoredMessage[]> {
  const found: StoredMessage[] = [];
  let read = 0;
  const pages = paginateQuery(
    { client: table.client, pageSize: Math.max(limit, 25) },
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
    const items = (page.Items ?? []) as StoredMessage[];
    read += items.length;
    found.push(...items.filter(keep));
    if (found.length >= limit || read >= COUNT_CAP) break;
  }
  return found.slice(0, limit);
}

const mark = (message: StoredMessage): MessageMark => ({ id: message.id, status: message.status, receivedAt: message.receivedAt });
const oldestOf = (messages: StoredMessage[]) => messages.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))[0];

export async function readHealth(table: MessageTable, now: Date): Promise<Health> {
  const [waiting, undelivered, newest, retryBacklog] = await Promise.all([
    byStatus(table, 'received', 'oldest', 1),
    Promise.all(
      AWAITING_DELIVERY.map((status) => byStatus(table, status, 'oldest', 1, (message) => message.configurationSet !== undefined)),
    ),
    Promise.all(DELIVERY_STATUSES.map((status) => byStatus(table, status, 'newest', NEWEST_PER_OUTCOME))),
    countUndelivered(table, now),
  ]);
  const oldestUndelivered = oldestOf(undelivered.flat());
  const reported = newest.flat().filter((message) => message.outcome !== undefined);
  const last = reported.sort((a, b) => b.outcome!.at.localeCompare(a.outcome!.at))[0];
  return {
    ...(last && { lastDeliveryEvent: { ...mark(last), at: last.outcome!.at, outcome: last.outcome!.status } }),
    ...(waiting[0] && { oldestWaiting: mark(waiting[0]) }),
    ...(oldestUndelivered && { oldestUndelivered: mark(oldestUndelivered) }),
    retryBacklog,
  };
}

/** The clients the account's reads take: CloudWatch in the stage's region and in us-east-1, SES v2, EventBridge. */
export interface AccountClients {
  cloudWatch: CloudWatchClient[];
  sesv2: SESv2Client;
  events: EventBridgeClient;
}

/** Each read apart: one refused is one line, never the end of the others. */
async function attempt<T>(read: () => Promise<T>, why: (error: unknown) => string): Promise<T | NotRead> {
  try {
    return await read();
  } catch (error) {
    return { notRead: why(error) };
  }
}

/** The jobs whose schedules the health reads, by their function's name. */
const SCHEDULED = { 'retry job': 'retry-undelivered', 'outside check': 'outside-check' } as const;

export async function readAccountHealth(
  clients: AccountClients,
  stage: string,
  why: (error: unknown, service: string) => string,
): Promise<AccountHealth> {
  const prefix = `${stagePrefix(stage)}-`;
  const [alarms, ses, schedules] = await Promise.all([
    attempt(
      async () => {
        const found: StageAlarm[] = [];
        for (const client of clients.cloudWatch) {
          let NextToken: string | undefined;
          do {
            const page = await client.send(
              new DescribeAlarmsCommand({ AlarmNamePrefix: prefix, AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], NextToken }),
            );
            for (const alarm of [...(page.MetricAlarms ?? []), ...(page.CompositeAlarms ?? [])]) {
              found.push({
                name: alarm.AlarmName!.slice(prefix.length),
                state: alarm.StateValue!,
                since: alarm.StateUpdatedTimestamp!.toISOString(),
              });
            }
            NextToken = page.NextToken;
          } while (NextToken);
        }
        return { alarms: found };
      },
      (error) => why(error, 'CloudWatch'),
    ),
    attempt(
      async () => {
        const account = await clients.sesv2.send(new GetAccountCommand({}));
        return {
          sendingEnabled: account.SendingEnabled === true,
          productionAccess: account.ProductionAccessEnabled === true,
          enforcement: account.EnforcementStatus ?? 'unknown',
          sent: account.SendQuota?.SentLast24Hours ?? 0,
          quota: account.SendQuota?.Max24HourSend ?? 0,
        };
      },
      (error) => why(error, 'SES'),
    ),
    attempt(
      async () => ({
        rules: await Promise.all(
          Object.entries(SCHEDULED).map(async ([job, fn]) => {
            const rule = `${prefix}${fn}`;
            try {
              const { State } = await clients.events.send(new DescribeRuleCommand({ Name: rule }));
              return { job, rule, state: State === 'ENABLED' ? ('ENABLED' as const) : ('DISABLED' as const) };
            } catch (error) {
              if ((error as { name?: string }).name === 'ResourceNotFoundException') return { job, rule, state: 'missing' as const };
              throw error;
            }
          }),
        ),
      }),
      (error) => why(error, 'EventBridge'),
    ),
  ]);
  return { alarms, ses, schedules };
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

/** SES sends this share of its 24-hour quota or more: the next messages may be refused. */
const QUOTA_NEAR = 0.8;

const isNotRead = (value: object): value is NotRead => 'notRead' in value;
const notRead = (name: string, value: NotRead): HealthLine => ({ look: false, name, text: `not read: ${value.notRead}` });
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function alarmsLine(account: AccountHealth, now: Date, stage: string): HealthLine {
  const name = 'alarms';
  if (isNotRead(account.alarms)) return notRead(name, account.alarms);
  const { alarms } = account.alarms;
  if (alarms.length === 0) {
    return { look: true, name, text: `none named ${stagePrefix(stage)}-… here or in us-east-1: is the stage deployed in this region?` };
  }
  const firing = alarms.filter((alarm) => alarm.state === 'ALARM').sort((a, b) => b.since.localeCompare(a.since));
  const noData = alarms.filter((alarm) => alarm.state === 'INSUFFICIENT_DATA').length;
  const ok = alarms.length - firing.length - noData;
  const rest = [`${ok} OK`, ...(noData > 0 ? [`${noData} without data yet`] : [])].join(', ');
  if (firing.length === 0) return { look: false, name, text: `none in ALARM: ${rest}` };
  const listed = firing.map((alarm) => `${alarm.name} (${age(alarm.since, now)})`).join(', ');
  return { look: true, name, text: `${firing.length} in ALARM: ${listed}; ${rest}` };
}

function sesLine(account: AccountHealth): HealthLine {
  const name = 'SES account';
  if (isNotRead(account.ses)) return notRead(name, account.ses);
  const ses = account.ses;
  const quota = `${ses.sent} of ${ses.quota} e-mails sent in the last 24 h`;
  const access = ses.productionAccess ? 'production access' : 'in the sandbox (only verified recipients)';
  if (!ses.sendingEnabled) {
    return {
      look: true,
      name,
      text: `sending PAUSED (enforcement ${ses.enforcement}): nothing goes out, on-call guide "SES paused"; ${quota}`,
    };
  }
  const near = ses.quota > 0 && ses.sent >= ses.quota * QUOTA_NEAR;
  const review = ses.enforcement !== 'HEALTHY';
  const warnings = [
    ...(review ? [`enforcement ${ses.enforcement}: AWS is reviewing the account`] : []),
    ...(near ? ['near its quota'] : []),
  ];
  return { look: near || review, name, text: `sending, ${access}, ${quota}${warnings.length ? `; ${warnings.join('; ')}` : ''}` };
}

function schedulesLine(account: AccountHealth): HealthLine {
  const name = 'schedules';
  if (isNotRead(account.schedules)) return notRead(name, account.schedules);
  const off = account.schedules.rules.filter((rule) => rule.state !== 'ENABLED');
  if (off.length === 0) return { look: false, name, text: `${account.schedules.rules.map((rule) => rule.job).join(' and ')} enabled` };
  const said = off.map((rule) => `${rule.job} ${rule.state === 'missing' ? 'has no rule' : 'DISABLED'} (${rule.rule})`).join('; ');
  return { look: true, name, text: `${said}: enable it in EventBridge, or deploy the release again` };
}

/** The lines, each marked when it is past what its alarm allows or what AWS allows. */
export function healthReport(
  health: Health,
  now: Date,
  limits: HealthLimits,
  account?: { stage: string; health: AccountHealth },
): HealthLine[] {
  const minutesOld = (iso: string) => (now.getTime() - Date.parse(iso)) / 60_000;
  const event = health.lastDeliveryEvent;
  const waiting = health.oldestWaiting;
  const undelivered = health.oldestUndelivered;
  const waitingLook = waiting !== undefined && minutesOld(waiting.receivedAt) >= limits.waitingMinutes;
  const undeliveredLook = undelivered !== undefined && minutesOld(undelivered.receivedAt) >= limits.deliveryAlarmHours * 60;
  return [
    ...(account ? [alarmsLine(account.health, now, account.stage), sesLine(account.health), schedulesLine(account.health)] : []),
    {
      look: false,
      name: 'last delivery event',
      text: event
        ? `${age(event.at, now)} ago: ${event.outcome}, message ${event.id}`
        : 'none recorded on any message (a new stage, or SES’s events never arrived)',
    },
    {
      look: waitingLook,
      name: 'oldest waiting',
      text: waiting
        ? `${age(waiting.receivedAt, now)} old: message ${waiting.id}, stored, waiting for its e-mail${waitingLook ? ` (MessagesUndelivered fires after ${limits.waitingMinutes} min)` : ''}`
        : 'none: every stored message has been e-mailed',
    },
    {
      look: undeliveredLook,
      name: 'oldest undelivered',
      text: undelivered
        ? `${age(undelivered.receivedAt, now)} old: message ${undelivered.id}, ${undelivered.status}, no delivery reported yet${undeliveredLook ? ` (MessagesNotDelivered fires after ${limits.deliveryAlarmHours} h)` : ''}`
        : 'none: SES has reported on every e-mail (delivered, bounced, …)',
    },
    {
      look: false,
      name: 'retry backlog',
      text: `${plural(health.retryBacklog, 'message')} waiting for the retry job to e-mail ${health.retryBacklog === 1 ? 'it' : 'them'}`,
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
