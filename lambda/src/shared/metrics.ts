/**
 * The path's metrics (core/src/metric-names.ts) as CloudWatch Embedded Metric Format lines:
 * JSON lines on stdout, beside the log lines, from which CloudWatch Logs makes the metrics
 * without an API call. Powertools' Metrics utility builds and checks each line (why:
 * docs/decisions/0028-metrics-emf-powertools.md); the function writes it itself, so that
 * each line is also published on METRICS_CHANNEL, where the local stack counts the very lines
 * the functions write (nobody listens in Lambda, which costs one check).
 *
 * A line holds one set of dimensions: the plain metrics of a call share a line, and each value
 * of a row's dimension (a refusal's reason, a delivery's outcome) gets a line of its own.
 */
import { channel } from 'node:diagnostics_channel';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  METRIC_NAMESPACE,
  PATH_METRICS,
  STAGE_DIMENSION,
  type DimensionedMetric,
  type DimensionValue,
  type PlainMetric,
} from '@site/core/metric-names';
import { describeError, errorLocation, writeLog } from './log';

/** One metric's value, with the value of its row's dimension where it has one. */
export type MetricValue =
  | { name: PlainMetric; value: number }
  | { [Name in DimensionedMetric]: { name: Name; value: number; by: DimensionValue<Name> } }[DimensionedMetric];

/** Where the functions' metric lines are published in-process, for whoever counts them (the local stack). */
export const METRICS_CHANNEL = 'consultancy-site:metric-lines';
const published = channel(METRICS_CHANNEL);

/** One builder per stage (a process has one, the tests several), kept as Powertools advises. */
const builders = new Map<string, Metrics>();

function builderFor(stage: string): Metrics {
  let metrics = builders.get(stage);
  if (metrics === undefined) {
    metrics = new Metrics({ namespace: METRIC_NAMESPACE });
    // Powertools starts every instance with a `service` dimension; the stage is the only one kept.
    metrics.clearDefaultDimensions();
    metrics.setDefaultDimensions({ [STAGE_DIMENSION]: stage });
    builders.set(stage, metrics);
  }
  return metrics;
}

/** A count of 0 is no event, and would cost a metric-hour for nothing; a gauge's 0 is news. */
const worthWriting = (metric: MetricValue) => metric.value !== 0 || PATH_METRICS[metric.name].kind === 'gauge';

/** The dimension a metric's line carries besides the stage, if its row has one. */
function dimensionOf(metric: MetricValue): { name: string; value: string } | undefined {
  const spec = PATH_METRICS[metric.name];
  return 'dimension' in spec && 'by' in metric ? { name: spec.dimension.name, value: metric.by } : undefined;
}

/** The EMF lines for `metrics`, one per set of dimensions; none when there is nothing to write. */
export function metricLines(stage: string, metrics: readonly MetricValue[]): string[] {
  const groups = new Map<string, MetricValue[]>();
  for (const metric of metrics.filter(worthWriting)) {
    const dimension = dimensionOf(metric);
    const key = dimension ? `${dimension.name}=${dimension.value}` : '';
    groups.set(key, [...(groups.get(key) ?? []), metric]);
  }
  const builder = builderFor(stage);
  return [...groups.values()].map((group) => {
    // Cleared whatever happens: the builder is kept, and the next line must not carry this one's dimension.
    try {
      const dimension = dimensionOf(group[0]!);
      if (dimension) builder.addDimension(dimension.name, dimension.value);
      for (const metric of group) builder.addMetric(metric.name, MetricUnit.Count, metric.value);
      return JSON.stringify(builder.serializeMetrics());
    } finally {
      builder.clearMetrics();
      builder.clearDimensions();
    }
  });
}

/**
 * Writes the metrics of one request, event or run. Counting never fails what was counted: a
 * line Powertools refuses to build is one error line instead.
 */
export function writeMetrics(stage: string, metrics: readonly MetricValue[]): void {
  let lines: string[];
  try {
    lines = metricLines(stage, metrics);
  } catch (error) {
    writeLog({ level: 'error', msg: 'metrics not written', error: describeError(error), where: errorLocation(error) });
    return;
  }
  for (const line of lines) {
    process.stdout.write(`${line}\n`);
    if (published.hasSubscribers) published.publish(line);
  }
}
