/**
 * The path's metrics (core/src/metric-names.ts) as CloudWatch metrics of one stage, for the
 * alarms that watch them and the dashboard that draws them: the functions write them under
 * these names and dimensions, so reading them here is reading the same table.
 */
import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  METRIC_NAMESPACE,
  METRIC_NAMES,
  PATH_METRICS,
  STAGE_DIMENSION,
  type DimensionedMetric,
  type DimensionValue,
  type MetricName,
  type MetricSpec,
  type PlainMetric,
} from '@site/core/metric-names';

/** A count per 5 minutes unless the caller says otherwise; a gauge by its highest level. */
function defaults(name: MetricName): MetricOptions {
  return { period: Duration.minutes(5), statistic: PATH_METRICS[name].kind === 'gauge' ? 'Maximum' : 'Sum' };
}

export function pathMetric(stage: string, name: PlainMetric, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: name,
    dimensionsMap: { [STAGE_DIMENSION]: stage },
    ...defaults(name),
    ...options,
  });
}

export function pathMetricBy<Name extends DimensionedMetric>(
  stage: string,
  name: Name,
  value: DimensionValue<Name>,
  options: MetricOptions = {},
): Metric {
  const spec: MetricSpec = PATH_METRICS[name];
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: name,
    dimensionsMap: { [STAGE_DIMENSION]: stage, [spec.dimension!.name]: value },
    ...defaults(name),
    ...options,
  });
}

/** Every series a row makes, labelled for a graph's legend: the row itself, or one per value of its dimension. */
export function seriesOf(stage: string, name: MetricName, options: MetricOptions = {}): Metric[] {
  const spec: MetricSpec = PATH_METRICS[name];
  return spec.dimension
    ? spec.dimension.values.map((value) =>
        pathMetricBy(stage, name as DimensionedMetric, value as never, { label: `${name}: ${value}`, ...options }),
      )
    : [pathMetric(stage, name as PlainMetric, { label: name, ...options })];
}

/** Every series of every row, in the table's order. */
export function allPathSeries(stage: string): Metric[] {
  return METRIC_NAMES.flatMap((name) => seriesOf(stage, name));
}
