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

/**
 * The counter a message's e-mail is taken from: one item per budget and UTC day, holding the
 * day's count (`sent`) and each hour's (`h00` to `h23`), so one conditional update checks
 * and spends both at once: one write a message, never a count to give back when only one of
 * the two was spent.
 */
export interface BudgetCounter {
  /** The item's id: one per kind and day. */
  id: string;
  /** The attribute that counts this hour's e-mails. */
  hour: string;
  perHour: number;
  perDay: number;
  /** Epoch seconds when the counter may go: a day after its day ends. */
  expiresAt: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Every counter item of the budget starts so; like visitor counters, none has a status or an address. */
export const BUDGET_PREFIX = 'budget#';

/** The hour attributes' names: `h` and the UTC hour, two digits. */
export const BUDGET_HOUR_ATTRIBUTE = /^h(?:[01]\d|2[0-3])$/;

/** The counter (UTC) of `kind` at `now`. */
export function budgetCounter(kind: BudgetKind, budget: MailBudget, now: Date): BudgetCounter {
  const seconds = Math.floor(now.getTime() / 1000);
  const day = Math.floor(seconds / DAY);
  const hourOfDay = Math.floor((seconds - day * DAY) / HOUR);
  return {
    id: `${BUDGET_PREFIX}${kind}#day#${day}`,
    hour: `h${String(hourOfDay).padStart(2, '0')}`,
    perHour: budget.perHour,
    perDay: budget.perDay,
    expiresAt: (day + 2) * DAY,
  };
}
