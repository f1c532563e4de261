/**
 * The consumer of SES's delivery events: EventBridge invokes it with each event of the
 * stage's configuration set, and it records the outcome on the stored message the event's
 * tags name (delivered, bounced, …; see recordDeliveryOutcome for the order rules). An event
 * for no message it knows is counted, not failed. Built from its parts like the other
 * handlers: Lambda's entry (handlers/record-delivery-event.ts), the local stack's mailbox
 * simulator and the tests run this same code.
 *
 * Its one log line per event holds ids, types and outcomes only: an SES event carries the
 * subject (the visitor's name), the headers (the visitor's address as Reply-To) and the
 * recipients, and none of that is read, let alone logged.
 */
import type { Context } from 'aws-lambda';
import { DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import type { AwsClients } from '../shared/aws';
import type { DeliveryEventConfig } from '../config';
import { readDeliveryEvent, type DeliveryReport } from './delivery-events';
import { describeError, errorLocation, withoutDetails, writeLog, type LogEntry } from '../shared/log';
import { writeMetrics, type MetricValue } from '../shared/metrics';
import { recordDeliveryOutcome, type MessageTable, type OutcomeRecord } from '../store/store';

export type DeliveryEventHandler = (event: unknown, context?: Context) => Promise<void>;

/** What the consumer did with an event. */
type Outcome = 'sent' | 'digest' | 'check' | 'record_failed' | OutcomeRecord | (typeof DELIVERY_EVENT_LOG.unmatched)[number];

// What the monitoring counts as not ours must be an outcome this consumer logs.
DELIVERY_EVENT_LOG.notOurs satisfies readonly Outcome[];

function eventId(event: unknown): string | undefined {
  const id = (event as { id?: unknown } | null)?.id;
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : undefined;
}

/** The log line's fields for a report: ids and types only. */
function described(report: DeliveryReport): Omit<LogEntry, 'level' | 'msg'> {
  switch (report.kind) {
    case 'malformed':
      return { problem: report.problem };
    case 'untagged':
      return { eventType: report.eventType, sesMessageId: report.sesMessageId };
    case 'digest':
    case 'check':
      return { eventType: report.eventType, [DELIVERY_EVENT_LOG.reportsField]: report.status, sesMessageId: report.sesMessageId };
    case 'sent':
      return { eventType: report.eventType, messageId: report.messageId, sesMessageId: report.sesMessageId };
    case 'outcome': {
      const { outcome } = report;
      return {
        eventType: report.eventType,
        [DELIVERY_EVENT_LOG.reportsField]: outcome.status,
        messageId: report.messageId,
        attempt: outcome.attempt,
        sesMessageId: outcome.sesMessageId,
        bounceType: outcome.bounceType,
        bounceSubType: outcome.bounceSubType,
      };
    }
  }
}

async function handled(report: DeliveryReport, table: MessageTable): Promise<Outcome> {
  switch (report.kind) {
    case 'malformed':
    case 'untagged':
      return report.kind;
    case 'sent':
      return 'sent';
    case 'digest':
      return 'digest';
    case 'check':
      return 'check';
    case 'outcome':
      return recordDeliveryOutcome(table, report.messageId, report.outcome);
  }
}

const LEVEL: Record<Outcome, LogEntry['level']> = {
  recorded: 'info',
  superseded: 'info',
  sent: 'info',
  digest: 'info',
  check: 'info',
  unknown_message: 'warn',
  not_our_attempt: 'warn',
  untagged: 'warn',
  malformed: 'warn',
  record_failed: 'error',
};

/**
 * One delivery event: counted by what SES reported when it changed the message. A repeat, a
 * late event, and an event for no message or attempt of ours count nothing here (their own
 * metric filters count the last two).
 */
function deliveryMetrics(report: DeliveryReport, outcome: Outcome): MetricValue[] {
  return report.kind === 'outcome' && outcome === 'recorded' ? [{ name: 'DeliveryOutcomes', value: 1, by: report.outcome.status }] : [];
}

/** The consumer, built from its dependencies: the table's name and the client that reaches it. */
export function createDeliveryEventHandler(dependencies: {
  config: DeliveryEventConfig;
  clients: Pick<AwsClients, 'documents'>;
}): DeliveryEventHandler {
  const table: MessageTable = { name: dependencies.config.tableName, client: dependencies.clients.documents };
  return async (event, context) => {
    const report = readDeliveryEvent(event);
    const line = { msg: DELIVERY_EVENT_LOG.msg, requestId: context?.awsRequestId, eventId: eventId(event), ...described(report) };
    let outcome: Outcome;
    try {
      outcome = await handled(report, table);
    } catch (error) {
      writeLog({
        level: LEVEL.record_failed,
        ...line,
        [DELIVERY_EVENT_LOG.outcomeField]: 'record_failed',
        error: describeError(error),
        where: errorLocation(error),
      });
      // Thrown, so Lambda invokes again with the same event (twice more, over minutes).
      throw withoutDetails(error);
    }
    writeMetrics(dependencies.config.stage, deliveryMetrics(report, outcome));
    writeLog({ level: LEVEL[outcome], ...line, [DELIVERY_EVENT_LOG.outcomeField]: outcome });
  };
}
