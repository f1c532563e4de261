/**
 * The Lighthouse budgets judged side by side (budgets.ts, SIDE_BY_SIDE): the site's runs
 * against a comparison page's runs of the same session. Pure: run sets in, verdicts out.
 */
import { SIDE_BY_SIDE, type ComparisonPage, type SideBySideBudget, type SideBySideId } from './budgets';
import type { LighthouseRun } from './lighthouse';
import { median } from './stats';

export interface SideBySide {
  against: ComparisonPage;
  /** Medians of the site's and the page's runs. */
  site: number;
  comparison: number;
  /** What the site's median must stay within (for a paired budget: where it would be with the rounds' difference at the margin). */
  limit: number;
  /** For a paired budget: the median of the rounds' differences, the site's run less the page's. */
  difference?: number;
  /** The site's worst run: the highest for '<=', the lowest for '>='. */
  worstRun: number;
  pass: boolean;
  missed?: 'median' | 'floor';
}

function limitOf(budget: SideBySideBudget, comparisonMedian: number): number {
  if ('factor' in budget.limit) return comparisonMedian * budget.limit.factor;
  return budget.comparison === '<=' ? comparisonMedian + budget.limit.margin : comparisonMedian - budget.limit.margin;
}

/** `site` and `comparison`: the runs in the order of their rounds. */
export function judgeSideBySide(site: readonly number[], comparison: readonly number[], budget: SideBySideBudget): SideBySide {
  if (site.length === 0 || comparison.length === 0) throw new Error('A side-by-side budget needs runs of both pages.');
  if (budget.paired && 'factor' in budget.limit) throw new Error('A paired budget takes a margin, not a factor.');
  if (budget.paired && site.length !== comparison.length) throw new Error('A paired budget needs one run of each page in every round.');
  const siteMedian = median(site);
  const difference = budget.paired ? median(site.map((value, round) => value - comparison[round]!)) : undefined;
  const limit = limitOf(budget, difference === undefined ? median(comparison) : siteMedian - difference);
  const below = budget.comparison === '<=';
  const worstRun = below ? Math.max(...site) : Math.min(...site);
  const missed = (below ? siteMedian > limit : siteMedian < limit)
    ? 'median'
    : !below && budget.floor !== undefined && worstRun < budget.floor
      ? 'floor'
      : undefined;
  return {
    against: budget.against,
    site: siteMedian,
    comparison: median(comparison),
    limit,
    ...(difference === undefined ? {} : { difference }),
    worstRun,
    pass: missed === undefined,
    ...(missed ? { missed } : {}),
  };
}

/** What each side-by-side budget reads from one run. */
export const READ_FROM_RUN: Record<SideBySideId, (run: LighthouseRun) => number> = {
  performanceScore: (run) => run.scores.performance,
  tbtMs: (run) => run.metrics.tbt,
  longestTaskMs: (run) => run.longestTask,
  lcpVsNoFont: (run) => run.metrics.lcp,
  speedIndexVsNoFont: (run) => run.metrics.si,
  performanceVsNoFont: (run) => run.scores.performance,
  tbtVsRelease: (run) => run.metrics.tbt,
};

/** How far the median is inside its limit, in the budget's terms: ms or points, or a share of the page's median for a factor. Negative: missed. */
export function headroom(judged: SideBySide, budget: SideBySideBudget): number {
  const inside = budget.comparison === '<=' ? judged.limit - judged.site : judged.site - judged.limit;
  return 'factor' in budget.limit ? inside / judged.comparison : inside;
}

export function judgeLighthouse(site: readonly LighthouseRun[], pages: Record<ComparisonPage, readonly LighthouseRun[]>) {
  return Object.fromEntries(
    (Object.keys(SIDE_BY_SIDE) as SideBySideId[]).map((id) => {
      const budget: SideBySideBudget = SIDE_BY_SIDE[id];
      return [id, judgeSideBySide(site.map(READ_FROM_RUN[id]), pages[budget.against].map(READ_FROM_RUN[id]), budget)];
    }),
  ) as Record<SideBySideId, SideBySide>;
}
