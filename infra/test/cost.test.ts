/**
 * The on-call guide's cost table (docs/on-call.md, "Cost") states how many alarms, alarm
 * metrics, series and dashboard metrics a stage has and what they cost: the counts are the
 * synthesized app's, for the default stage, with an own domain and with the WAF, and the dollars
 * follow from the counts at CloudWatch's list prices, so neither drifts from the code.
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMES, PATH_METRICS } from '@site/core/metric-names';
import { synth, TEST_DOMAIN, type Synthesized } from './synth';

const GUIDE = readFileSync(new URL('../../docs/on-call.md', import.meta.url), 'utf8');

/** CloudWatch's list prices the table uses, and its always-free allowances. */
const PRICE = { alarmMetric: 0.1, compositeAlarm: 0.5, metric: 0.3, dashboard: 3 } as const;
const FREE = { alarmMetrics: 10, metrics: 10 } as const;

/** The cost table's row for `item`: its usage, its price with the free tier and without. */
function row(item: string): { usage: string; free: number; full: number } {
  const line = GUIDE.split('\n').find((candidate) => candidate.startsWith(`| ${item} |`));
  if (!line) throw new Error(`docs/on-call.md's cost table has no row "${item}".`);
  const [, , usage, free, full] = line.split('|').map((cell) => cell.trim());
  const dollars = (cell: string) => Number(/\$(\d+\.\d\d)/.exec(cell)![1]);
  return { usage: usage!, free: dollars(free!), full: dollars(full!) };
}

function numbers(text: string, pattern: RegExp): number[] {
  const found = pattern.exec(text);
  if (!found) throw new Error(`The cost table does not say ${pattern} (it says: ${text}).`);
  return found.slice(1).map(Number);
}

const cents = (dollars: number) => Math.round(dollars * 100) / 100;

/** What a synthesized app has of what the cost table counts. */
function counted(s: Synthesized) {
  const site = s.template;
  const edge = Template.fromStack(s.edgeAlarms);
  const metricAlarms = (template: Template) => Object.values<any>(template.findResources('AWS::CloudWatch::Alarm'));
  // A metric-math alarm is billed per metric in its expression.
  const alarmMetrics = (template: Template) =>
    metricAlarms(template).reduce(
      (sum, alarm) => sum + (alarm.Properties.Metrics ? alarm.Properties.Metrics.filter((m: any) => m.MetricStat).length : 1),
      0,
    );
  const dashboard = JSON.stringify(Object.values<any>(site.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody);
  const edgeGraphMetrics = metricAlarms(edge)
    .filter((alarm) => dashboard.includes(`:alarm:${alarm.Properties.AlarmName}`))
    .reduce((sum, alarm) => sum + (alarm.Properties.Metrics ? alarm.Properties.Metrics.filter((m: any) => m.MetricStat).length : 1), 0);
  return {
    site: metricAlarms(site).length,
    composite: Object.keys(site.findResources('AWS::CloudWatch::CompositeAlarm')).length,
    edge: metricAlarms(edge).length,
    alarmMetrics: alarmMetrics(site) + alarmMetrics(edge),
    logMetrics: Object.keys(site.findResources('AWS::Logs::MetricFilter')).length,
    dashboardMetrics: dashboardMetricRows(site) + edgeGraphMetrics,
  };
}

/** The rows of the dashboard's graphs: one per metric drawn (a `[namespace, name, …]` entry of a widget's metrics). */
function dashboardMetricRows(site: Template): number {
  const body = Object.values<any>(site.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody;
  const text =
    typeof body === 'string' ? body : (body['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : 'X')).join('');
  const widgets = (JSON.parse(text) as { widgets: { properties: { metrics?: unknown[][] } }[] }).widgets;
  return widgets.reduce((sum, widget) => sum + (widget.properties.metrics?.length ?? 0), 0);
}

const ZONE = { domainName: `www.${TEST_DOMAIN}`, hostedZoneName: TEST_DOMAIN, hostedZoneId: 'Z0123456789ABCDEFGHIJ' };

describe('the on-call guide’s cost of CloudWatch', () => {
  // The WAF is on by default; the table counts a stage without it (wafRateLimit: false) first.
  const plain = counted(synth({ wafRateLimit: false }));
  const withDomain = counted(synth({ ...ZONE, wafRateLimit: false }));
  const withBoth = counted(synth(ZONE));

  it('counts the alarms the stacks make, in each region and with each option, and the alarm metrics they are billed by', () => {
    const alarms = row('CloudWatch alarms');
    const [site, composite, edge, edgeWithDomain, edgeWithWaf, alarmMetrics] = numbers(
      alarms.usage,
      /(\d+) alarms in `region` and (\d+) composite ones, (\d+) in us-east-1 \((\d+) with an own domain, (\d+) with the WAF as well\): (\d+) alarm metrics/,
    );
    expect({ site, composite, edge, edgeWithDomain, edgeWithWaf, alarmMetrics }).toEqual({
      site: plain.site,
      composite: plain.composite,
      edge: plain.edge,
      edgeWithDomain: withDomain.edge,
      edgeWithWaf: withBoth.edge,
      alarmMetrics: plain.alarmMetrics,
    });
    expect(alarms.free).toBe(cents((plain.alarmMetrics - FREE.alarmMetrics) * PRICE.alarmMetric + plain.composite * PRICE.compositeAlarm));
    expect(alarms.full).toBe(cents(plain.alarmMetrics * PRICE.alarmMetric + plain.composite * PRICE.compositeAlarm));
  });

  it('counts the path’s series and the log-based metrics, and bills those written every run in full', () => {
    const metrics = row('CloudWatch metrics');
    const [series, logMetrics, everyRun, worth] = numbers(
      metrics.usage,
      /the path's (\d+) series and (\d+) log-based metrics.*?(\d+) of them every run.*?about (\d+) metrics' worth/,
    );
    const defined = METRIC_NAMES.reduce((sum, name) => {
      const spec = PATH_METRICS[name];
      return sum + ('dimension' in spec ? spec.dimension.values.length : 1);
    }, 0);
    // Levels are written every run; the outside check's post is counted every one of its runs.
    const writtenEveryRun = METRIC_NAMES.filter((name) => PATH_METRICS[name].kind === 'gauge' || name === 'CheckPosts').length;
    expect({ series, logMetrics, everyRun }).toEqual({ series: defined, logMetrics: plain.logMetrics, everyRun: writtenEveryRun });
    // The rest, written only in hours with a message, about one metric's worth together.
    expect(worth).toBe(writtenEveryRun + 1);
    expect(metrics.free).toBe(cents(Math.max(0, worth! - FREE.metrics) * PRICE.metric));
    expect(metrics.full).toBe(cents(worth! * PRICE.metric));
  });

  it('counts the dashboard’s metrics, within the 50 its free tier covers', () => {
    const dashboard = row('CloudWatch dashboard');
    const [metrics, most] = numbers(dashboard.usage, /(\d+) metrics \((\d+) with an own domain and the WAF\)/);
    expect({ metrics, most }).toEqual({ metrics: plain.dashboardMetrics, most: withBoth.dashboardMetrics });
    expect(most).toBeLessThanOrEqual(50);
    expect(dashboard).toMatchObject({ free: 0, full: PRICE.dashboard });
  });
});
