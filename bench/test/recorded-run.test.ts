/**
 * The TBT budget against the release before the typeface, judged and reported on a recorded
 * run: `npm run bench` at 87c399b on 2026-11-28 (load 1.9 to 2.4 on 2 cores), its Lighthouse
 * summaries as results.json had them, without the network requests and without the verdicts,
 * which are judged here again from the runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRows } from '../budget-rows';
import { SIDE_BY_SIDE } from '../budgets';
import { renderMarkdown } from '../markdown';
import type { BenchResults, LighthouseComparison } from '../results';
import { headroom, judgeLighthouse } from '../side-by-side';

type Recorded = Pick<BenchResults, 'environment'> & { lighthouse: Omit<LighthouseComparison, 'sideBySide' | 'warmUp' | 'cpu'> };
const recorded = JSON.parse(readFileSync(new URL('fixtures/lighthouse-run-87c399b.json', import.meta.url), 'utf8')) as Recorded;
const lh = recorded.lighthouse;
const pages = { noScript: lh.baseline.runs, noFont: lh.noFont.runs, release: lh.release.runs, reactOnly: lh.reactOnly.runs };
// Recorded before the bench had an uncounted round, so with Lighthouse's own 4×.
const uncalibrated = { warmUp: 0, cpu: { benchmarkIndex: Number.NaN, slowdown: 4 } };
const comparison: LighthouseComparison = { ...uncalibrated, ...lh, sideBySide: judgeLighthouse(lh.site.runs, pages) };
const results: BenchResults = { environment: recorded.environment, lighthouse: comparison, errors: {}, durationSeconds: 437 };
const { tbtVsRelease } = SIDE_BY_SIDE;

/** The rows of the report's Markdown tables, as their trimmed cells. */
const tableRows = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

describe("the site's TBT against the release before the typeface, in the recorded run", () => {
  it('misses: the site 79 ms over the release in the median round (271 against 210 ms in medians), 39 ms beyond the 40 ms margin', () => {
    const judged = comparison.sideBySide.tbtVsRelease;
    expect(lh.release.runs.map((run) => Math.round(run.metrics.tbt))).toEqual([172, 193, 224, 210, 300]);
    expect(judged).toMatchObject({ against: 'release', comparison: 210, pass: false, missed: 'median' });
    expect(Math.round(judged.site)).toBe(271);
    expect(Math.round(judged.difference!)).toBe(79);
    expect(Math.round(headroom(judged, tbtVsRelease))).toBe(-39);
  });

  it('passes the same build without its web font, measured in the same rounds: 31 ms under the release in the median round', () => {
    const judged = judgeLighthouse(lh.noFont.runs, pages).tbtVsRelease;
    expect(judged).toMatchObject({ comparison: 210, pass: true });
    expect(Math.round(judged.site)).toBe(141);
    expect(Math.round(judged.difference!)).toBe(-31);
    expect(Math.round(headroom(judged, tbtVsRelease))).toBe(71);
  });
});

describe('how the report shows it', () => {
  const rows = buildRows(results);
  const markdown = renderMarkdown(results, rows);

  it('gives it a row of the main table after the TBT row, with the release, the limit and the margin it missed by', () => {
    const at = rows.findIndex((row) => row.metric.startsWith('TBT against the release'));
    expect(rows[at - 1]?.metric).toMatch(/^TBT \(median/);
    expect(rows[at]).toEqual({
      area: 'Lighthouse',
      metric: 'TBT against the release before the typeface, built from git (medians, judged by round)',
      budget: '≤ the release before the typeface (7a0a696) + 40 ms (median of the rounds’ differences)',
      measured: '271 ms',
      ratio: 'release before the typeface (7a0a696) 210 ms; the rounds’ difference +79 ms (median), limit +40 ms',
      margin: '−39 ms',
      status: 'fail',
    });
  });

  it("puts the release's medians in a column of the Lighthouse table, and both TBT budgets beside TBT", () => {
    const header = tableRows(markdown).find((cells) => cells[0] === 'metric');
    const tbt = tableRows(markdown).find((cells) => cells[0] === 'TBT');
    expect(header?.slice(1, 6)).toEqual([
      'site (median)',
      'no-script page (median)',
      'no-font page (median)',
      'release 7a0a696 (median)',
      'React-only page (median)',
    ]);
    expect(tbt?.slice(1, 7)).toEqual([
      '271 ms',
      '99 ms',
      '141 ms',
      '210 ms',
      '118 ms',
      '≤ the no-script page + 40 ms (median of the rounds’ differences); ≤ the release before the typeface (7a0a696) + 40 ms (median of the rounds’ differences)',
    ]);
  });

  it("lists every run of the release under the budget, and in the note on TBT's miss", () => {
    const all = tableRows(markdown);
    const at = all.findIndex((cells) => cells[0] === 'TBT against the release before the typeface' && cells[1] === 'site');
    expect(all[at]).toEqual([
      'TBT against the release before the typeface',
      'site',
      '271 ms',
      '1.98 s, 271 ms, 478 ms, 248 ms, 145 ms',
      '233 ms',
      '−39 ms',
      '**FAIL**',
    ]);
    expect(all[at + 1]).toEqual([
      '',
      'release before the typeface (7a0a696)',
      '210 ms',
      '172 ms, 193 ms, 224 ms, 210 ms, 300 ms',
      '≤ the release before the typeface (7a0a696) + 40 ms (median of the rounds’ differences)',
      '',
      '',
    ]);
    expect(markdown).toMatch(/- \*\*TBT 271 ms \(limit 139 ms; 233 ms against the release before the typeface\)/);
    expect(markdown).toContain(
      'release before the typeface (7a0a696) 172 ms / 67 ms, 193 ms / 69 ms, 224 ms / 70 ms, 210 ms / 75 ms, 300 ms / 74 ms',
    );
  });
});
