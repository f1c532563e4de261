/**
 * The TBT budget against the release before the typeface, judged and reported on a recorded
 * run: `npm run bench` at 87c399b on 2026-11-28 (load 1.9 to 2.4 on 2 cores, Lighthouse's own
 * 4×), each page's runs with the figures the budgets read; the verdicts are judged here again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SIDE_BY_SIDE } from '../budgets';
import type { LighthouseRun } from '../lighthouse';
import { buildRows, newResults, renderMarkdown, type BenchResults, type PageName } from '../report';
import { headroom, judgeLighthouse } from '../side-by-side';

type RecordedRun = Pick<LighthouseRun, 'scores' | 'longestTask' | 'hydrated'> & { metrics: Omit<LighthouseRun['metrics'], 'bytes'> };
const recorded = JSON.parse(readFileSync(new URL('fixtures/lighthouse-run-87c399b.json', import.meta.url), 'utf8')) as {
  lighthouse: { runs: Record<PageName, RecordedRun[]> };
};
// Recorded before the bench read the first view's bytes, the main thread's breakdown and the scripts from the same runs.
const runs = Object.fromEntries(
  Object.entries(recorded.lighthouse.runs).map(([page, pageRuns]) => [
    page,
    pageRuns.map((run): LighthouseRun => ({
      ...run,
      metrics: { ...run.metrics, bytes: 108_000 },
      longTasks: 0,
      mainThread: {},
      bytesByType: {},
      scripts: [],
    })),
  ]),
) as Record<PageName, LighthouseRun[]>;
const sideBySide = judgeLighthouse(runs.site, runs);
const results: BenchResults = {
  ...newResults(),
  lighthouse: { runs, benchmarkIndex: Number.NaN, slowdown: 4, lighthouseVersion: '13.5.0', warnings: [], sideBySide },
};

describe("the site's TBT against the release before the typeface, in the recorded run", () => {
  it('misses: the site 79 ms over the release in the median round (271 against 210 ms in medians), 39 ms beyond the 40 ms margin', () => {
    expect(runs.release.map((run) => Math.round(run.metrics.tbt))).toEqual([172, 193, 224, 210, 300]);
    expect(sideBySide.tbtVsRelease).toMatchObject({ against: 'release', comparison: 210, pass: false, missed: 'median' });
    expect(Math.round(sideBySide.tbtVsRelease.site)).toBe(271);
    expect(Math.round(sideBySide.tbtVsRelease.difference!)).toBe(79);
    expect(Math.round(headroom(sideBySide.tbtVsRelease, SIDE_BY_SIDE.tbtVsRelease))).toBe(-39);
  });

  it('passes the same build without its web font, measured in the same rounds: 31 ms under the release in the median round', () => {
    const judged = judgeLighthouse(runs.noFont, runs).tbtVsRelease;
    expect(judged).toMatchObject({ comparison: 210, pass: true });
    expect(Math.round(judged.difference!)).toBe(-31);
    expect(Math.round(headroom(judged, SIDE_BY_SIDE.tbtVsRelease))).toBe(71);
  });
});

describe('how the report shows it', () => {
  const rows = buildRows(results, true);

  it('gives it a row after TBT against the no-script page, with the release, the rounds’ difference and the margin it missed by', () => {
    const at = rows.findIndex((row) => row.budget.startsWith('TBT against the release'));
    expect(rows[at - 1]?.budget).toBe('TBT against the no-script page, by round');
    expect(rows[at]).toEqual({
      budget: 'TBT against the release before the typeface, by round',
      limit: '≤ the release before the typeface (7a0a696) + 40 ms (median of the rounds’ differences)',
      measured: '271 ms',
      against: 'release before the typeface (7a0a696) 210 ms; the rounds’ difference +79 ms (median)',
      margin: '−39 ms',
      verdict: 'FAIL',
    });
  });

  it('lists every run of the site and the release in the order of the rounds, and says the run missed a budget', () => {
    const markdown = renderMarkdown(results, rows);
    const cells = markdown
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(cells.find((row) => row[0] === 'TBT against the release')).toEqual([
      'TBT against the release',
      '1.98 s, 271 ms, 478 ms, 248 ms, 145 ms',
      'release before the typeface (7a0a696): 172 ms, 193 ms, 224 ms, 210 ms, 300 ms',
    ]);
    expect(markdown).toMatch(/: \d+ budgets? missed or not measured/);
  });
});
