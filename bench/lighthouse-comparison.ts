/**
 * Lighthouse on the site and its two comparison pages in one session, runs interleaved (site,
 * no-script, React-only, site, …) so that whatever slows the machine for a while hits all three
 * alike: the no-script page (the site's HTML without scripts) and the React-only page (built
 * by react-floor.ts), each served by an edge of its own exactly as the site is.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'lighthouse';
import type { RunningServer } from '@site/emulators/servers';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { runLighthouse, type LighthouseRun } from './lighthouse';
import type { LighthouseComparison } from './results';
import { judgeLighthouse } from './side-by-side';
import { startStaticSite, writeBaselineSite } from './static-site';

export const PAGE_NAMES = ['site', 'baseline', 'reactOnly'] as const;
export type PageName = (typeof PAGE_NAMES)[number];

export interface ComparisonOptions {
  /** The site, served by the local edge. */
  siteUrl: string;
  /** The built site that URL serves: the no-script page is made from it. */
  siteDir: string;
  /** The React-only page, built by buildReactOnlyPage. */
  reactOnlyDir: string;
  workDir: string;
  runs: number;
  onRun?: (name: PageName, run: number, lhr: Result, summary: LighthouseRun) => void;
}

export async function compareInLighthouse(options: ComparisonOptions): Promise<LighthouseComparison> {
  if (!existsSync(join(options.reactOnlyDir, 'index.html')))
    throw new Error(`the React-only page was not built (${options.reactOnlyDir}); see the reactFloor part.`);
  const { removed } = writeBaselineSite(options.siteDir, join(options.workDir, 'baseline-site'));
  const servers: RunningServer[] = [];
  try {
    const baseline = await startStaticSite(join(options.workDir, 'baseline-site'));
    servers.push(baseline);
    const reactOnly = await startStaticSite(options.reactOnlyDir);
    servers.push(reactOnly);
    const targets: Record<PageName, string> = { site: options.siteUrl, baseline: `${baseline.url}/`, reactOnly: `${reactOnly.url}/` };
    const summaries = await runLighthouse(targets, { runs: options.runs, onRun: options.onRun });
    const lcpRatios = summaries.site.runs.map((run) => run.metrics.lcp / summaries.baseline.metrics.lcp);
    return {
      runs: options.runs,
      site: summaries.site,
      baseline: summaries.baseline,
      baselineElementsRemoved: removed,
      reactOnly: summaries.reactOnly,
      sideBySide: judgeLighthouse(summaries.site.runs, { noScript: summaries.baseline.runs, reactOnly: summaries.reactOnly.runs }),
      lcpRatio: summaries.site.metrics.lcp / summaries.baseline.metrics.lcp,
      lcpRatios,
      lcpRatioWorst: Math.max(...lcpRatios),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/**
 * Throws when a run of the site or the React-only page ended before the page had hydrated:
 * its hydration tasks would be missing from TBT and the longest task.
 */
export function assertHydrated(comparison: LighthouseComparison): void {
  for (const name of ['site', 'reactOnly'] as const) {
    const unhydrated = comparison[name].runs.flatMap((run, i) => (run.marks[HYDRATED_MARK] === undefined ? [i + 1] : []));
    if (unhydrated.length)
      throw new Error(
        `${name === 'site' ? 'the app' : 'the React-only page'} had not finished hydrating when Lighthouse stopped recording ` +
          `(run ${unhydrated.join(', ')}: no "${HYDRATED_MARK}" mark).`,
      );
  }
}
