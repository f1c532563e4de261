/**
 * bench/lighthouse.svg: each Lighthouse metric of the site as a bar, the pages measured
 * beside it in the same run as thinner bars beneath it, each in a colour of its own (the
 * no-script page, the no-font page and, for the timings, the release before the typeface;
 * the React-only page for the longest task), and the thresholds as dashed lines —
 * Lighthouse's "good" value for the timings, the project's budget where it sets one, drawn
 * where it lands in this run for a budget judged against a comparison page. Written by
 * hand: a few rectangles do not need a chart library.
 */
import { BUDGETS, LIGHTHOUSE_GOOD, SIDE_BY_SIDE, type ComparisonPage, type SideBySideBudget, type SideBySideId } from './budgets';
import { CATEGORIES, type CategoryId, type LighthouseSummary, type MetricId } from './lighthouse';
import type { LighthouseComparison } from './results';

/** Wide enough for the longest label ("Longest task after paint"), a panel's title and, beside a timing, its three comparison pages' medians. */
const WIDTH = 940;
const LABEL_WIDTH = 180;
const TRACK_WIDTH = 450;
/** Two lines of threshold labels above the track, the site's bar and up to three comparison bars in it. */
const ROW_HEIGHT = 62;
const LABEL_LINES = 20;
const SITE_BAR = 14;
const COMPARISON_BAR = 5;
const PASS = '#157a3c';
const MISS = '#c2410c';
const LINE = '#1f2937';

/** The comparison pages as the chart names and colours them. */
const PAGES: Record<ComparisonPage, { name: string; color: string }> = {
  noScript: { name: 'no-script', color: '#a3a9b4' },
  noFont: { name: 'no-font', color: '#6b8fc7' },
  release: { name: 'release', color: '#8b6bb8' },
  reactOnly: { name: 'React-only', color: '#c9a227' },
};

interface ChartRow {
  label: string;
  site: number;
  comparisons: { page: ComparisonPage; value: number }[];
  thresholds: { value: number; label: string }[];
  /** The site passes when within every threshold. */
  passes: boolean;
  format: (value: number) => string;
  scaleMax: number;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const score = (value: number) => String(Math.round(value));

const summaryOf = (lh: LighthouseComparison, page: ComparisonPage): LighthouseSummary =>
  ({ noScript: lh.baseline, noFont: lh.noFont, release: lh.release, reactOnly: lh.reactOnly })[page];

/** The threshold a side-by-side budget sets in this run: the comparison page's median plus (or minus) the margin, or times the factor. */
function sideBySideThreshold(lh: LighthouseComparison, id: SideBySideId, format: (value: number) => string) {
  const budget: SideBySideBudget = SIDE_BY_SIDE[id];
  const page = PAGES[budget.against].name;
  if ('factor' in budget.limit) return { value: lh.sideBySide[id].limit, label: `budget ${budget.limit.factor.toFixed(2)}× ${page}` };
  const sign = budget.comparison === '<=' ? '+' : '−';
  return { value: lh.sideBySide[id].limit, label: `budget ${page} ${sign} ${format(budget.limit.margin)}` };
}

function metricRows(lh: LighthouseComparison): ChartRow[] {
  const timing = (id: Exclude<MetricId, 'cls'>, label: string, budgets: SideBySideId[] = []): ChartRow => {
    const site = lh.site.metrics[id];
    const comparisons = (['noScript', 'noFont', 'release'] as const).map((page) => ({ page, value: summaryOf(lh, page).metrics[id] }));
    const good = LIGHTHOUSE_GOOD[id];
    const thresholds = [
      ...budgets.map((budget) => sideBySideThreshold(lh, budget, seconds)),
      { value: good, label: `good ≤ ${seconds(good)}` },
    ];
    return {
      label,
      site,
      comparisons,
      thresholds,
      passes: site <= good && budgets.every((budget) => lh.sideBySide[budget].pass),
      format: seconds,
      scaleMax: Math.max(good, site, ...comparisons.map(({ value }) => value), ...thresholds.map(({ value }) => value)) * 1.15,
    };
  };
  // LCP has a second budget: a ratio to the no-script page's, drawn where that ratio lands.
  const lcp = timing('lcp', 'LCP', ['lcpVsNoFont']);
  lcp.thresholds.unshift({
    value: lh.baseline.metrics.lcp * BUDGETS.lcpVsBaseline.limit,
    label: `budget ${BUDGETS.lcpVsBaseline.limit.toFixed(2)}× no-script`,
  });
  lcp.passes &&= lh.lcpRatio <= BUDGETS.lcpVsBaseline.limit && lh.lcpRatioWorst <= BUDGETS.lcpVsBaselineEveryRun.limit;
  const longest = lh.sideBySide.longestTaskMs;
  const longestTask: ChartRow = {
    label: 'Longest task after paint',
    site: longest.site,
    comparisons: [{ page: 'reactOnly', value: longest.comparison }],
    thresholds: [sideBySideThreshold(lh, 'longestTaskMs', seconds)],
    passes: longest.pass,
    format: seconds,
    scaleMax: Math.max(longest.limit, longest.site, longest.comparison) * 1.2,
  };
  const cls = lh.site.metrics.cls;
  const clsComparisons = (['noScript', 'noFont'] as const).map((page) => ({ page, value: summaryOf(lh, page).metrics.cls }));
  return [
    timing('fcp', 'FCP'),
    lcp,
    // Its budgets are judged by round: each line is where the site's median would be with the rounds' difference at the margin.
    timing('tbt', 'TBT (by round)', ['tbtMs', 'tbtVsRelease']),
    longestTask,
    timing('si', 'Speed Index', ['speedIndexVsNoFont']),
    {
      label: 'CLS',
      site: cls,
      comparisons: clsComparisons,
      thresholds: [
        { value: BUDGETS.cls.limit, label: `budget < ${BUDGETS.cls.limit}` },
        { value: LIGHTHOUSE_GOOD.cls, label: `good ≤ ${LIGHTHOUSE_GOOD.cls}` },
      ],
      passes: cls < BUDGETS.cls.limit,
      format: (value) => value.toFixed(3),
      scaleMax: Math.max(LIGHTHOUSE_GOOD.cls, cls, ...clsComparisons.map(({ value }) => value)) * 1.2,
    },
  ];
}

const TITLES: Record<CategoryId, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
};

/** Performance by its median against the no-script and no-font pages' (and its floor); the other categories by their lowest run. */
function scoreRows(lh: LighthouseComparison): ChartRow[] {
  const { floor } = SIDE_BY_SIDE.performanceScore;
  const budgets = ['performanceScore', 'performanceVsNoFont'] as const;
  return CATEGORIES.map((id) =>
    id === 'performance'
      ? {
          label: `${TITLES[id]} (median)`,
          site: lh.sideBySide.performanceScore.site,
          comparisons: budgets.map((budget) => ({ page: SIDE_BY_SIDE[budget].against, value: lh.sideBySide[budget].comparison })),
          thresholds: [{ value: floor, label: `floor ${floor}` }, ...budgets.map((budget) => sideBySideThreshold(lh, budget, score))],
          passes: budgets.every((budget) => lh.sideBySide[budget].pass),
          format: score,
          scaleMax: 110,
        }
      : {
          label: TITLES[id],
          site: lh.site.worst.scores[id],
          comparisons: (['noScript', 'noFont'] as const).map((page) => ({ page, value: summaryOf(lh, page).worst.scores[id] })),
          thresholds: [{ value: 100, label: 'budget 100' }],
          passes: lh.site.worst.scores[id] >= BUDGETS.categoryScore.limit,
          format: score,
          scaleMax: 110,
        },
  );
}

/**
 * Thresholds that land on the same spot (two budgets whose comparison pages scored alike) as
 * one line with both labels; the rest in order, their labels on two lines taken in turn.
 */
function placedThresholds(row: ChartRow, x: (value: number) => number) {
  const merged: { x: number; labels: string[] }[] = [];
  for (const threshold of [...row.thresholds].sort((a, b) => a.value - b.value)) {
    const at = x(threshold.value);
    const same = merged.find((line) => Math.abs(line.x - at) < 1);
    if (same) same.labels.push(threshold.label);
    else merged.push({ x: at, labels: [threshold.label] });
  }
  // On each of the two lines the first label ends at its threshold, the later ones start at theirs, so none runs into another.
  const seen = [false, false];
  return merged.map((line, i) => {
    const row = i % 2;
    const anchor = seen[row] ? 'start' : 'end';
    seen[row] = true;
    return { ...line, label: line.labels.join(' · '), line: row, anchor };
  });
}

function panel(title: string, rows: ChartRow[], top: number): { svg: string; height: number } {
  const parts = [`<text x="16" y="${top + 18}" class="title">${esc(title)}</text>`];
  rows.forEach((row, i) => {
    const labelsTop = top + 28 + i * ROW_HEIGHT;
    const y = labelsTop + LABEL_LINES;
    const trackHeight = SITE_BAR + 4 + row.comparisons.length * (COMPARISON_BAR + 1) + 2;
    const x = (value: number) => LABEL_WIDTH + (Math.min(value, row.scaleMax) / row.scaleMax) * TRACK_WIDTH;
    const width = (value: number) => Math.max(1, x(value) - LABEL_WIDTH).toFixed(1);
    parts.push(`<text x="${LABEL_WIDTH - 10}" y="${y + 13}" class="label" text-anchor="end">${esc(row.label)}</text>`);
    parts.push(`<rect x="${LABEL_WIDTH}" y="${y}" width="${TRACK_WIDTH}" height="${trackHeight}" class="track"/>`);
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${y + 2}" width="${width(row.site)}" height="${SITE_BAR}" fill="${row.passes ? PASS : MISS}"><title>site: ${esc(row.format(row.site))}</title></rect>`,
    );
    row.comparisons.forEach(({ page, value }, c) => {
      const { name, color } = PAGES[page];
      parts.push(
        `<rect x="${LABEL_WIDTH}" y="${y + SITE_BAR + 4 + c * (COMPARISON_BAR + 1)}" width="${width(value)}" height="${COMPARISON_BAR}" fill="${color}"><title>${esc(name)} page: ${esc(row.format(value))}</title></rect>`,
      );
    });
    for (const threshold of placedThresholds(row, x)) {
      const tx = threshold.x.toFixed(1);
      parts.push(
        `<line x1="${tx}" x2="${tx}" y1="${labelsTop + 3 + threshold.line * 10}" y2="${y + trackHeight + 2}" stroke="${LINE}" stroke-width="1.5" stroke-dasharray="4 3"/>`,
      );
      parts.push(
        `<text x="${tx}" y="${labelsTop + 8 + threshold.line * 10}" class="threshold" text-anchor="${threshold.anchor}" dx="${threshold.anchor === 'start' ? 3 : -3}">${esc(threshold.label)}</text>`,
      );
    }
    const valuesX = LABEL_WIDTH + TRACK_WIDTH + 8;
    parts.push(`<text x="${valuesX}" y="${y + 13}" class="value">${esc(row.format(row.site))}</text>`);
    parts.push(
      `<text x="${valuesX}" y="${y + 26}" class="small">${esc(row.comparisons.map(({ page, value }) => `${PAGES[page].name} ${row.format(value)}`).join(' · '))}</text>`,
    );
  });
  return { svg: parts.join('\n'), height: 28 + rows.length * ROW_HEIGHT + 4 };
}

function legend(top: number): string {
  const items: string[] = [];
  let x = LABEL_WIDTH - 130;
  // Each item as wide as its text, at about 5.8 px a character of the small print, and a gap.
  const item = (swatch: string, text: string) => {
    items.push(`${swatch}<text x="${x + 18}" y="${top + 9}" class="small">${esc(text)}</text>`);
    x += 18 + Math.round(text.length * 5.8) + 16;
  };
  item(`<rect x="${x}" y="${top}" width="14" height="10" fill="${PASS}"/>`, 'site, within');
  item(`<rect x="${x}" y="${top}" width="14" height="10" fill="${MISS}"/>`, 'site, beyond');
  for (const { name, color } of Object.values(PAGES))
    item(`<rect x="${x}" y="${top + 2}" width="14" height="6" fill="${color}"/>`, `${name} page`);
  item(
    `<line x1="${x}" x2="${x + 14}" y1="${top + 5}" y2="${top + 5}" stroke="${LINE}" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    'threshold',
  );
  return items.join('\n');
}

export function lighthouseChart(lh: LighthouseComparison, caption: string): string {
  const metrics = panel(
    `Lighthouse metrics, mobile, median of ${lh.runs} runs (comparison pages measured in the same run)`,
    metricRows(lh),
    8,
  );
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
${legend(legendY)}
<text x="16" y="${legendY + 28}" class="small">${esc(caption)}</text>
</svg>
`;
}
