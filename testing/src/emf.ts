/**
 * Reads a metric line as CloudWatch Logs does, by the rules of "Specification: Embedded metric
 * format" (CloudWatch User Guide): a root object with `_aws` holding a Timestamp (epoch
 * milliseconds) and CloudWatchMetrics, each directive a Namespace, Dimensions (sets of names
 * of the root's string members, at most 30 each) and Metrics (at most 100, each the name of a
 * root member holding a number or an array of up to 100 numbers). A line that breaks a rule
 * throws with the rule: CloudWatch would drop it and no metric would ever show.
 */

export interface Datapoint {
  namespace: string;
  metric: string;
  /** Every dimension of its set, by name. */
  dimensions: Record<string, string>;
  values: number[];
  timestamp: number;
}

const DIRECTIVE_MEMBERS = ['Namespace', 'Dimensions', 'Metrics'];
const UNITS = new Set(
  'Seconds Microseconds Milliseconds Bytes Kilobytes Megabytes Gigabytes Terabytes Bits Kilobits Megabits Gigabits Terabits Percent Count Bytes/Second Kilobytes/Second Megabytes/Second Gigabytes/Second Terabytes/Second Bits/Second Kilobits/Second Megabits/Second Gigabits/Second Terabits/Second Count/Second None'.split(
    ' ',
  ),
);

function rule(condition: boolean, text: string): asserts condition {
  if (!condition) throw new Error(`Not an Embedded Metric Format line: ${text}`);
}

const isText = (value: unknown, max = 1024): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= max;

export function readEmfLine(line: Record<string, unknown>): Datapoint[] {
  const metadata = line._aws as Record<string, unknown> | undefined;
  rule(typeof metadata === 'object' && metadata !== null, 'no _aws object');
  rule(
    Object.keys(metadata).every((key) => key === 'Timestamp' || key === 'CloudWatchMetrics'),
    '_aws has other members',
  );
  const { Timestamp, CloudWatchMetrics } = metadata;
  rule(Number.isInteger(Timestamp) && (Timestamp as number) > 1e12, 'Timestamp is not epoch milliseconds');
  rule(Array.isArray(CloudWatchMetrics) && CloudWatchMetrics.length > 0, 'CloudWatchMetrics is not a non-empty array');
  return CloudWatchMetrics.flatMap((directive: Record<string, unknown>) => {
    rule(
      Object.keys(directive).every((key) => DIRECTIVE_MEMBERS.includes(key)),
      'a directive has other members',
    );
    const { Namespace, Dimensions, Metrics } = directive;
    rule(isText(Namespace) && !Namespace.startsWith('AWS/'), 'Namespace is not 1–1024 characters of our own');
    rule(Array.isArray(Dimensions), 'Dimensions is not an array');
    rule(Array.isArray(Metrics) && Metrics.length > 0 && Metrics.length <= 100, 'Metrics is not 1 to 100 definitions');
    const sets = (Dimensions as unknown[]).map((set) => {
      rule(Array.isArray(set) && set.length <= 30, 'a dimension set is not an array of at most 30 names');
      return Object.fromEntries(
        (set as unknown[]).map((name) => {
          rule(isText(name, 250) && isText(line[name]), `dimension ${String(name)} names no string member of the root`);
          return [name, line[name]];
        }),
      );
    });
    return (Metrics as Record<string, unknown>[]).flatMap((definition) => {
      const { Name, Unit } = definition;
      rule(isText(Name) && Name !== '_aws', 'a metric definition has no Name');
      rule(Unit === undefined || UNITS.has(Unit as string), `${Name} has no unit CloudWatch knows`);
      const value = line[Name];
      const values = Array.isArray(value) ? value : [value];
      rule(
        values.length > 0 && values.length <= 100 && values.every((v) => typeof v === 'number' && Number.isFinite(v)),
        `${Name} is not a number`,
      );
      rule(!sets.some((set) => Name in set), `${Name} is a dimension too`);
      return (sets.length > 0 ? sets : [{}]).map((dimensions) => ({
        namespace: Namespace,
        metric: Name,
        dimensions,
        values: values as number[],
        timestamp: Timestamp as number,
      }));
    });
  });
}
