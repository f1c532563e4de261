/**
 * The alternative to Powertools' Metrics utility that lambda/src/metrics.ts was measured
 * against (bench/metrics-choice/run.ts): the same exports, the Embedded Metric Format lines
 * written by one helper of our own. Not shipped; kept so the choice can be measured again.
 */
import { channel } from 'node:diagnostics_channel';
import { METRIC_NAMESPACE, PATH_METRICS, STAGE_DIMENSION } from '@site/core/metric-names';
import type { MetricValue } from '@site/lambda/metrics';

export type { MetricValue };

export const METRICS_CHANNEL = 'consultancy-site:metric-lines';
const published = channel(METRICS_CHANNEL);

const worthWriting = (metric: MetricValue) => metric.value !== 0 || PATH_METRICS[metric.name].kind === 'gauge';

/** One line per set of dimensions, as lambda/src/metrics.ts writes them. */
export function metricLines(stage: string, metrics: readonly MetricValue[]): string[] {
  const groups = new Map<string, { dimension?: [string, string]; metrics: MetricValue[] }>();
  for (const metric of metrics.filter(worthWriting)) {
    const spec = PATH_METRICS[metric.name];
    const dimension: [string, string] | undefined = 'dimension' in spec && 'by' in metric ? [spec.dimension.name, metric.by] : undefined;
    const key = dimension?.join('=') ?? '';
    const group = groups.get(key) ?? { dimension, metrics: [] };
    group.metrics.push(metric);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ dimension, metrics: group }) =>
    JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: METRIC_NAMESPACE,
            Dimensions: [dimension ? [STAGE_DIMENSION, dimension[0]] : [STAGE_DIMENSION]],
            Metrics: group.map((metric) => ({ Name: metric.name, Unit: 'Count' })),
          },
        ],
      },
      [STAGE_DIMENSION]: stage,
      ...(dimension && { [dimension[0]]: dimension[1] }),
      ...Object.fromEntries(group.map((metric) => [metric.name, metric.value])),
    }),
  );
}

export function writeMetrics(stage: string, metrics: readonly MetricValue[]): void {
  for (const line of metricLines(stage, metrics)) {
    process.stdout.write(`${line}\n`);
    if (published.hasSubscribers) published.publish(line);
  }
}
