/**
 * The path's counts on one machine, made from the functions' own metric lines as CloudWatch
 * makes metrics from them: every CloudWatch Embedded Metric Format line a function of this
 * process writes is also published on METRICS_CHANNEL (lambda/src/shared/metrics.ts; the contact
 * function's thread publishes its lines here too, function-sandbox.ts), and each metric of
 * each directive is counted under each of its dimension sets. A count is summed; a gauge keeps
 * its last value. One stack per process: every local function's lines reach every listener.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { PATH_METRICS, STAGE_DIMENSION, type MetricName } from '@site/core/metric-names';
import { METRICS_CHANNEL } from '@site/lambda/metrics';

/** One metric under one set of dimensions, as CloudWatch would keep it. */
export interface MetricSeries {
  metric: string;
  stage: string;
  /** The dimension besides the stage, if the line gave one. */
  dimension?: { name: string; value: string };
  /** A count's sum, or a gauge's last value. */
  value: number;
  /** The time of the last line that carried it (its `_aws.Timestamp`, ISO). */
  lastAt: string;
}

interface Directive {
  Dimensions?: unknown;
  Metrics?: unknown;
}

/** The datapoints of one EMF line: each metric of each directive under each of its dimension sets. */
export function datapointsOf(line: string): (Omit<MetricSeries, 'lastAt' | 'value'> & { values: number[]; at: number })[] {
  const root = JSON.parse(line) as Record<string, unknown> & { _aws?: { Timestamp?: number; CloudWatchMetrics?: Directive[] } };
  const at = root._aws?.Timestamp ?? Date.now();
  return (root._aws?.CloudWatchMetrics ?? []).flatMap((directive) =>
    (directive.Dimensions as string[][]).flatMap((set) =>
      (directive.Metrics as { Name: string }[]).map(({ Name }) => {
        const others = set.filter((name) => name !== STAGE_DIMENSION);
        const value = root[Name];
        return {
          metric: Name,
          stage: String(root[STAGE_DIMENSION]),
          ...(others.length > 0 && { dimension: { name: others.join(','), value: others.map((name) => String(root[name])).join(',') } }),
          values: (Array.isArray(value) ? value : [value]).map(Number),
          at,
        };
      }),
    ),
  );
}

const isGauge = (metric: string) => (PATH_METRICS as Record<string, { kind: string } | undefined>)[metric]?.kind === 'gauge';

export interface MetricCounts {
  /** Every series written since the counting began, in the order they first appeared. */
  series(): MetricSeries[];
  /** The series of one metric (and dimension value), if any line carried it. */
  of(metric: MetricName, dimensionValue?: string): MetricSeries | undefined;
  stop(): void;
}

/** Counts every metric line published from now until stop(). */
export function countMetricLines(): MetricCounts {
  const series = new Map<string, MetricSeries>();
  const onLine = (line: unknown) => {
    for (const point of datapointsOf(line as string)) {
      const key = [point.stage, point.metric, point.dimension?.value ?? ''].join('\u0000');
      const known = series.get(key);
      const total = isGauge(point.metric) ? point.values.at(-1)! : (known?.value ?? 0) + point.values.reduce((sum, v) => sum + v, 0);
      const { values: _values, at, ...named } = point;
      series.set(key, { ...named, value: total, lastAt: new Date(at).toISOString() });
    }
  };
  subscribe(METRICS_CHANNEL, onLine);
  return {
    series: () => [...series.values()],
    of: (metric, dimensionValue) =>
      [...series.values()].find((entry) => entry.metric === metric && entry.dimension?.value === dimensionValue),
    stop: () => unsubscribe(METRICS_CHANNEL, onLine),
  };
}
