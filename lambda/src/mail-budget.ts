/**
 * The mail budget: how many messages may be e-mailed one by one per hour and per day, before
 * the rest is held for the digest. Clean messages from the site's own form (a valid stamp and
 * no signal at all) have a budget of their own, higher, so a person gets through while a wave
 * spends the other. Pure: the counting is in spam-store.ts.
 */
import type { SpamSignal } from '@site/core/spam';

export interface MailBudget {
  perHour: number;
  perDay: number;
}

export interface MailBudgets {
  /** Every message that is not suspect and not a clean one from the site's own form. */
  ordinary: MailBudget;
  /** Clean messages from the site's own form. */
  site: MailBudget;
}

export type BudgetKind = keyof MailBudgets;

/** Which budget a message that is not suspect spends. */
export function budgetKindOf(signals: readonly SpamSignal[], stamped: boolean): BudgetKind {
  return stamped && signals.length === 0 ? 'site' : 'ordinary';
}

export interface BudgetWindow {
  /** The counter's item id: one per kind and window. */
  id: string;
  limit: number;
  /** Epoch seconds when the counter may go: a day after its window ends. */
  expiresAt: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Every counter item of the budget starts so; like visitor counters, none has a status or an address. */
export const BUDGET_PREFIX = 'budget#';

/** The hour's and the day's counter (UTC) of `kind` at `now`. */
export function budgetWindows(kind: BudgetKind, budget: MailBudget, now: Date): [hour: BudgetWindow, day: BudgetWindow] {
  const seconds = Math.floor(now.getTime() / 1000);
  const hour = Math.floor(seconds / HOUR);
  const day = Math.floor(seconds / DAY);
  return [
    { id: `${BUDGET_PREFIX}${kind}#hour#${hour}`, limit: budget.perHour, expiresAt: (hour + 1) * HOUR + DAY },
    { id: `${BUDGET_PREFIX}${kind}#day#${day}`, limit: budget.perDay, expiresAt: (day + 2) * DAY },
  ];
}
