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
  /**
   * What the site's median must stay within: the comparison's median plus (or minus) the
   * margin, or times the factor. For a paired budget, where the site's median would be with
   * the rounds' differences at the margin: the site's median less `difference`, plus (or
   * minus) the margin.
   */
  limit: number;
  /** For a paired budget: the median of the rounds' differences, the site's run less the page's. */
  difference?: number;
  /** The site's worst run: the highest for a '<=' budget, the lowest for a '>=' one. */
  worstRun: number;
  pass: boolean;
  /** Why it failed: the median beyond the limit, or (for a '>=' budget with a floor) a run below the floor. */
  missed?: 'median' | 'floor';
}

/** The limit a budget sets on the site's median, given the comparison page's median. */
export function limitOf(budget: SideBySideBudget, comparisonMedian: number): number {
  if ('factor' in budget.limit) return comparisonMedian * budget.limit.factor;
  return budget.comparison === '<=' ? comparisonMedian + budget.limit.margin : comparisonMedian - budget.limit.margin;
}

/** The median of the rounds' differences, the site's run less the page's run of the same round. */
function pairedDifference(site: readonly number[], comparison: readonly number[]): number {
  if (site.length !== comparison.length) throw new Error('A paired budget needs one run of each page in every round.');
  return median(site.map((value, round) => value - comparison[round]!));
}

/** `site` and `comparison`: the runs in the order of their rounds (interleaved, lighthouse.ts). */
export function judgeSideBySide(site: readonly number[], comparison: readonly number[], budget: SideBySideBudget): SideBySide {
  if (site.length === 0 || comparison.length === 0) throw new Error('A side-by-side budget needs runs of both pages.');
  const siteMedian = median(site);
  const comparisonMedian = median(comparison);
  if (budget.paired && 'factor' in budget.limit) throw new Error('A paired budget takes a margin, not a factor.');
  const difference = budget.paired ? pairedDifference(site, comparison) : undefined;
  const limit = difference === undefined ? limitOf(budget, comparisonMedian) : limitOf(budget, siteMedian - difference);
  const paired = difference === undefined ? {} : { difference };
  if (budget.comparison === '<=') {
    const pass = siteMedian <= limit;
    return {
      against: budget.against,
      site: siteMedian,
      comparison: comparisonMedian,
      limit,
      ...paired,
      worstRun: Math.max(...site),
      pass,
      ...(pass ? {} : { missed: 'median' as const }),
    };
  }
  const worstRun = Math.min(...site);
  const missed = siteMedian < limit ? 'median' : budget.floor !== undefined && worstRun < budget.floor ? 'floor' : undefined;
  return {
    against: budget.against,
    site: siteMedian,
    comparison: comparisonMedian,
    limit,
    ...paired,
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
  lcpVsNoFont: (run) => run.metrics.lcp,
  speedIndexVsNoFont: (run) => run.metrics.si,
  performanceVsNoFont: (run) => run.scores.performance,
  tbtVsRelease: (run) => run.metrics.tbt,
};

/**
 * How far a judged budget's median is inside its limit, in its own terms: ms or points for a
 * margin, the share of the comparison's median for a factor ("0.03×"). Negative when it missed.
 */
export function headroom(judged: SideBySide, budget: SideBySideBudget): number {
  const inside = budget.comparison === '<=' ? judged.limit - judged.site : judged.site - judged.limit;
  return 'factor' in budget.limit ? inside / judged.comparison : inside;
}

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
