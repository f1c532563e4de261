/**
 * The Lighthouse budgets judged side by side (budgets.ts, SIDE_BY_SIDE): the site's runs
 * against the runs of a comparison page measured in the same Lighthouse session. Pure: run
 * sets in, verdicts out.
 */
import { SIDE_BY_SIDE, type ComparisonPage, type SideBySideBudget, type SideBySideId } from './budgets';
import type { LighthouseRun } from './lighthouse';
import { median } from './stats';

export interface SideBySide {
  against: ComparisonPage;
  /** Median of the site's runs. */
  site: number;
  /** Median of the comparison page's runs. */
  comparison: number;
  /** What the site's median must stay within: the comparison's median plus (or minus) the margin. */
  limit: number;
  /** The site's worst run: the highest for a '<=' budget, the lowest for a '>=' one. */
  worstRun: number;
  pass: boolean;
  /** Why it failed: the median beyond the limit, or (for a '>=' budget with a floor) a run below the floor. */
  missed?: 'median' | 'floor';
}

export function judgeSideBySide(site: readonly number[], comparison: readonly number[], budget: SideBySideBudget): SideBySide {
  if (site.length === 0 || comparison.length === 0) throw new Error('A side-by-side budget needs runs of both pages.');
  const siteMedian = median(site);
  const comparisonMedian = median(comparison);
  if (budget.comparison === '<=') {
    const limit = comparisonMedian + budget.margin;
    const pass = siteMedian <= limit;
    return {
      against: budget.against,
      site: siteMedian,
      comparison: comparisonMedian,
      limit,
      worstRun: Math.max(...site),
      pass,
      ...(pass ? {} : { missed: 'median' as const }),
    };
  }
  const limit = comparisonMedian - budget.margin;
  const worstRun = Math.min(...site);
  const missed = siteMedian < limit ? 'median' : budget.floor !== undefined && worstRun < budget.floor ? 'floor' : undefined;
  return {
    against: budget.against,
    site: siteMedian,
    comparison: comparisonMedian,
    limit,
    worstRun,
    pass: missed === undefined,
    ...(missed ? { missed } : {}),
  };
}

/** What each side-by-side budget reads from one Lighthouse run. */
export const READ_FROM_RUN: Record<SideBySideId, (run: LighthouseRun) => number> = {
  performanceScore: (run) => run.scores.performance,
  tbtMs: (run) => run.metrics.tbt,
  longestTaskMs: (run) => run.longestTask.cpuSimulated,
};

/** Every side-by-side budget, the site's runs against those of the page each budget names. */
export function judgeLighthouse(
  site: readonly LighthouseRun[],
  pages: Record<ComparisonPage, readonly LighthouseRun[]>,
): Record<SideBySideId, SideBySide> {
  const ids = Object.keys(SIDE_BY_SIDE) as SideBySideId[];
  return Object.fromEntries(
    ids.map((id) => {
      const budget: SideBySideBudget = SIDE_BY_SIDE[id];
      const read = READ_FROM_RUN[id];
      return [id, judgeSideBySide(site.map(read), pages[budget.against].map(read), budget)];
    }),
  ) as Record<SideBySideId, SideBySide>;
}
