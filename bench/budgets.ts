/**
 * The budgets of the design (docs/design.md, "Budgets"): their only copy in code (the first-load
 * one is frontend/build/first-load.ts's, which size-limit reads too), so change both together.
 * Sizes are in KB of 1000 bytes, as Vite and size-limit print them.
 */
import { FUNCTION_BUNDLE_MAX_BYTES } from '@site/core/function-limits';

import { FIRST_LOAD_JS_BUDGET_BYTES } from '@site/frontend/first-load';

export const KB = 1000;

export interface Budget {
  limit: number;
  comparison: '<=' | '<' | '>=';
  /** How the limit reads in the table. */
  text: string;
}

export const BUDGETS = {
  /**
   * Accessibility, Best Practices and SEO, the lowest of the runs: audits of the markup and
   * headers, which the host's load does not move. Performance is judged side by side.
   */
  categoryScore: { limit: 100, comparison: '>=', text: '100 in every run' },
  /** The inline loader and the scripts of the first view, gzip, as frontend/build/first-load.ts counts them (size-limit too). */
  firstLoadJsGzipBytes: {
    limit: FIRST_LOAD_JS_BUDGET_BYTES,
    comparison: '<=',
    text: `≤ ${FIRST_LOAD_JS_BUDGET_BYTES.toLocaleString('en')} B gzip`,
  },
  firstViewBytes: { limit: 200 * KB, comparison: '<=', text: '≤ 200 KB' },
  /** The site's median LCP ÷ the no-script page's: at the limit the scripts delay no paint. */
  lcpVsBaseline: { limit: 1.05, comparison: '<=', text: '≤ 1.05× (median)' },
  /** Each run of the site against the no-script page's median: no run far off. */
  lcpVsBaselineEveryRun: { limit: 1.1, comparison: '<=', text: '≤ 1.10× in every run' },
  cls: { limit: 0.02, comparison: '<', text: '< 0.02' },
  lambdaBundleBytes: { limit: FUNCTION_BUNDLE_MAX_BYTES, comparison: '<=', text: `≤ ${FUNCTION_BUNDLE_MAX_BYTES / KB} KB` },
  /**
   * The bundle's fresh process, spawn to exit, ÷ the same handler's with the AWS SDK from
   * node_modules, in the same run: what the bundle exists to beat. A ratio to an empty module
   * (the old budget) measured Node's own start-up, which halved from Node 20 to 24.
   */
  coldStartVsAnchor: { limit: 0.75, comparison: '<=', text: '≤ 0.75× SDK from node_modules' },
  /**
   * Handler p99 ÷ the bare PutItem + SendEmail p99, same stand-ins (without the IAM gate, which
   * AWS does not have: iamGateP99 is its cost), same concurrency: what a visitor waits beyond the
   * two round trips no handler avoids. As a ratio the host cancels (decision 0007).
   */
  handlerVsBareP99At1: { limit: 2.5, comparison: '<=', text: '≤ 2.5× bare' },
  /**
   * The same at 50 concurrent, where the saturated emulators' queue is what both wait in, so
   * the ratio is about the handler's round trips to the bare 2 (by Little's law 50 in flight
   * queue for ~100 ms here before the handler adds anything).
   */
  handlerVsBareP99At50: { limit: 2.5, comparison: '<=', text: '≤ 2.5× bare' },
  /**
   * The heaviest body a client can send (hostile-bodies.ts), its handler median ÷ a normal
   * message's. Refused bodies are refused before the visitor limit counts them, so this is
   * what bounds a flood of them. A message with thousands of ignored keys is stored like any
   * other and costs up to 1.6× (JSON.parse builds every key): the limit leaves it that.
   */
  hostileBodyVsMessage: { limit: 2, comparison: '<=', text: '≤ 2× a message (median)' },
  /** The stamp worker's start to its stamp on a phone's CPU (stamp-solve.ts): ready by the send, no drained phone. */
  stampReadyP50Ms: { limit: 1500, comparison: '<=', text: '≤ 1.5 s median' },
  stampReadyP95Ms: { limit: 3000, comparison: '<=', text: '≤ 3 s p95' },
  /**
   * A tap on the phone's menu to the next paint, as INP measures it (tap-to-paint.ts), at the
   * first paint and after hydration, the median of the loads each: 200 ms is where web.dev's
   * INP stops being good. The menu is the browser's popover from the first paint on (decision
   * 0038), so the tap before the app waits only for whatever task the busy page is in.
   */
  tapToPaintP50Ms: { limit: 200, comparison: '<=', text: '≤ 200 ms median, each' },
  /** A wave of 1,000 messages in an hour (spam-wave.ts): the hour's mail budget and one digest, whatever the wave. */
  waveEmailsPer1000: { limit: 11, comparison: '<=', text: '≤ mailBudget.perHour + 1 digest (11)' },
  /** Each message's own writes (its visitor counter, its text's senders, itself, the budget's count), never more as the wave grows. */
  waveWriteUnitsPerMessage: { limit: 5, comparison: '<=', text: '≤ 5 write units a message' },
  /** Pairs of ordinary Dutch contact messages the near-copy fingerprint takes for near-copies (near-copies.ts): people are not a wave. */
  nearCopyFalsePairs: { limit: 0.01, comparison: '<=', text: '≤ 1 % of pairs' },
  /**
   * The contact handler's p99 with the IAM gate in front of DynamoDB and SES ÷ its p99 without
   * it, on two local stacks in the same run, one call at a time, alternating in blocks of ten:
   * what evaluating every call costs `npm start` and the suites, never AWS (decision 0036).
   */
  iamGateP99: { limit: 2, comparison: '<=', text: '≤ 2× without the gate' },
} as const satisfies Record<string, Budget>;

/** The pages Lighthouse measures beside the site, runs interleaved (site, no-script, no-font, release, React-only, site, …). */
export type ComparisonPage = 'noScript' | 'noFont' | 'release' | 'reactOnly';

export const RELEASE_BEFORE_TYPEFACE = '7a0a696810ec9c303b3aeb3cbd0283f364cd3407';

export const COMPARISON_PAGES: Record<ComparisonPage, string> = {
  /** The site's prerendered HTML, CSS and images with every script removed (pages.ts). */
  noScript: 'no-script page',
  /** The site as built, set in the fallback fonts only (pages.ts). */
  noFont: 'no-font page',
  /** The last commit before the typeface, built from git: an anchor no commit moves (pages.ts). */
  release: `release before the typeface (${RELEASE_BEFORE_TYPEFACE.slice(0, 7)})`,
  /** React 19 hydrating a trivial tree, started by the site's own inline loader (pages.ts). */
  reactOnly: 'React-only page',
};

/** A Lighthouse budget judged against a page measured in the same run, plus a margin or times a factor. */
export interface SideBySideBudget {
  against: ComparisonPage;
  /** '<=': the site's median ≤ the page's + margin (× factor); '>=': the site's median ≥ the page's − margin. */
  comparison: '<=' | '>=';
  limit: { margin: number } | { factor: number };
  /** For '>=': no run of the site below this. */
  floor?: number;
  unit: 'ms' | 'points';
  /**
   * Judged on the median of the rounds' differences (the site's run less the page's of the
   * same round), not on two medians: TBT spreads over more than its margin on a quiet host,
   * and a slow spell falls on both runs of a round and cancels (decision 0035).
   */
  paired?: true;
}

export const SIDE_BY_SIDE = {
  /** The margin is what a TBT within its budget can cost; 90 is Lighthouse's boundary of a good score. */
  performanceScore: { against: 'noScript', comparison: '>=', limit: { margin: 1 }, floor: 90, unit: 'points' },
  /**
   * On a quiet host the site's median sat 12 and 25 ms above the no-script page's, and a start
   * 30 ms slower crossed 40 ms; the rounds' differences of two runs of the same code, 19 and 14 ms.
   */
  tbtMs: { against: 'noScript', comparison: '<=', limit: { margin: 40 }, unit: 'ms', paired: true },
  /**
   * The longest main-thread task from the first contentful paint on (the window TBT counts),
   * by its CPU time slowed as Lighthouse slows a task (lighthouse.ts): the app's start against
   * React's own. Unchanged, the site sat −1 to +4 ms off the React-only page at load averages of
   * 11 to 60; a start 30 ms slower, +35 to +42 ms.
   */
  longestTaskMs: { against: 'reactOnly', comparison: '<=', limit: { margin: 10 }, unit: 'ms' },
  /** The typeface is never waited for: 1.41× when the whole Latin file was preloaded. */
  lcpVsNoFont: { against: 'noFont', comparison: '<=', limit: { factor: 1.05 }, unit: 'ms' },
  /** Inter taking over redraws the text, which Speed Index sees: 10 % for that. */
  speedIndexVsNoFont: { against: 'noFont', comparison: '<=', limit: { factor: 1.1 }, unit: 'ms' },
  performanceVsNoFont: { against: 'noFont', comparison: '>=', limit: { margin: 1 }, unit: 'points' },
  /**
   * The no-script and no-font pages are made from the build under test, so a cost they share
   * with the site (styling, rendering) cannot show against them; the release is fixed. In the
   * issue that set it, the site's TBT median was 241 ms against the release's 133 ms.
   */
  tbtVsRelease: { against: 'release', comparison: '<=', limit: { margin: 40 }, unit: 'ms', paired: true },
} as const satisfies Record<string, SideBySideBudget>;

export type SideBySideId = keyof typeof SIDE_BY_SIDE;

/** How a side-by-side budget reads, e.g. "≤ the React-only page + 10 ms (medians)", "≤ 1.05× the no-font page (medians)". */
export function sideBySideText(budget: SideBySideBudget): string {
  const floor = budget.floor === undefined ? '' : `, no run < ${budget.floor}`;
  const relation = budget.comparison === '<=' ? '≤' : '≥';
  if ('factor' in budget.limit)
    return `${relation} ${budget.limit.factor.toFixed(2)}× the ${COMPARISON_PAGES[budget.against]} (medians)${floor}`;
  const sign = budget.comparison === '<=' ? '+' : '−';
  const judged = budget.paired ? 'median of the rounds’ differences' : 'medians';
  return `${relation} the ${COMPARISON_PAGES[budget.against]} ${sign} ${budget.limit.margin}${budget.unit === 'ms' ? ' ms' : ''} (${judged})${floor}`;
}

export function withinBudget(value: number, budget: Budget): boolean {
  if (budget.comparison === '<=') return value <= budget.limit;
  return budget.comparison === '<' ? value < budget.limit : value >= budget.limit;
}

/** Requests per level: 1,000, so a p99 rests on the 10 slowest; with 200 one garbage collection decided it. */
export const LATENCY_REQUESTS: Record<number, number> = { 1: 1000, 10: 1000, 50: 1000 };
export const LATENCY_WARMUP = 100;
