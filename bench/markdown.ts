/** The run as Markdown, for bench/results.md: the table, the chart, the findings, then the detail behind each area. */
import { markdownTable } from '@site/ops/columns';
import { HYDRATED_MARK } from '@site/frontend/hydration';
import { failed, sideBySideMargin } from './budget-rows';
import {
  BUDGETS,
  COMPARISON_PAGES,
  LIGHTHOUSE_GOOD,
  SIDE_BY_SIDE,
  sideBySideText,
  type ComparisonPage,
  type SideBySideId,
} from './budgets';
import type { ColdImport } from './cold-import';
import type { Environment } from './environment';
import type { StampSolveResult } from './stamp-solve';
import { findings } from './findings';
import { CATEGORY_TITLES, kb, METRIC_TITLES, metricText, ms, times } from './format';
import type { HandlerLatency } from './handler-latency';
import type { HostileBodies } from './hostile-bodies';
import { CATEGORIES, cpuCalibrationText, slowdownText, type LighthouseSummary } from './lighthouse';
import type { PageWeight } from './page-weight';
import type { ReactFloor } from './react-floor';
import type { BenchResults, LighthouseComparison, Row, Status } from './results';
import { READ_FROM_RUN } from './side-by-side';
import { median } from './stats';

const STATUS_TEXT: Record<Status, string> = { pass: 'pass', fail: '**FAIL**', info: '', error: '**ERROR**' };
const METRIC_IDS = ['fcp', 'lcp', 'tbt', 'cls', 'si'] as const;

export function renderMarkdown(results: BenchResults, rows: readonly Row[]): string {
  return [
    ...summary(results, rows),
    ...(results.lighthouse ? lighthouseSection(results.lighthouse) : []),
    ...(results.pageWeight ? pageWeightSection(results.pageWeight, results.reactFloor) : []),
    ...lambdaSection(results),
    ...(results.stampSolve ? stampSolveSection(results.stampSolve) : []),
    ...environmentSection(results.environment),
  ].join('\n');
}

/** The headline, the at-a-glance table, the chart and what misses and why. */
function summary(results: BenchResults, rows: readonly Row[]): string[] {
  const env = results.environment;
  const out: string[] = [];
  const misses = failed(rows);
  out.push('# Benchmark results', '');
  out.push(
    `\`npm run bench\` on ${env.date.slice(0, 10)}, commit ${env.commit}, ${results.durationSeconds.toFixed(0)} s. ` +
      `${misses.length ? `**${misses.length} budget${misses.length === 1 ? '' : 's'} missed.**` : 'All budgets met.'} ` +
      "Budgets are the design's (docs/design.md): Performance, TBT, the longest task, and the typeface's LCP and Speed Index are judged against pages measured in the same run, interleaved with the site's (the no-script page, the no-font page, the release before the typeface, the React-only page), plus a margin or times a factor; " +
      'cold start is read per process and the 50-concurrent handler row as a ratio to the bare round trips (see the notes); KB = 1000 bytes. Ratios name what they compare with. ' +
      'The margin is what each budget passed by (+) or missed by (−), in its own terms: ms, KB or points, or for a budget set as a factor, a share of what it compares with. ' +
      'Numbers depend on the machine (see Environment): compare runs from the same one.',
    '',
  );
  out.push(
    markdownTable(
      ['area', 'metric', 'budget', 'measured', 'ratio', 'margin', 'result'],
      rows.map((r) => [r.area, r.metric, r.budget, r.measured, r.ratio, r.margin, STATUS_TEXT[r.status]]),
    ),
    '',
  );
  out.push('![Lighthouse metrics against their thresholds](lighthouse.svg)', '');

  out.push('## What misses and why', '', ...findings(results, rows).map((note) => `- ${note}`), '');
  return out;
}

function lighthouseSection(lh: LighthouseComparison): string[] {
  const out: string[] = [];
  out.push('## Lighthouse', '');
  out.push(
    `Mobile form factor, simulated throttling (Lantern: slow 4G, ${slowdownText(lh.cpu)} CPU slowdown: ${cpuCalibrationText(lh.cpu)}), ${lh.runs} runs per page${lh.warmUp ? ` after ${lh.warmUp} uncounted round${lh.warmUp === 1 ? '' : 's'}` : ''}, ` +
      'interleaved (site, no-script page, no-font page, release before the typeface, React-only page, site, …) so that a busy spell of the machine hits all five; medians. ' +
      `The no-script page: the same prerendered \`index.html\` with ${lh.baselineElementsRemoved} \`<script>\`/modulepreload elements removed. ` +
      `The no-font page: the site as built, scripts and all, with the ${lh.noFontElementsRemoved} elements that name its web font removed, so that it is set in the fallback fonts only. ` +
      `The release before the typeface: the site at ${lh.releaseCommit}, the last commit set in the system fonts, built from git with its own lockfile and build, ` +
      'an anchor no commit moves (the no-script and no-font pages are made from the build under test, so a cost they carry with it cannot show against them). ' +
      'The React-only page: React + react-dom (the versions the site bundles) hydrating a trivial prerendered tree, built by the same Vite and React plugin ' +
      "and loaded as the site is, by the site's inline loader after the first paint and the load event. " +
      'Each is served by a local edge of its own with the same headers and compression. ' +
      `Observed (unthrottled) on the no-font page: FCP ${ms(lh.noFont.observed.fcp)}, LCP ${ms(lh.noFont.observed.lcp)}. ` +
      `Observed (unthrottled) on the site: FCP ${ms(lh.site.observed.fcp)}, LCP ${ms(lh.site.observed.lcp)}, load ${ms(lh.site.observed.load)}; ` +
      'Lantern derives the simulated figures from this trace.',
    '',
  );
  out.push(
    markdownTable(
      [
        'metric',
        'site (median)',
        'no-script page (median)',
        'no-font page (median)',
        `release ${lh.releaseCommit} (median)`,
        'React-only page (median)',
        'good / budget',
        'site, each run',
      ],
      lighthouseTable(lh),
    ),
    '',
  );
  out.push(
    'The budgets judged side by side, every run of each page (the medians are judged; the pages were measured in turn, ' +
      'so the n-th run of each page ran at about the same time):',
    '',
    markdownTable(['budget', 'page', 'median', 'each run', 'limit', 'margin', 'result'], sideBySideTable(lh)),
    '',
  );
  out.push(
    "The longest task is the top-level main-thread task of a run that took the main thread's CPU longest (the trace's thread time), " +
      `slowed as Lighthouse slows a task (${slowdownText(lh.cpu)} CPU slowdown, half that for layout). Its` +
      " length in Lighthouse's own simulation (the one TBT and `long-tasks` use) " +
      'slows its length as it ran, which on a shared host includes the time other processes had the core; it is reported beside it. ' +
      "From the first paint on it covers the app: its loading and hydration, and the browser's work on what the app changes; that is the budget. " +
      'Before the first paint it is the browser opening, parsing and laying out the HTML, the same in the no-script page. ' +
      `The site and the release before the typeface mark \`${HYDRATED_MARK}\` when every part of the page has hydrated, the React-only page when its tree has; ` +
      'a run without that mark would not have measured hydration, and fails.',
    '',
  );
  const scheme = lh.site.schemeAudits;
  out.push(
    `**Plain HTTP on 127.0.0.1.** Lighthouse treats \`localhost\` and \`127.0.0.1\` as secure origins, so \`is-on-https\` scored ${scheme['is-on-https'] ?? 'n/a'} ` +
      `and \`redirects-http\` was ${scheme['redirects-http'] === null ? 'not applicable (left out of the Best Practices weighting)' : `scored ${scheme['redirects-http']}`}; ` +
      `\`has-hsts\` (weight 0) scored ${scheme['has-hsts'] ?? 'n/a'} from the header alone. The Best Practices score is therefore what HTTPS would give, ` +
      "except that the HTTP→HTTPS redirect (CloudFront's viewer protocol policy) is not exercised here.",
    '',
  );
  if (lh.site.failedAudits.length) {
    out.push('Audits below a full score on the site (the run nearest the median LCP):', '');
    out.push(
      markdownTable(
        ['category', 'audit', 'score', 'value'],
        lh.site.failedAudits.map((a) => [CATEGORY_TITLES[a.category], `${a.id}: ${a.title}`, String(a.score), a.displayValue ?? '']),
      ),
      '',
    );
  }
  const warnings = [lh.site, lh.baseline, lh.noFont, lh.release, lh.reactOnly].flatMap((page) => page.runWarnings);
  if (warnings.length) out.push(`Lighthouse warnings: ${[...new Set(warnings)].join(' ')}`, '');
  return out;
}

/** Scores, metrics and the per-run figures, the site beside its four comparison pages. */
function lighthouseTable(lh: LighthouseComparison): string[][] {
  const pages = [lh.site, lh.baseline, lh.noFont, lh.release, lh.reactOnly];
  const judgedBy = (...ids: SideBySideId[]) => ids.map((id) => sideBySideText(SIDE_BY_SIDE[id])).join('; ');
  const metricBudget: Partial<Record<(typeof METRIC_IDS)[number], string>> = {
    lcp: `${judgedBy('lcpVsNoFont')}; good ${metricText('lcp', LIGHTHOUSE_GOOD.lcp)}`,
    tbt: judgedBy('tbtMs', 'tbtVsRelease'),
    si: `${judgedBy('speedIndexVsNoFont')}; good ${metricText('si', LIGHTHOUSE_GOOD.si)}`,
  };
  const metricRows = METRIC_IDS.map((id) => [
    METRIC_TITLES[id],
    ...pages.map((page) => metricText(id, page.metrics[id])),
    metricBudget[id] ?? metricText(id, LIGHTHOUSE_GOOD[id]),
    lh.site.runs.map((run) => metricText(id, run.metrics[id])).join(', '),
  ]);
  const scoreRows = CATEGORIES.map((id) => [
    CATEGORY_TITLES[id],
    ...pages.map((page) => String(page.scores[id])),
    id === 'performance' ? judgedBy('performanceScore', 'performanceVsNoFont') : BUDGETS.categoryScore.text,
    lh.site.runs.map((run) => run.scores[id]).join(', '),
  ]);
  const hydrated = (run: LighthouseSummary['runs'][number]) => run.marks[HYDRATED_MARK];
  const runRows = [
    [
      'LCP ÷ the no-script median',
      times(lh.lcpRatio, ''),
      '1.00×',
      times(lh.noFont.metrics.lcp / lh.baseline.metrics.lcp, ''),
      times(lh.release.metrics.lcp / lh.baseline.metrics.lcp, ''),
      times(lh.reactOnly.metrics.lcp / lh.baseline.metrics.lcp, ''),
      BUDGETS.lcpVsBaseline.text,
      lh.lcpRatios.map((ratio) => `${ratio.toFixed(2)}×`).join(', '),
    ],
    ...(['lcp', 'si'] as const).map((id) => [
      `${METRIC_TITLES[id]} ÷ the no-font median`,
      times(lh.site.metrics[id] / lh.noFont.metrics[id], ''),
      times(lh.baseline.metrics[id] / lh.noFont.metrics[id], ''),
      '1.00×',
      times(lh.release.metrics[id] / lh.noFont.metrics[id], ''),
      times(lh.reactOnly.metrics[id] / lh.noFont.metrics[id], ''),
      judgedBy(id === 'lcp' ? 'lcpVsNoFont' : 'speedIndexVsNoFont'),
      lh.site.runs.map((run) => `${(run.metrics[id] / lh.noFont.metrics[id]).toFixed(2)}×`).join(', '),
    ]),
    ...(
      [
        [
          `Longest task from the first paint: CPU time slowed ${slowdownText(lh.cpu)}`,
          'longestTask',
          'cpuSimulated',
          judgedBy('longestTaskMs'),
        ],
        ['Longest task from the first paint: CPU time as it ran', 'longestTask', 'cpu', '—'],
        ["Longest task from the first paint: length in Lighthouse's simulation", 'longestTask', 'simulated', '—'],
        ['Longest task from the first paint: length as it ran', 'longestTask', 'observed', '—'],
        [`Longest task before the first paint: CPU time slowed ${slowdownText(lh.cpu)}`, 'longestTaskBeforePaint', 'cpuSimulated', '—'],
        ['Longest task before the first paint: length as it ran', 'longestTaskBeforePaint', 'observed', '—'],
      ] as const
    ).map(([title, which, length, budget]) => [
      title,
      ...pages.map((page) => ms(median(page.runs.map((run) => run[which][length])))),
      budget,
      lh.site.runs.map((run) => ms(run[which][length])).join(', '),
    ]),
    [
      'Hydrated (as it ran)',
      ms(median(lh.site.runs.flatMap((run) => hydrated(run) ?? []))),
      '—',
      ms(median(lh.noFont.runs.flatMap((run) => hydrated(run) ?? []))),
      ms(median(lh.release.runs.flatMap((run) => hydrated(run) ?? []))),
      ms(median(lh.reactOnly.runs.flatMap((run) => hydrated(run) ?? []))),
      '—',
      lh.site.runs.map((run) => (hydrated(run) === undefined ? 'not in the trace' : ms(hydrated(run)!))).join(', '),
    ],
  ];
  return [...scoreRows, ...metricRows, ...runRows];
}

/** Each side-by-side budget: the site's runs and its comparison page's, the medians, the limit they make and the margin. */
function sideBySideTable(lh: LighthouseComparison): string[][] {
  const titles: Record<SideBySideId, string> = {
    performanceScore: 'Performance',
    tbtMs: 'TBT',
    longestTaskMs: `Longest task from the first paint, CPU time slowed ${slowdownText(lh.cpu)}`,
    lcpVsNoFont: 'LCP (the typeface)',
    speedIndexVsNoFont: 'Speed Index (the typeface)',
    performanceVsNoFont: 'Performance (the typeface)',
    tbtVsRelease: 'TBT against the release before the typeface',
  };
  const pages: Record<ComparisonPage, LighthouseSummary> = {
    noScript: lh.baseline,
    noFont: lh.noFont,
    release: lh.release,
    reactOnly: lh.reactOnly,
  };
  return (Object.keys(SIDE_BY_SIDE) as SideBySideId[]).flatMap((id) => {
    const budget = SIDE_BY_SIDE[id];
    const judged = lh.sideBySide[id];
    const format = budget.unit === 'ms' ? ms : (value: number) => String(Math.round(value * 10) / 10);
    const runs = (summary: LighthouseSummary) => summary.runs.map((run) => format(READ_FROM_RUN[id](run))).join(', ');
    return [
      [
        titles[id],
        'site',
        format(judged.site),
        runs(lh.site),
        format(judged.limit),
        sideBySideMargin(lh, id),
        STATUS_TEXT[judged.pass ? 'pass' : 'fail'],
      ],
      ['', COMPARISON_PAGES[budget.against], format(judged.comparison), runs(pages[budget.against]), sideBySideText(budget), '', ''],
    ];
  });
}

function pageWeightSection(weight: PageWeight, floor: ReactFloor | undefined): string[] {
  const out: string[] = [];
  out.push('## Page weight', '');
  out.push(
    "From the browser's own network requests on the site's first view (Lighthouse run nearest the median LCP): every script fetched on load counts. " +
      'Transferred = bytes on the wire with headers, brotli as CloudFront serves Chrome. Script sizes were fetched again from the edge with ' +
      '`Accept-Encoding: gzip` and `br`.',
    '',
  );
  out.push(
    markdownTable(
      ['script', 'raw', 'gzip', 'brotli'],
      [
        ...weight.scripts.map((s) => [s.path, kb(s.raw), kb(s.gzip), kb(s.br)]),
        ['**first-load JS**', kb(weight.js.raw), kb(weight.js.gzip), kb(weight.js.br)],
        ...(floor
          ? [[`React-only page (Vite ${floor.viteVersion}, same build)`, kb(floor.js.raw), kb(floor.js.gzip), kb(floor.js.br)]]
          : []),
      ],
    ),
    '',
  );
  out.push(
    markdownTable(
      ['kind', 'transferred'],
      [...Object.entries(weight.transferred).map(([kind, bytes]) => [kind, kb(bytes)]), ['**total**', kb(weight.totalTransferred)]],
    ),
    '',
  );
  for (const note of weight.notes) out.push(`- ${note}`);
  if (weight.notes.length) out.push('');
  return out;
}

function lambdaSection({
  lambdaBundle: bundle,
  coldImport: cold,
  handlerLatency: latency,
  hostileBodies: hostile,
}: BenchResults): string[] {
  if (!bundle && !cold && !latency && !hostile) return [];
  const out: string[] = [];
  out.push('## Lambda', '');
  if (bundle)
    out.push(
      `Bundle built by \`lambda/bundle.ts\` (the stack's own esbuild options): ${bundle.bytes.toLocaleString('en')} bytes minified, ${bundle.gzipBytes.toLocaleString('en')} gzip.`,
      '',
    );
  if (cold) out.push(...coldStartSection(cold));
  if (latency) out.push(...handlerLatencySection(latency));
  if (hostile) out.push(...hostileBodiesSection(hostile));
  return out;
}

/** Each hostile body's handler call against a normal message's, one call at a time. */
export function hostileBodiesSection(hostile: HostileBodies): string[] {
  return [
    `The heaviest bodies a client can send, each at its format's size limit, through the same bundled handler and events, ${hostile.calls} calls each, ` +
      "one at a time, in blocks alternating with a normal message's (stored and e-mailed):",
    '',
    markdownTable(
      ['body', 'bytes', 'answer', 'p50', 'p99', 'p50 ÷ a message'],
      [hostile.normal, ...hostile.bodies].map((body) => [
        body === hostile.normal ? 'a normal message (JSON)' : body.name,
        body.bytes.toLocaleString('en'),
        String(body.status),
        ms(body.p50),
        ms(body.p99),
        `${(body.p50 / hostile.normal.p50).toFixed(2)}×`,
      ]),
    ),
    '',
  ];
}

function coldStartSection(cold: ColdImport): string[] {
  return [
    `Cold start: ${cold.samples} fresh \`node\` processes per module, rotating between them, each timed from spawn to exit and, inside, ` +
      `\`await import(...)\` with \`process.hrtime\`; the function's environment set as Lambda would.`,
    '',
    markdownTable(
      ['module', 'process p50', 'min', 'max', 'import p50', 'min', 'max'],
      (
        [
          ['bundle (SDK bundled, as shipped)', cold.raw.bundle],
          ['same handler, SDK from node_modules', cold.raw.sdkFromNodeModules],
          ['empty ES module', cold.raw.empty],
        ] as const
      ).map(([name, raw]) => [
        name,
        ms(median(raw.processMs)),
        ms(Math.min(...raw.processMs)),
        ms(Math.max(...raw.processMs)),
        ms(median(raw.importMs)),
        ms(Math.min(...raw.importMs)),
        ms(Math.max(...raw.importMs)),
      ]),
    ),
    '',
  ];
}

export function handlerLatencySection(latency: HandlerLatency): string[] {
  return [
    'Handler: the bundled function called directly with API Gateway v2 events as the local edge builds them (POST, JSON body with every field, ' +
      "an Idempotency-Key, a browser's headers as CloudFront's origin request passes them, its origin secret, each request from a visitor of its own), " +
      'against dynalite and aws-ses-v2-local in the same process, configured by `startLocalStack`. ' +
      "Bare: one DynamoDB PutItem of the message and one SES SendEmail of its notification, with the handler's client options. Warm-up first; " +
      `requests per level: ${Object.entries(latency.requestsPerLevel)
        .map(([c, n]) => `${n} at ${c}`)
        .join(', ')}. ` +
      `Handler outcomes: ${Object.entries(latency.outcomes)
        .map(([o, n]) => `${o} ×${n}`)
        .join(', ')}.`,
    '',
    markdownTable(
      ['concurrency', 'handler p50', 'p95', 'p99', 'max', 'req/s', 'bare p50', 'p95', 'p99', 'req/s', 'handler ÷ bare p50', 'p99'],
      latency.handler.map((h, i) => {
        const b = latency.bare[i]!;
        return [
          String(h.concurrency),
          ms(h.p50),
          ms(h.p95),
          ms(h.p99),
          ms(h.max),
          String(Math.round(h.throughput)),
          ms(b.p50),
          ms(b.p95),
          ms(b.p99),
          String(Math.round(b.throughput)),
          `${(h.p50 / b.p50).toFixed(2)}×`,
          `${(h.p99 / b.p99).toFixed(2)}×`,
        ];
      }),
    ),
    '',
  ];
}

function environmentSection(env: Environment): string[] {
  const out: string[] = [];
  out.push('## Environment', '');
  out.push(
    markdownTable(
      ['', ''],
      [
        ['date', env.date],
        ['CPU', `${env.cpu}, ${env.cores} cores`],
        ['memory', `${env.memoryGiB} GiB`],
        ['OS', env.os],
        ['Node.js', env.node],
        ['Chromium', env.chromium],
        [
          'Lighthouse',
          `${env.lighthouse}${env.lighthouseBenchmarkIndex ? `, benchmarkIndex ${Math.round(env.lighthouseBenchmarkIndex)}` : ''}`,
        ],
        [
          'load average (1 min)',
          `${env.loadAverage.start} at start, ${env.loadAverage.max ?? '?'} at most, ${env.loadAverage.end ?? '?'} at end (${env.cores} cores: above ${env.cores} something else was competing)`,
        ],
        ['commit', env.commit],
      ],
    ),
    '',
  );
  out.push('Raw figures, every run and sample: [results.json](results.json).', '');
  return out;
}

/** The stamp worker's solves on a phone's CPU: what each took, and what a derivation costs there. */
export function stampSolveSection(stamp: StampSolveResult): string[] {
  const { difficulty } = stamp;
  return [
    '## Proof-of-work stamp',
    '',
    `The built site's own stamp worker, started ${stamp.solves.length} times one after another in a Chromium page of the built site (its headers and CSP), ` +
      `page CPU slowed ${stamp.cpuSlowdown}× (its workers only about 1.5×: this Chromium cannot slow a worker itself, see bench/stamp-solve.ts), each answered a fresh challenge as the function makes one ` +
      `(${difficulty.algorithm}, cost ${difficulty.cost}, counter at random below ${difficulty.maxCounter.toLocaleString('en')}). ` +
      "Ready: from the worker's start to its stamp (its load, the request, the solve); solve: altcha-lib's own time for the solve alone.",
    '',
    markdownTable(
      ['', 'median', 'p95', 'slowest'],
      [
        ['ready', ms(stamp.ready.p50), ms(stamp.ready.p95), ms(stamp.ready.max)],
        ['solve', ms(stamp.solve.p50), ms(stamp.solve.p95), '—'],
      ],
    ),
    '',
    `${Math.round(stamp.derivationsPerSecond).toLocaleString('en')} key derivations a second while solving, slowed: ` +
      `the whole counter range would take ${ms((difficulty.maxCounter / stamp.derivationsPerSecond) * 1000)}.`,
    '',
  ];
}
