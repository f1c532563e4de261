/**
 * The local stack's page of the path's counts (port 8006 under `npm start`): made from the
 * metric lines the functions write, the contact function's from its own thread included, as
 * CloudWatch makes metrics from them; every row of the table shown, 0 until written; and a
 * series no row defines shown too, marked.
 */
import { channel } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH } from '@site/core/contract';
import { METRIC_NAMES, PATH_METRICS } from '@site/core/metric-names';
import { metricLines, METRICS_CHANNEL } from '@site/lambda/metrics';
import { datapointsOf, type MetricSeries } from '@site/local/metric-counts';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '@site/local/stack';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { runStandIns } from '@site/testing/stand-ins';

describe('a metric line, read as CloudWatch reads it', () => {
  it('gives each metric of each directive under each dimension set, with the line’s time', () => {
    const [plain, refused] = metricLines('local', [
      { name: 'Received', value: 1 },
      { name: 'Refused', value: 1, by: 'too-large' },
    ]);
    const at = (JSON.parse(plain!) as { _aws: { Timestamp: number } })._aws.Timestamp;
    expect(datapointsOf(plain!)).toEqual([{ metric: 'Received', stage: 'local', values: [1], at }]);
    expect(datapointsOf(refused!)).toEqual([
      { metric: 'Refused', stage: 'local', dimension: { name: 'Reason', value: 'too-large' }, values: [1], at: expect.any(Number) },
    ]);
  });
});

describe('the counts page', () => {
  let stack: LocalStack;
  const post = (body: unknown) =>
    fetch(`${stack.urls.site}${API_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    stack = await startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns(), siteDir: makeSiteDir() });
  });
  afterAll(() => stack?.close());

  it('counts what the functions wrote: the contact function in its own thread, the retry job here', async () => {
    expect((await post({ name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Graag een offerte.' })).status).toBe(200);
    expect((await post({ name: 'Jan de Vries', email: 'geen adres', message: 'Hallo' })).status).toBe(400);
    await stack.runRetryJob();
    const counts = (await (await fetch(`${stack.urls.metrics}/counts.json`)).json()) as MetricSeries[];
    const value = (metric: string, by?: string) =>
      counts.find((series) => series.metric === metric && series.dimension?.value === by)?.value;
    expect([value('Received'), value('Stored'), value('Emailed'), value('Refused', 'invalid'), value('RetryBacklog')]).toEqual([
      2, 1, 1, 1, 0,
    ]);
    expect(counts.every((series) => series.stage === 'local')).toBe(true);
    expect(value('Refused', 'too-large')).toBeUndefined();
  });

  it('shows every row of the table, each dimension value on a line of its own, 0 until written', async () => {
    const response = await fetch(stack.urls.metrics);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const rows = [...html.matchAll(/<tr(?: class="undefined")?><th scope="row">([^<]+)<\/th><td class="n">(\d+)<\/td>/g)].map(
      ([, series, value]) => `${series}=${value}`,
    );
    const defined = METRIC_NAMES.flatMap((metric) => {
      const spec = PATH_METRICS[metric];
      return 'dimension' in spec ? spec.dimension.values.map((value) => `${metric}: ${value}`) : [metric];
    });
    expect(rows.map((row) => row.split('=')[0])).toEqual(defined);
    expect(rows).toContain('Received=2');
    expect(rows).toContain('Refused: invalid=1');
    expect(rows).toContain('Refused: visitor-limit=0');
  });

  it('shows a series no row of the table defines, marked, so a metric written without its row shows at once', async () => {
    channel(METRICS_CHANNEL).publish(
      JSON.stringify({
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [{ Namespace: 'consultancy-site', Dimensions: [['Stage']], Metrics: [{ Name: 'Held' }] }],
        },
        Stage: 'local',
        Held: 1,
      }),
    );
    const html = await (await fetch(stack.urls.metrics)).text();
    expect(html).toMatch(/<tr class="undefined"><th scope="row">Held<\/th><td class="n">1<\/td>.*not a row of core\/src\/metric-names\.ts/);
    expect((await fetch(`${stack.urls.metrics}/elsewhere`)).status).toBe(404);
  });
});
