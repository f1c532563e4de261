/** The shape of one benchmark run, as written to bench/results.json. */
import type { ColdImport } from './cold-import';
import type { Environment } from './environment';
import type { HandlerLatency } from './handler-latency';
import type { HostileBodies } from './hostile-bodies';
import type { LambdaBundle } from './lambda-bundle';
import type { CpuCalibration, LighthouseSummary } from './lighthouse';
import type { PageWeight } from './page-weight';
import type { ReactFloor } from './react-floor';
import type { SideBySide } from './side-by-side';
import type { SideBySideId } from './budgets';
import type { StampSolveResult } from './stamp-solve';
import type { SpamWaveResult } from './spam-wave';

export interface LighthouseComparison {
  runs: number;
  /** Rounds of one run per page measured before the counted ones and not counted. */
  warmUp: number;
  /** The host's benchmark index and the CPU slowdown the counted runs used (lighthouse.ts, calibratedSlowdown). */
  cpu: CpuCalibration;
  site: LighthouseSummary;
  /** The no-script page: the same prerendered page with every script and modulepreload removed. */
  baseline: LighthouseSummary;
  baselineElementsRemoved: number;
  /** The no-font page: the site as built, scripts and all, without its web font (the typeface's data block and <noscript> stylesheet). */
  noFont: LighthouseSummary;
  noFontElementsRemoved: number;
  /** The release before the typeface, built from git (release-page.ts): an anchor no commit moves. */
  release: LighthouseSummary;
  /** Its commit, short. */
  releaseCommit: string;
  /** React 19 + react-dom hydrating a trivial tree, loaded as the site is (react-floor.ts). */
  reactOnly: LighthouseSummary;
  /** The budgets judged against those pages (budgets.ts, SIDE_BY_SIDE). */
  sideBySide: Record<SideBySideId, SideBySide>;
  /** Median LCP of the site ÷ median LCP of the baseline. */
  lcpRatio: number;
  /** Each site run's LCP ÷ the baseline's median LCP, in run order. */
  lcpRatios: number[];
  /** The highest of lcpRatios. */
  lcpRatioWorst: number;
}

export interface BenchResults {
  environment: Environment;
  lighthouse?: LighthouseComparison;
  pageWeight?: PageWeight;
  reactFloor?: ReactFloor;
  lambdaBundle?: LambdaBundle;
  coldImport?: ColdImport;
  handlerLatency?: HandlerLatency;
  hostileBodies?: HostileBodies;
  stampSolve?: StampSolveResult;
  spamWave?: SpamWaveResult;
  /** A part that could not be measured, by name, with why. Each one fails the run. */
  errors: Record<string, string>;
  durationSeconds: number;
}

export type Status = 'pass' | 'fail' | 'info' | 'error';

/** One line of the at-a-glance table. */
export interface Row {
  area: string;
  metric: string;
  budget: string;
  measured: string;
  ratio: string;
  /** For a budget: by how much it passed ("+7 ms" of room) or missed ("−3 ms"); '—' for a figure without one. */
  margin: string;
  status: Status;
}
