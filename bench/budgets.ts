/**
 * The budgets of the design (docs/design.md, "Budgets", measured by `npm run bench`) and the Lighthouse
 * "good" thresholds the chart draws. The design document states them; this is their only copy in code,
 * so change both together.
 *
 * Sizes are in KB of 1000 bytes, as Vite prints them in the build output the front-end
 * engineer reads (and the stricter reading of "KB").
 */

import { RELEASE_SHORT } from './release-page';

export const KB = 1000;

export type Comparison = '<=' | '<' | '>=';

export interface Budget {
  limit: number;
  comparison: Comparison;
  /** How the limit reads in the table. */
  text: string;
}

export const BUDGETS = {
  /**
   * Lighthouse mobile, Accessibility, Best Practices and SEO, in every run (the lowest of the
   * runs). These are audits of the page's markup and headers, not timings, so the host's load
   * does not move them; Performance is judged side by side (SIDE_BY_SIDE).
   */
  categoryScore: { limit: 100, comparison: '>=', text: '100 in every run' },
  /** Scripts, gzip: the files fetched on the first view and the inline loader in the HTML. */
  firstLoadJsGzipBytes: { limit: 85 * KB, comparison: '<=', text: '≤ 85 KB gzip' },
  firstViewBytes: { limit: 200 * KB, comparison: '<=', text: '≤ 200 KB' },
  /**
   * Median LCP of the site ÷ median LCP of the same prerendered HTML with every script removed:
   * what the scripts cost the largest paint. At the limit a page is indistinguishable from its
   * no-script version.
   */
  lcpVsBaseline: { limit: 1.05, comparison: '<=', text: '≤ 1.05× (median)' },
  /** The same ratio for each run of the site (against the baseline's median): no run far off. */
  lcpVsBaselineEveryRun: { limit: 1.1, comparison: '<=', text: '≤ 1.10× in every run' },
  cls: { limit: 0.02, comparison: '<', text: '< 0.02' },
  lambdaBundleBytes: { limit: 400 * KB, comparison: '<=', text: '≤ 400 KB' },
  /**
   * Cold start of the shipped bundle ÷ that of the same handler with the AWS SDK loaded from
   * node_modules (the anchor), each a fresh Node process spawn to exit, measured in the same
   * run. The anchor is what a function that relies on the runtime's SDK pays; the bundle
   * exists to beat it, and must by a quarter. A ratio to an empty module (the old budget, 2×)
   * mostly measured Node's own start-up: Node 24 starts in half the time Node 20 did, so the
   * same bundle went from 1.6× to 2.8× without a byte changing. See cold-import.ts.
   */
  coldStartVsAnchor: { limit: 0.75, comparison: '<=', text: '≤ 0.75× SDK from node_modules' },
  /**
   * Handler p99 ÷ bare PutItem + SendEmail p99, both one request at a time, same emulators:
   * what each visitor waits for beyond the two round trips no handler can avoid (in AWS, 50
   * concurrent requests run in 50 function instances with one request each).
   *
   * It was ≤ 25 ms. That figure is the host's more than the handler's: the bare round trips
   * alone reach 20 to 23 ms at p99 on a quiet 2-core machine, and the last release before the
   * spam wave (8ae2095, built from git and measured beside this code) reached 35 ms, so the
   * budget failed whatever the handler did. As a ratio the host cancels: that release measured
   * 1.75×, the spam wave's path (two more round trips: the text's senders, the mail budget)
   * 2.1× at worst. The limit is the one at 50 concurrent.
   */
  handlerVsBareP99At1: { limit: 2.5, comparison: '<=', text: '≤ 2.5× bare' },
  /**
   * Handler p99 ÷ bare PutItem + SendEmail p99, both at 50 concurrent, same emulators: the
   * handler's round trips to the bare 2, since the saturated emulators' queue is what both
   * wait in. It made 5 (the visitor count, the idempotency claim, the store, SendEmail, the
   * status update), so 2.5×. The spam wave added two small conditional updates (the text's
   * senders, the mail budget); the limit stayed, and the runs since measure 1.6 to 2.0×.
   *
   * The design asked ≤ 25 ms at 50 concurrent against the local emulators. That cannot be met
   * by any handler here: dynalite and the SES stand-in serve the two round trips the handler
   * cannot avoid at ~500/s on this machine, so 50 in flight queue for ~100 ms by Little's
   * law before the handler adds anything (bare p99 ~290 ms).
   */
  handlerVsBareP99At50: { limit: 2.5, comparison: '<=', text: '≤ 2.5× bare' },
  /**
   * The heaviest body a client can send (hostile-bodies.ts), each at its format's size limit,
   * its handler call's median ÷ the median of a normal message's, stored and e-mailed, one
   * call at a time. A body the function refuses is refused before the visitor limit counts
   * anything, so nothing but this bounds what a flood of them takes from the account's Lambda
   * concurrency: at most a message's worth each. A message that carries thousands of keys the
   * function ignores is counted and stored like any other and costs up to 1.6× one without
   * them (JSON.parse builds every key): the limit leaves it that, on a loaded machine. A form
   * body of one name repeated cost 7,000× before the parse was made linear.
   */
  hostileBodyVsMessage: { limit: 2, comparison: '<=', text: '≤ 2× a message (median)' },
  /**
   * The contact form's proof-of-work stamp on a phone (Chromium, CPU slowed 4× as Lighthouse's
   * mobile profile; stamp-solve.ts): from the stamp worker's start to the stamp it posts (its
   * own load, the challenge request, the solve). The visitor never waits for it, but a stamp
   * not ready by the send is no stamp, and a slow solve keeps a phone's CPU busy while the
   * visitor types: so the 1.5 s median and 3 s p95, on the worker's whole time.
   */
  stampReadyP50Ms: { limit: 1500, comparison: '<=', text: '≤ 1.5 s median' },
  stampReadyP95Ms: { limit: 3000, comparison: '<=', text: '≤ 3 s p95' },
  /**
   * A spam wave of 1,000 messages in an hour (spam-wave.ts), with the deploy's default mail
   * budget: the firm's inbox gets at most the hour's budget and one digest, whatever the wave;
   * SES sends nothing more. Each message costs the writes of its own path (its visitor counter,
   * its text's sender count, the message itself, the budget's count or its refusal), never more
   * as the wave grows: ≤ 5 write units each.
   */
  waveEmailsPer1000: { limit: 11, comparison: '<=', text: '≤ mailBudget.perHour + 1 digest (11)' },
  waveWriteUnitsPerMessage: { limit: 5, comparison: '<=', text: '≤ 5 write units a message' },
} as const satisfies Record<string, Budget>;

/** The pages Lighthouse measures beside the site, in the same run, runs interleaved (site, no-script, no-font, release, React-only, site, …). */
export type ComparisonPage = 'noScript' | 'noFont' | 'release' | 'reactOnly';

export const COMPARISON_PAGES: Record<ComparisonPage, string> = {
  /** The site's own prerendered HTML, CSS and images with every script removed (static-site.ts). */
  noScript: 'no-script page',
  /** The site as built, scripts and all, set in the fallback fonts only: no web font (static-site.ts). */
  noFont: 'no-font page',
  /** The site at 7a0a696, the last commit before the typeface, built from git with its own lockfile (release-page.ts). */
  release: `release before the typeface (${RELEASE_SHORT})`,
  /** React 19 + react-dom hydrating a trivial prerendered tree, loaded as the site is (react-floor.ts). */
  reactOnly: 'React-only page',
};

/**
 * A Lighthouse budget judged side by side: the site's median against the median of a page
 * measured in the same run, plus a margin or times a factor, rather than against a fixed
 * number that the host's load alone can cross.
 */
export interface SideBySideBudget {
  against: ComparisonPage;
  /** '<=': the site's median ≤ the page's median + margin (× factor). '>=': the site's median ≥ the page's median − margin. */
  comparison: '<=' | '>=';
  /** How far the site's median may be from the page's: a difference in `unit`, or a factor of the page's median. */
  limit: { margin: number } | { factor: number };
  /** For '>=': no run of the site below this, whatever the page did in that run. */
  floor?: number;
  unit: 'ms' | 'points';
  /**
   * Judged on the median of the rounds' differences (each round's site run minus the page's
   * run in the same round) rather than on the difference of the two medians; a margin only.
   * For a figure whose runs spread over more than its margin even on a quiet host (TBT: the
   * no-script page, which runs no script, from 29 to 134 ms in seven runs), two medians each
   * fall anywhere in their own spread; the rounds run one after the other, so a slow spell
   * falls on both pages of a round and cancels in its difference.
   */
  paired?: true;
}

export const SIDE_BY_SIDE = {
  /**
   * Lighthouse mobile Performance score. The margin is what a TBT within its own budget can
   * cost; 90 is Lighthouse's own boundary of a good score, which no run may fall below.
   */
  performanceScore: { against: 'noScript', comparison: '>=', limit: { margin: 1 }, floor: 90, unit: 'points' },
  /**
   * Total Blocking Time, Lighthouse's. Its margin is for a quiet host, where the site's median
   * sat 12 and 25 ms above the no-script page's: 15 ms of room above the larger, and crossed
   * by a start 30 ms longer. Paired: on the reference phone the two medians sat 49 and 4 ms
   * apart in two runs of the same code, the rounds' differences 19 and 14 ms
   * (docs/decisions/0035-same-phone-tbt-by-round.md). Under heavy load no margin holds.
   */
  tbtMs: { against: 'noScript', comparison: '<=', limit: { margin: 40 }, unit: 'ms', paired: true },
  /**
   * The longest main-thread task from the first contentful paint on, by its CPU time slowed
   * as Lighthouse slows a task (the calibrated slowdown, 4× on the reference host; see
   * lighthouse.ts, calibratedSlowdown and longestTasksOf): the window TBT
   * counts, where a task blocks the visitor's input. Before the first paint there is nothing
   * to act on; those tasks (the browser parsing and laying out the HTML, the same in the
   * no-script page) are reported beside it. With nothing changed the site's median sat −1 to
   * +4 ms off the React-only page's at load averages of 11 to 60 (bench/margins.ts); a start
   * 30 ms slower sat +35 to +42 ms off it.
   */
  longestTaskMs: { against: 'reactOnly', comparison: '<=', limit: { margin: 10 }, unit: 'ms' },
  /**
   * What the typeface and the styling cost the first view: the site's LCP against the same
   * site set in the fallback fonts only, measured in the same run. At 1.05× the typeface is
   * never waited for; the issue that set it measured 1.41× with the whole Latin file preloaded.
   */
  lcpVsNoFont: { against: 'noFont', comparison: '<=', limit: { factor: 1.05 }, unit: 'ms' },
  /** The same for how soon the view is complete: Inter taking over redraws the text, which Speed Index sees; 10 % for that. */
  speedIndexVsNoFont: { against: 'noFont', comparison: '<=', limit: { factor: 1.1 }, unit: 'ms' },
  /** And for the score: the typeface may cost it no more than the TBT margin costs against the no-script page. */
  performanceVsNoFont: { against: 'noFont', comparison: '>=', limit: { margin: 1 }, unit: 'points' },
  /**
   * TBT against the release before the typeface, built from git. The no-script and no-font
   * pages are made from the build under test, so a cost they carry with the site (its
   * styling, the page's own rendering, whatever the typeface changed in them) moves them with
   * it and cannot show against them. The release is fixed: no commit moves it. In the issue's
   * run the site's TBT median was 241 ms against this release's 133 ms, and no budget then
   * saw it. The same 40 ms as against the no-script page, paired for the same noise.
   */
  tbtVsRelease: { against: 'release', comparison: '<=', limit: { margin: 40 }, unit: 'ms', paired: true },
} as const satisfies Record<string, SideBySideBudget>;

export type SideBySideId = keyof typeof SIDE_BY_SIDE;

/** How a side-by-side budget reads in the table, e.g. "≤ the React-only page + 15 ms (medians)", "≤ 1.05× the no-font page (medians)". */
export function sideBySideText(budget: SideBySideBudget): string {
  const unit = budget.unit === 'ms' ? ' ms' : '';
  const floor = budget.floor === undefined ? '' : `, no run < ${budget.floor}`;
  const relation = budget.comparison === '<=' ? '≤' : '≥';
  if ('factor' in budget.limit)
    return `${relation} ${budget.limit.factor.toFixed(2)}× the ${COMPARISON_PAGES[budget.against]} (medians)${floor}`;
  const sign = budget.comparison === '<=' ? '+' : '−';
  const judged = budget.paired ? 'median of the rounds’ differences' : 'medians';
  return `${relation} the ${COMPARISON_PAGES[budget.against]} ${sign} ${budget.limit.margin}${unit} (${judged})${floor}`;
}

export function withinBudget(value: number, budget: Budget): boolean {
  switch (budget.comparison) {
    case '<=':
      return value <= budget.limit;
    case '<':
      return value < budget.limit;
    case '>=':
      return value >= budget.limit;
  }
}

/**
 * Lighthouse's own "good" thresholds (mobile), shown beside the budgets: they are what a
 * metric needs for a full score, not budgets of this project, except CLS which has one.
 */
export const LIGHTHOUSE_GOOD = {
  fcp: 1800,
  lcp: 2500,
  tbt: 200,
  cls: 0.1,
  si: 3400,
} as const;

export const LATENCY_CONCURRENCY = [1, 10, 50] as const;
/**
 * 1,000 calls per level, so a p99 rests on the 10 slowest rather than on one or two: with
 * 200 calls one garbage collection decided it (p99 at 1 concurrent 13 to 25 ms from run to
 * run, against 12 ms in every run of 1,000). About 10 s more.
 */
export const LATENCY_REQUESTS: Record<number, number> = { 1: 1000, 10: 1000, 50: 1000 };
export const LATENCY_WARMUP = 100;
