/**
 * The mail budget: how many messages may be e-mailed one by one per hour and per day, before
 * the rest is held for the digest, and how it is shared out so that no one network can spend
 * what the others need (decision 0042):
 *
 *   - Two budgets of the site: clean messages from the site's own form (a valid stamp and no
 *     signal at all) have one of their own, higher; when it is spent they fall back to the
 *     ordinary budget before they are held. Every other message spends the ordinary budget.
 *   - A share per sender network: each network (IPv4 /24, IPv6 /48) may be e-mailed at most
 *     a small share of the hour's and the day's budgets, and each wider network (IPv4 /16,
 *     IPv6 /32) twice that, whichever budget its messages spend.
 *   - A reserve: the last third of each day's budget is only for a network's first e-mail of
 *     the day, so people from networks not seen today still get through after a busy day.
 *
 * Pure: the counting is in spam-store.ts.
 */
import { DAY_ITEMS_KEPT_DAYS_AFTER, type SpamSignal } from '@site/core/spam';

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

/** The budgets a message that is not suspect may spend, in order: a clean one from the site's form falls back to the ordinary one. */
export function budgetKindsOf(signals: readonly SpamSignal[], stamped: boolean): BudgetKind[] {
  return stamped && signals.length === 0 ? ['site', 'ordinary'] : ['ordinary'];
}

/** A network's share of the site's budgets together: a tenth of the hour's, a twentieth of the day's, at least one of each. */
const NETWORK_SHARE = { ofHour: 10, ofDay: 20 } as const;

/** A wider network (a /16, an IPv6 /32: one provider's block) may be e-mailed this many networks' shares. */
export const WIDER_NETWORK_SHARES = 2;

/** The part of each day's budget kept for a network's first e-mail of the day: a third. */
const RESERVE_PART = 3;

/** What one network may be e-mailed in an hour and a day, of all the budgets together. */
export function networkShare(budgets: MailBudgets, level: 'network' | 'wider'): MailBudget {
  const shares = level === 'network' ? 1 : WIDER_NETWORK_SHARES;
  const perHour = Math.max(1, Math.floor((budgets.ordinary.perHour + budgets.site.perHour) / NETWORK_SHARE.ofHour));
  const perDay = Math.max(1, Math.floor((budgets.ordinary.perDay + budgets.site.perDay) / NETWORK_SHARE.ofDay));
  return { perHour: perHour * shares, perDay: perDay * shares };
}

/** The day's budget open to a network that was e-mailed today already: all but the reserve. */
export function withoutReserve(budget: MailBudget): MailBudget {
  return { perHour: budget.perHour, perDay: budget.perDay - Math.floor(budget.perDay / RESERVE_PART) };
}

/**
 * The counter a message's e-mail is taken from: one item per budget (or network) and UTC day,
 * holding the day's count (`sent`) and each hour's (`h00` to `h23`), so one conditional update
 * checks and spends both at once: one write a counter, never a count to give back when only
 * one of the two was spent.
 */
export interface BudgetCounter {
  /** The item's id: one per budget or network, and day. */
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

/**
 * What a counter counts: a budget of the site's, or a network's share (`network` its keyed
 * hash, visitor-limit.ts's budgetNetworks: never the address).
 */
export type CounterOf = { kind: BudgetKind } | { network: string };

/** The counter (UTC) of `of` at `now`, limited to `budget`. */
export function budgetCounter(of: CounterOf, budget: MailBudget, now: Date): BudgetCounter {
  const seconds = Math.floor(now.getTime() / 1000);
  const day = Math.floor(seconds / DAY);
  const hourOfDay = Math.floor((seconds - day * DAY) / HOUR);
  return {
    id: `${BUDGET_PREFIX}${'kind' in of ? of.kind : `network#${of.network}`}#day#${day}`,
    hour: `h${String(hourOfDay).padStart(2, '0')}`,
    perHour: budget.perHour,
    perDay: budget.perDay,
    expiresAt: (day + 1 + DAY_ITEMS_KEPT_DAYS_AFTER) * DAY,
  };
}
