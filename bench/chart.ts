/**
 * bench/lighthouse.svg: each Lighthouse metric of the site as a bar, its comparison page as
 * a thinner grey bar beneath it (the no-script page; the React-only page for the longest
 * task), and the threshold as a dashed line — Lighthouse's "good" value for the timings, the
 * project's budget where it sets one (LCP, TBT, the longest task, CLS, the scores), drawn
 * where it lands in this run for a budget judged against a comparison page. Written by hand:
 * a few rectangles do not need a chart library.
 */
import { BUDGETS, LIGHTHOUSE_GOOD, SIDE_BY_SIDE, type ComparisonPage, type SideBySideId } from './budgets';
import { CATEGORIES, type CategoryId, type MetricId } from './lighthouse';
import type { LighthouseComparison } from './results';

const WIDTH = 760;
const LABEL_WIDTH = 150;
const TRACK_WIDTH = 470;
const ROW_HEIGHT = 44;
const PASS = '#157a3c';
const MISS = '#c2410c';
const BASELINE = '#a3a9b4';
const LINE = '#1f2937';

interface ChartRow {
  label: string;
  site: number;
  /** The comparison page's figure, and which page it is (its short name). */
  baseline: number;
  baselineName: string;
  thresholds: { value: number; label: string }[];
  /** The site passes when within every threshold. */
  passes: boolean;
  format: (value: number) => string;
  scaleMax: number;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

/** The comparison pages as the chart's small print names them. */
const SHORT_NAMES: Record<ComparisonPage, string> = { noScript: 'no-script', reactOnly: 'React-only' };
const NO_SCRIPT = SHORT_NAMES.noScript;

/** The threshold a side-by-side budget sets in this run: the comparison page's median plus (or minus) the margin. */
function sideBySideThreshold(lh: LighthouseComparison, id: SideBySideId, format: (value: number) => string) {
  const budget = SIDE_BY_SIDE[id];
  const sign = budget.comparison === '<=' ? '+' : '−';
  return { value: lh.sideBySide[id].limit, label: `budget ${SHORT_NAMES[budget.against]} ${sign} ${format(budget.margin)}` };
}

function metricRows(lh: LighthouseComparison): ChartRow[] {
  const timing = (id: Exclude<MetricId, 'cls'>, label: string): ChartRow => {
    const site = lh.site.metrics[id];
    const baseline = lh.baseline.metrics[id];
    const good = LIGHTHOUSE_GOOD[id];
    return {
      label,
      site,
      baseline,
      baselineName: NO_SCRIPT,
      thresholds: [{ value: good, label: `good ≤ ${seconds(good)}` }],
      passes: site <= good,
      format: seconds,
      scaleMax: Math.max(good, site, baseline) * 1.2,
    };
  };
  const cls = lh.site.metrics.cls;
  // LCP has a budget of its own: a ratio to the no-script page, drawn where that ratio lands.
  const lcp = timing('lcp', 'LCP');
  const lcpLimit = lh.baseline.metrics.lcp * BUDGETS.lcpVsBaseline.limit;
  lcp.thresholds.push({ value: lcpLimit, label: `budget ${BUDGETS.lcpVsBaseline.limit.toFixed(2)}× no-script` });
  lcp.passes &&= lh.lcpRatio <= BUDGETS.lcpVsBaseline.limit && lh.lcpRatioWorst <= BUDGETS.lcpVsBaselineEveryRun.limit;
  const tbt = timing('tbt', 'TBT');
  tbt.thresholds.unshift(sideBySideThreshold(lh, 'tbtMs', seconds));
  tbt.passes &&= lh.sideBySide.tbtMs.pass;
  const longest = lh.sideBySide.longestTaskMs;
  const longestTask: ChartRow = {
    label: 'Longest task after paint',
    site: longest.site,
    baseline: longest.comparison,
    baselineName: SHORT_NAMES.reactOnly,
    thresholds: [sideBySideThreshold(lh, 'longestTaskMs', seconds)],
    passes: longest.pass,
    format: seconds,
    scaleMax: Math.max(longest.limit, longest.site, longest.comparison) * 1.2,
  };
  return [
    timing('fcp', 'FCP'),
    lcp,
    tbt,
    longestTask,
    timing('si', 'Speed Index'),
    {
      label: 'CLS',
      site: cls,
      baseline: lh.baseline.metrics.cls,
      baselineName: NO_SCRIPT,
      thresholds: [
        { value: BUDGETS.cls.limit, label: `budget < ${BUDGETS.cls.limit}` },
        { value: LIGHTHOUSE_GOOD.cls, label: `good ≤ ${LIGHTHOUSE_GOOD.cls}` },
      ],
      passes: cls < BUDGETS.cls.limit,
      format: (value) => value.toFixed(3),
      scaleMax: Math.max(LIGHTHOUSE_GOOD.cls, cls, lh.baseline.metrics.cls) * 1.2,
    },
  ];
}

const TITLES: Record<CategoryId, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
};

/** Performance by its median against the no-script page's (and its floor); the other categories by their lowest run. */
function scoreRows(lh: LighthouseComparison): ChartRow[] {
  const score = (value: number) => String(Math.round(value));
  const performance = lh.sideBySide.performanceScore;
  const { floor } = SIDE_BY_SIDE.performanceScore;
  return CATEGORIES.map((id) =>
    id === 'performance'
      ? {
          label: `${TITLES[id]} (median)`,
          site: performance.site,
          baseline: performance.comparison,
          baselineName: NO_SCRIPT,
          // The floor first: its label sits left of its line, the limit's right of its own, so the two do not cross.
          thresholds: [{ value: floor, label: `floor ${floor}` }, sideBySideThreshold(lh, 'performanceScore', score)],
          passes: performance.pass,
          format: score,
          scaleMax: 110,
        }
      : {
          label: TITLES[id],
          site: lh.site.worst.scores[id],
          baseline: lh.baseline.worst.scores[id],
          baselineName: NO_SCRIPT,
          thresholds: [{ value: 100, label: 'budget 100' }],
          passes: lh.site.worst.scores[id] >= BUDGETS.categoryScore.limit,
          format: score,
          scaleMax: 110,
        },
  );
}

function panel(title: string, rows: ChartRow[], top: number): { svg: string; height: number } {
  const parts = [`<text x="16" y="${top + 18}" class="title">${esc(title)}</text>`];
  rows.forEach((row, i) => {
    const y = top + 32 + i * ROW_HEIGHT;
    const x = (value: number) => LABEL_WIDTH + (Math.min(value, row.scaleMax) / row.scaleMax) * TRACK_WIDTH;
    parts.push(`<text x="${LABEL_WIDTH - 10}" y="${y + 15}" class="label" text-anchor="end">${esc(row.label)}</text>`);
    parts.push(`<rect x="${LABEL_WIDTH}" y="${y}" width="${TRACK_WIDTH}" height="28" class="track"/>`);
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${y + 2}" width="${Math.max(1, x(row.site) - LABEL_WIDTH).toFixed(1)}" height="16" fill="${row.passes ? PASS : MISS}"><title>site: ${esc(row.format(row.site))}</title></rect>`,
    );
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${y + 20}" width="${Math.max(1, x(row.baseline) - LABEL_WIDTH).toFixed(1)}" height="6" fill="${BASELINE}"><title>${esc(row.baselineName)} page: ${esc(row.format(row.baseline))}</title></rect>`,
    );
    row.thresholds.forEach((threshold, t) => {
      const tx = x(threshold.value).toFixed(1);
      parts.push(`<line x1="${tx}" x2="${tx}" y1="${y - 3}" y2="${y + 31}" stroke="${LINE}" stroke-width="1.5" stroke-dasharray="4 3"/>`);
      parts.push(
        `<text x="${tx}" y="${y - 5}" class="threshold" text-anchor="${t % 2 ? 'start' : 'end'}" dx="${t % 2 ? 3 : -3}">${esc(threshold.label)}</text>`,
      );
    });
    parts.push(`<text x="${LABEL_WIDTH + TRACK_WIDTH + 8}" y="${y + 14}" class="value">${esc(row.format(row.site))}</text>`);
    parts.push(
      `<text x="${LABEL_WIDTH + TRACK_WIDTH + 8}" y="${y + 27}" class="small">${esc(row.baselineName)} ${esc(row.format(row.baseline))}</text>`,
    );
  });
  return { svg: parts.join('\n'), height: 32 + rows.length * ROW_HEIGHT + 8 };
}

export function lighthouseChart(lh: LighthouseComparison, caption: string): string {
  const metrics = panel(`Lighthouse metrics, mobile, median of ${lh.runs} runs`, metricRows(lh), 8);
  const scores = panel(`Lighthouse scores (lowest of ${lh.runs} runs; Performance: median)`, scoreRows(lh), 8 + metrics.height + 8);
  const legendY = 8 + metrics.height + 8 + scores.height + 10;
  const height = legendY + 36;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">
<style>
  .title { font-size: 15px; font-weight: 600; fill: #111827; }
  .label { font-size: 13px; fill: #111827; }
  .value { font-size: 13px; font-weight: 600; fill: #111827; }
  .small, .threshold { font-size: 10.5px; fill: #4b5563; }
  .track { fill: #f3f4f6; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
${metrics.svg}
${scores.svg}
<rect x="${LABEL_WIDTH}" y="${legendY}" width="14" height="10" fill="${PASS}"/><text x="${LABEL_WIDTH + 18}" y="${legendY + 9}" class="small">site, within threshold</text>
<rect x="${LABEL_WIDTH + 150}" y="${legendY}" width="14" height="10" fill="${MISS}"/><text x="${LABEL_WIDTH + 168}" y="${legendY + 9}" class="small">site, beyond threshold</text>
<rect x="${LABEL_WIDTH + 300}" y="${legendY + 2}" width="14" height="6" fill="${BASELINE}"/><text x="${LABEL_WIDTH + 318}" y="${legendY + 9}" class="small">comparison page, same run</text>
<line x1="${LABEL_WIDTH + 450}" x2="${LABEL_WIDTH + 470}" y1="${legendY + 5}" y2="${legendY + 5}" stroke="${LINE}" stroke-width="1.5" stroke-dasharray="4 3"/><text x="${LABEL_WIDTH + 474}" y="${legendY + 9}" class="small">threshold</text>
<text x="16" y="${legendY + 28}" class="small">${esc(caption)}</text>
</svg>
`;
}
