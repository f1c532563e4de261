/**
 * The stage's dashboard, where on call starts: what is alarming, the path's metrics on one
 * time axis (received → stored → e-mailed → delivered or bounced; what left the path; the retry
 * job), then the services under it: the API's answers, latency and throttles, each function's
 * errors and duration, the table's throttles, SES's reputation, and CloudFront's requests and
 * 5xx rate, which it publishes in us-east-1 only (those widgets read that region). Every row of
 * core/src/metric-names.ts is drawn, in the graph its row names, and every alarm is on it.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  AlarmWidget,
  Dashboard,
  GraphWidget,
  Metric,
  TextWidget,
  type HorizontalAnnotation,
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { METRIC_NAMES, PATH_METRICS, type MetricName } from '@site/core/metric-names';
import { CLOUDFRONT_5XX_PERCENT, SES_REPUTATION, type AlarmName } from '../alarm-catalogue';
import { LOG_QUERIES, type LogQueryName } from '../log-queries';
import { seriesOf } from '../path-metrics';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import type { SavedQueries } from './log-queries';

/** CloudFront publishes its metrics in this region only, whatever the stack's. */
const CLOUDFRONT_REGION = 'us-east-1';

const FIVE_MINUTES = Duration.minutes(5);

export interface SiteDashboardProps {
  /** The dashboard's name: the stage's prefix. */
  name: string;
  stage: string;
  contact: ContactApi;
  deliveryEvents: DeliveryEvents;
  table: ITable;
  distributionId: string;
  /** The alarms of the site stack. */
  alarms: IAlarm[];
  /** The alarms of the us-east-1 stack, by name (that stack is made after this one, so they are found by name). */
  edgeAlarms: AlarmName[];
  queries: SavedQueries;
}

export class SiteDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: SiteDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.name, defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(this.introduction(props));
    this.dashboard.addWidgets(...this.alarmState(props));
    this.dashboard.addWidgets(...this.path(props.stage));
    this.dashboard.addWidgets(...this.services(props));
  }

  /** What the dashboard is and where the logs are: one link per saved query. */
  private introduction(props: SiteDashboardProps): TextWidget {
    const queries = (Object.keys(LOG_QUERIES) as LogQueryName[])
      .map((name) => `[${props.queries.nameOf(name)}](${props.queries.urlOf(name)}): ${LOG_QUERIES[name].shows}`)
      .join('\n* ');
    return new TextWidget({
      width: 24,
      height: 6,
      markdown: [
        `# ${props.name}: the contact path`,
        'An alarm e-mail names its first step and its saved query. The graphs count, per 5 minutes, what the functions wrote as metrics; ' +
          'docs/on-call.md says what each alarm means and what to do.',
        `Saved Logs Insights queries, newest lines first:\n* ${queries}`,
      ].join('\n\n'),
    });
  }

  /** Every alarm: the stack's in one status list, us-east-1's each as its own graph with its threshold. */
  private alarmState(props: SiteDashboardProps): (AlarmStatusWidget | AlarmWidget)[] {
    const edgeWidth = Math.max(4, Math.floor(8 / Math.max(1, props.edgeAlarms.length)));
    return [
      new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24 - edgeWidth * props.edgeAlarms.length, height: 6 }),
      ...props.edgeAlarms.map(
        (name) =>
          new AlarmWidget({
            title: `${name} (${CLOUDFRONT_REGION})`,
            alarm: this.edgeAlarm(props.name, name),
            region: CLOUDFRONT_REGION,
            width: edgeWidth,
            height: 6,
          }),
      ),
    ];
  }

  private edgeAlarm(prefix: string, name: AlarmName): IAlarm {
    const arn = Stack.of(this).formatArn({
      service: 'cloudwatch',
      region: CLOUDFRONT_REGION,
      resource: 'alarm',
      resourceName: `${prefix}-${name}`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    return Alarm.fromAlarmArn(this, `Edge${name}`, arn);
  }

  /** The path's metrics, each row in the graph it names: counts on the left, a gauge's level on the right. */
  private path(stage: string): GraphWidget[] {
    const graph = (title: string, of: 'path' | 'off' | 'retry', stacked = false) => {
      const rows = METRIC_NAMES.filter((name) => PATH_METRICS[name].graph === of);
      const series = (kind: 'count' | 'gauge') =>
        rows.filter((name) => PATH_METRICS[name].kind === kind).flatMap((name: MetricName) => seriesOf(stage, name));
      return new GraphWidget({
        title,
        left: series('count'),
        right: series('gauge'),
        leftYAxis: { min: 0, label: 'per 5 minutes', showUnits: false },
        rightYAxis: { min: 0, label: 'waiting', showUnits: false },
        stacked,
        width: 8,
        height: 7,
      });
    };
    return [
      graph('The path: received → stored → e-mailed → delivery', 'path'),
      graph('Left the path: refused (by reason), not stored', 'off', true),
      graph('Retry job: attempts, given up, still waiting', 'retry'),
    ];
  }

  /** The services under the path. */
  private services(props: SiteDashboardProps): GraphWidget[] {
    const { contact, deliveryEvents, table } = props;
    const functions = [
      ['send-contact-email', contact.sendFunction],
      ['retry-undelivered', contact.retryFunction],
      ['record-delivery-event', deliveryEvents.consumer],
    ] as const;
    const sum = { period: FIVE_MINUTES, statistic: 'Sum' };
    const widget = (title: string, left: IMetric[], more: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {}) =>
      new GraphWidget({ title, left, width: 8, height: 6, leftYAxis: { min: 0 }, ...more });
    const api = contact.httpApi;
    const sesRate = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum' });
    const cloudFront = (metricName: string, statistic: string) =>
      new Metric({
        namespace: 'AWS/CloudFront',
        metricName,
        dimensionsMap: { DistributionId: props.distributionId, Region: 'Global' },
        region: CLOUDFRONT_REGION,
        period: FIVE_MINUTES,
        statistic,
      });
    const level = (value: number, label: string): HorizontalAnnotation => ({ value, label });
    return [
      widget('API answers: 4xx and 5xx', [
        api.metricClientError({ ...sum, label: '4xx' }),
        api.metricServerError({ ...sum, label: '5xx' }),
      ]),
      widget('API latency p99 (ms)', [
        api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'whole request' }),
        api.metricIntegrationLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'the function' }),
      ]),
      widget('Throttles', [
        contact.sendFunction.metricThrottles({ ...sum, label: 'contact function (reserved concurrency)' }),
        ...functions.slice(1).map(([name, fn]) => fn.metricThrottles({ ...sum, label: name })),
      ]),
      widget(
        'Function errors',
        functions.map(([name, fn]) => fn.metricErrors({ ...sum, label: name })),
      ),
      widget(
        'Function duration p99 (ms)',
        functions.map(([name, fn]) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: name })),
      ),
      widget('DynamoDB throttles', [
        table.metric('ReadThrottleEvents', { ...sum, label: 'reads' }),
        table.metric('WriteThrottleEvents', { ...sum, label: 'writes' }),
      ]),
      widget('SES reputation (the account’s, in this region)', [sesRate('Reputation.BounceRate'), sesRate('Reputation.ComplaintRate')], {
        leftAnnotations: [
          level(SES_REPUTATION.bounceRate.alarm, 'bounce alarm'),
          level(SES_REPUTATION.complaintRate.alarm, 'complaint alarm'),
        ],
      }),
      widget(`CloudFront requests (${CLOUDFRONT_REGION})`, [cloudFront('Requests', 'Sum')], { region: CLOUDFRONT_REGION }),
      widget(`CloudFront 5xx rate, % (${CLOUDFRONT_REGION})`, [cloudFront('5xxErrorRate', 'Average')], {
        region: CLOUDFRONT_REGION,
        leftAnnotations: [level(CLOUDFRONT_5XX_PERCENT, 'alarm')],
      }),
    ];
  }
}
