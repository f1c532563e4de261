/**
 * The local stack's page of the path's counts (`npm start`: http://127.0.0.1:8006): the outside
 * check's last run first (passed, or the step that failed and why), then every row of
 * core/src/metric-names.ts, each dimension value on a line of its own, with what the local
 * functions' metric lines added up to (metric-counts.ts), as the stage's dashboard draws them
 * from CloudWatch. A series no row defines is listed too, marked, so a new metric without its
 * row shows at once. `/counts.json` gives the series as they were written, `/outside-check.json`
 * the check's last run, for scripts and tests.
 */
import { createServer } from 'node:http';
import { METRIC_NAMES, PATH_METRICS, type MetricSpec } from '@site/core/metric-names';
import { loopbackUrl } from '@site/emulators/connections';
import { closeServer, listen, type RunningServer } from '@site/emulators/servers';
import type { OutsideCheckRun } from '@site/lambda/outside-check';
import type { MetricCounts, MetricSeries } from './metric-counts';

/** The outside check's last run, and when it ended (ISO). */
export type LastCheck = OutsideCheckRun & { at: string };

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface Row {
  /** As the dashboard's legend names it: `Received`, `Refused: invalid`. */
  name: string;
  means: string;
  kind: string;
  series?: MetricSeries;
  defined: boolean;
}

/** The table's rows, one per dimension value, with their series; then any series no row defines. */
function rowsOf(counts: MetricCounts): Row[] {
  const defined = METRIC_NAMES.flatMap((metric) => {
    const spec: MetricSpec = PATH_METRICS[metric];
    const values = spec.dimension?.values ?? [undefined];
    return values.map((value) => ({
      name: value === undefined ? metric : `${metric}: ${value}`,
      means: spec.means,
      kind: spec.kind,
      series: counts.of(metric, value as never),
      defined: true,
    }));
  });
  const shown = new Set(defined.flatMap((row) => (row.series ? [row.series] : [])));
  const undefinedRows = counts
    .series()
    .filter((series) => !shown.has(series))
    .map((series) => ({
      name: series.dimension ? `${series.metric}: ${series.dimension.value}` : series.metric,
      means: 'not a row of core/src/metric-names.ts',
      kind: 'count',
      series,
      defined: false,
    }));
  return [...defined, ...undefinedRows];
}

/** The check's last run in one paragraph: when, and passed or where it stopped. */
function checkSection(last: LastCheck | undefined): string {
  if (last === undefined) {
    return '<p class="check">Outside check: no run yet (<code>npm start</code> runs it every minute; OUTSIDE_CHECK_INTERVAL_SECONDS changes that, 0 turns it off).</p>';
  }
  const when = html(last.at.slice(11, 19));
  const steps = last.steps.map((step) => `${step.step} ${step.ms} ms`).join(', ');
  return last.passed
    ? `<p class="check passed">Outside check <strong>passed</strong> at ${when} UTC: ${html(steps)}.</p>`
    : `<p class="check failed">Outside check <strong>failed</strong> at ${when} UTC, at <strong>${html(last.failed?.step ?? '?')}</strong>: ${html(last.failed?.problem ?? '')}</p>`;
}

function page(counts: MetricCounts, last: LastCheck | undefined): string {
  const rows = rowsOf(counts)
    .map(
      (row) =>
        `<tr${row.defined ? '' : ' class="undefined"'}><th scope="row">${html(row.name)}</th>` +
        `<td class="n">${row.series?.value ?? 0}</td><td>${row.kind === 'gauge' ? 'last level' : 'total'}</td>` +
        `<td>${html(row.series?.lastAt.slice(11, 19) ?? '–')}</td><td>${html(row.means)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<title>Path counts · local stack</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem; color: #1d2733; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  p { margin: 0 0 1.25rem; color: #4a5868; max-width: 60rem; }
  table { border-collapse: collapse; }
  .scroll { overflow-x: auto; }
  th, td { padding: .35rem .9rem .35rem 0; border-bottom: 1px solid #dde3ea; text-align: left; vertical-align: top; white-space: nowrap; }
  td:last-child { white-space: normal; min-width: 16rem; }
  thead th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: #4a5868; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
  tr.undefined { background: #fff3cd; }
  p.check { padding: .5rem .75rem; border-radius: 4px; background: #eef2f6; color: #1d2733; }
  p.check.passed { background: #e3f4e8; }
  p.check.failed { background: #fde2e1; }
</style>
</head>
<body>
<h1>Path counts</h1>
<p>What the local functions' metric lines (CloudWatch Embedded Metric Format) added up to since <code>npm start</code>,
as the stage's dashboard draws them from CloudWatch. Refreshes every 5 seconds; <a href="/counts.json">counts.json</a>.</p>
${checkSection(last)}
<div class="scroll"><table>
<thead><tr><th>metric</th><th>value</th><th></th><th>last line (UTC)</th><th>one is</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
</body>
</html>
`;
}

/** Serves the page, `/counts.json` and `/outside-check.json` on loopback; `port` 0 picks a free one. */
export async function startMetricsPage(options: {
  port: number;
  counts: MetricCounts;
  lastCheck?: () => LastCheck | undefined;
}): Promise<RunningServer> {
  const lastCheck = options.lastCheck ?? (() => undefined);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    if (path === '/counts.json' || path === '/outside-check.json') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(path === '/counts.json' ? options.counts.series() : (lastCheck() ?? null)));
    } else if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(options.counts, lastCheck()));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found: the counts are at /, /counts.json and /outside-check.json\n');
    }
  });
  const port = await listen(server, options.port);
  return { url: loopbackUrl(port), port, close: () => closeServer(server) };
}
