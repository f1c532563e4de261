/**
 * How the bench writes its figures, shared by the at-a-glance table, the findings and the
 * Markdown report: sizes, times, ratios, the titles of Lighthouse's categories and metrics,
 * and which task of a run is the one to name.
 */
import { KB, withinBudget, type Budget } from './budgets';
import type { CategoryId, LighthouseSummary, LongestTask, MetricId } from './lighthouse';
import type { Status } from './results';
import { median } from './stats';

export const CATEGORY_TITLES: Record<CategoryId, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
};

export const METRIC_TITLES: Record<MetricId, string> = { fcp: 'FCP', lcp: 'LCP', tbt: 'TBT', cls: 'CLS', si: 'Speed Index' };

export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
export const ms = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
export const times = (ratio: number, of: string) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}× ${of}` : '—');
export const metricText = (id: MetricId, value: number) => (id === 'cls' ? value.toFixed(3) : ms(value));

export const judge = (value: number, budget: Budget): Status => (withinBudget(value, budget) ? 'pass' : 'fail');

/** A margin with its sign: room left when positive ("+7 ms"), the amount by which the budget was missed when negative ("−3 ms"). */
export const signed = (room: number, format: (value: number) => string) => `${room < 0 ? '−' : '+'}${format(Math.abs(room))}`;

/** How far a figure is inside a fixed budget's limit, in the figure's own terms: what it may still grow (or fall) by. */
export function room(value: number, budget: Budget, format: (value: number) => string): string {
  return signed(budget.comparison === '>=' ? value - budget.limit : budget.limit - value, format);
}

export const points = (value: number) => `${Math.round(value * 10) / 10} point${Math.round(value * 10) === 10 ? '' : 's'}`;
export const factor = (value: number) => `${value.toFixed(2)}×`;

/** The longest task of the worst run, by its CPU time slowed (what the budget judges): from the first paint on, or before it. */
export function longestTaskOf(summary: LighthouseSummary, which: 'longestTask' | 'longestTaskBeforePaint' = 'longestTask'): LongestTask {
  return summary.runs.map((run) => run[which]).reduce((a, b) => (b.cpuSimulated > a.cpuSimulated ? b : a));
}

/** The median over the runs of each run's longest task from the first paint on, its CPU time slowed. */
export function medianLongestTask(summary: LighthouseSummary): number {
  return median(summary.runs.map((run) => run.longestTask.cpuSimulated));
}

/** Where a task's time went: the page's own script by path, or the browser's own work (parsing, style, layout, paint). */
export function taskSource(url: string, pageUrl: string): string {
  if (!/^https?:/.test(url)) return "the browser's own work";
  const { origin, pathname } = new URL(url);
  return origin === new URL(pageUrl).origin && pathname !== '/' ? pathname : `the page's HTML (parsing, style, layout, inline script)`;
}
