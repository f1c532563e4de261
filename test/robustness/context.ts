/**
 * What every phase of the suite shares: the stack, where to send traffic, the report, and
 * the ledger of every message the service accepted, which the last phase reconciles
 * against the table and the outbox to count lost messages.
 */
import type { ReadyMessage } from './protocol';
import type { Report } from './report';
import type { StackClient } from './stack-client';

export interface AcceptedMessage {
  id: string;
  phase: string;
  /** Load-generator messages carry one; generated hostile ones may not. */
  marker?: string;
}

export class Ledger {
  /** By message id: a replayed Idempotency-Key answers the same id, counted once. */
  readonly accepted = new Map<string, AcceptedMessage>();
  /** Ids answered to filled-honeypot requests: these must never be stored or e-mailed. */
  readonly honeypotIds = new Set<string>();

  accept(message: AcceptedMessage): void {
    if (!this.accepted.has(message.id)) this.accepted.set(message.id, message);
  }
}

export interface SuiteContext {
  stack: StackClient;
  ready: ReadyMessage;
  /** The edge, where all traffic goes (loopback only). */
  site: string;
  /** Short and alphanumeric: part of every marker, so two runs never mix. */
  runTag: string;
  seed: number;
  report: Report;
  ledger: Ledger;
  /**
   * The notification template's tags and one harmless e-mail's HTML, learnt in the load
   * phase from e-mails built from plain text, so the hostile phase can spot visitor markup.
   */
  template?: { tags: Set<string>; skeleton: string };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
