/**
 * Lighthouse on the site and its four comparison pages in one session, runs interleaved
 * (site, no-script, no-font, release, React-only, site, …) so that whatever slows the machine
 * for a while hits all five alike: the no-script page (the site's HTML without scripts), the
 * no-font page (the site without its web font), the release before the typeface (built from
 * git by release-page.ts) and the React-only page (built by react-floor.ts), each served by an
 * edge of its own exactly as the site is.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'lighthouse';
import type { RunningServer } from '@site/emulators/servers';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { runLighthouse, type LighthouseRun } from './lighthouse';
import type { LighthouseComparison } from './results';
import { RELEASE_SHORT } from './release-page';
import { judgeLighthouse } from './side-by-side';
import { startStaticSite, writeBaselineSite, writeNoFontSite } from './static-site';

export const PAGE_NAMES = ['site', 'baseline', 'noFont', 'release', 'reactOnly'] as const;
export type PageName = (typeof PAGE_NAMES)[number];

export interface ComparisonOptions {
  /** The site, served by the local edge. */
  siteUrl: string;
  /** The built site that URL serves: the no-script and no-font pages are made from it. */
  siteDir: string;
  /** The React-only page, built by buildReactOnlyPage. */
  reactOnlyDir: string;
  /** The release before the typeface, built by buildReleasePage. */
  releaseDir: string;
  workDir: string;
  runs: number;
  /** Rounds measured first and not counted (see runLighthouse). */
  warmUp: number;
  onRun?: (name: PageName, run: number, lhr: Result, summary: LighthouseRun) => void;
  onWarmUp?: (name: PageName, lhr: Result) => void;
}

export async function compareInLighthouse(options: ComparisonOptions): Promise<LighthouseComparison> {
  if (!existsSync(join(options.reactOnlyDir, 'index.html')))
    throw new Error(`the React-only page was not built (${options.reactOnlyDir}); see the reactFloor part.`);
  const { removed } = writeBaselineSite(options.siteDir, join(options.workDir, 'baseline-site'));
  const { removed: typefaceRemoved } = writeNoFontSite(options.siteDir, join(options.workDir, 'no-font-site'));
  const servers: RunningServer[] = [];
  try {
    const serve = async (dir: string) => {
      const server = await startStaticSite(dir);
      servers.push(server);
      return `${server.url}/`;
    };
    const targets: Record<PageName, string> = {
      site: options.siteUrl,
      baseline: await serve(join(options.workDir, 'baseline-site')),
      noFont: await serve(join(options.workDir, 'no-font-site')),
      release: await serve(options.releaseDir),
      reactOnly: await serve(options.reactOnlyDir),
    };
    const { summaries, cpu } = await runLighthouse(targets, {
      runs: options.runs,
      warmUp: options.warmUp,
      onRun: options.onRun,
      onWarmUp: options.onWarmUp,
    });
    const lcpRatios = summaries.site.runs.map((run) => run.metrics.lcp / summaries.baseline.metrics.lcp);
    return {
      runs: options.runs,
      warmUp: options.warmUp,
      cpu,
      site: summaries.site,
      baseline: summaries.baseline,
      baselineElementsRemoved: removed,
      noFont: summaries.noFont,
      noFontElementsRemoved: typefaceRemoved,
      release: summaries.release,
      releaseCommit: RELEASE_SHORT,
      reactOnly: summaries.reactOnly,
      sideBySide: judgeLighthouse(summaries.site.runs, {
        noScript: summaries.baseline.runs,
        noFont: summaries.noFont.runs,
        release: summaries.release.runs,
        reactOnly: summaries.reactOnly.runs,
      }),
      lcpRatio: summaries.site.metrics.lcp / summaries.baseline.metrics.lcp,
      lcpRatios,
      lcpRatioWorst: Math.max(...lcpRatios),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/**
 * Throws when a run of the site, the no-font page, the release or the React-only page ended before the page had hydrated:
 * its hydration tasks would be missing from TBT and the longest task.
 */
export function assertHydrated(comparison: LighthouseComparison): void {
  // The release writes the same mark: its hydration.ts at 7a0a696 marks `hydrated` when the last part has hydrated.
  const names = {
    site: 'the app',
    noFont: 'the no-font page',
    release: `the release before the typeface (${comparison.releaseCommit})`,
    reactOnly: 'the React-only page',
  } as const;
  for (const name of Object.keys(names) as (keyof typeof names)[]) {
    const unhydrated = comparison[name].runs.flatMap((run, i) => (run.marks[HYDRATED_MARK] === undefined ? [i + 1] : []));
    if (unhydrated.length)
      throw new Error(
        `${names[name]} had not finished hydrating when Lighthouse stopped recording ` +
          `(run ${unhydrated.join(', ')}: no "${HYDRATED_MARK}" mark).`,
      );
  }
}
