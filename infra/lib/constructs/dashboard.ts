/**
 * The stage's dashboard, where on call starts: what is alarming (those in ALARM first), the
 * us-east-1 alarms as graphs with their thresholds (CloudFront's rates, the edge function, the
 * certificate: CloudFront and ACM publish there only), the path's metrics on one time axis
 * (received → stored → e-mailed → delivered or bounced; what left the path; the retry job; the
 * outside check), then the services under it: the API's answers, latency and throttles, each
 * function's errors and duration, the table's throttles and SES's reputation. Every row of
 * core/src/metric-names.ts is drawn, in the graph its row names, and every alarm is on it.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  AlarmStatusWidgetSortBy,
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
import { SES_REPUTATION, type AlarmName } from '../alarm-catalogue';
import { EDGE_LOG_QUERIES, LOG_QUERIES, type LogQueryName, type LogSource } from '../log-queries';
import { seriesOf } from '../path-metrics';
import type { ContactApi } from './contact-api';
import type { DeliveryEvents } from './delivery-events';
import type { SavedQueries } from './log-queries';
import type { SiteFunction } from './site-function';

/** CloudFront publishes its metrics in this region only, whatever the stack's. */
const CLOUDFRONT_REGION = 'us-east-1';

const FIVE_MINUTES = Duration.minutes(5);

export interface SiteDashboardProps {
  /** The dashboard's name: the stage's prefix. */
  name: string;
  stage: string;
  contact: ContactApi;
  deliveryEvents: DeliveryEvents;
  outsideCheck: SiteFunction;
  table: ITable;
  /** The alarms of the site stack, the composite ones included. */
  alarms: IAlarm[];
  /** The alarms of the us-east-1 stack, by name (that stack is made after this one, so they are found by name). */
  edgeAlarms: AlarmName[];
  queries: SavedQueries<LogQueryName, LogSource>;
}

export class SiteDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: SiteDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.name, defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(this.introduction(props));
    this.dashboard.addWidgets(this.alarmState(props));
    this.dashboard.addWidgets(...this.edgeAlarms(props));
    this.dashboard.addWidgets(...this.path(props.stage));
    this.dashboard.addWidgets(...this.services(props));
  }

  /** What the dashboard is and where the logs are: one link per saved query. */
  private introduction(props: SiteDashboardProps): TextWidget {
    // The us-east-1 stack's queries are made after this dashboard: by name, in the Logs Insights of that region.
    const edgeQueries = Object.entries(EDGE_LOG_QUERIES).map(
      ([name, query]) =>
        `${props.name}/${name} ([us-east-1](https://${CLOUDFRONT_REGION}.console.aws.amazon.com/cloudwatch/home?region=${CLOUDFRONT_REGION}#logsV2:logs-insights), under Saved queries): ${query.shows}`,
    );
    const queries = [
      ...(Object.keys(LOG_QUERIES) as LogQueryName[]).map(
        (name) => `[${props.queries.nameOf(name)}](${props.queries.urlOf(name)}): ${LOG_QUERIES[name].shows}`,
      ),
      ...edgeQueries,
    ].join('\n* ');
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

  /** The stack's alarms, the composite ones included, in one status list: those in ALARM first, then by when they changed. */
  private alarmState(props: SiteDashboardProps): AlarmStatusWidget {
    return new AlarmStatusWidget({
      title: 'Alarms of the stage (in ALARM first)',
      alarms: props.alarms,
      sortBy: AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      width: 24,
      height: 6,
    });
  }

  /** us-east-1's alarms, each as its own graph with its threshold, in one row. */
  private edgeAlarms(props: SiteDashboardProps): AlarmWidget[] {
    const width = Math.floor(24 / props.edgeAlarms.length);
    return props.edgeAlarms.map(
      (name) =>
        new AlarmWidget({
          title: `${name} (${CLOUDFRONT_REGION})`,
          alarm: this.edgeAlarm(props.name, name),
          region: CLOUDFRONT_REGION,
          width,
          height: 5,
        }),
    );
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
    const graph = (title: string, of: 'path' | 'off' | 'retry' | 'check', stacked = false, rightLabel = 'waiting') => {
      const rows = METRIC_NAMES.filter((name) => PATH_METRICS[name].graph === of);
      const series = (kind: 'count' | 'gauge') =>
        rows.filter((name) => PATH_METRICS[name].kind === kind).flatMap((name: MetricName) => seriesOf(stage, name));
      return new GraphWidget({
        title,
        left: series('count'),
        right: series('gauge'),
        leftYAxis: { min: 0, label: 'per 5 minutes', showUnits: false },
        rightYAxis: { min: 0, label: rightLabel, showUnits: false },
        stacked,
        width: 6,
        height: 7,
      });
    };
    return [
      graph('The path: received → stored → e-mailed → delivery', 'path'),
      graph('Left the path: refused (by reason), not stored, no origin secret', 'off', true),
      graph('Retry job: attempts, given up, still waiting', 'retry'),
      graph('Outside check: passed (1) or not (0), its posts', 'check', false, 'passed'),
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
    // The check's own duration says little (its log has each step's): only its errors.
    const checked = [...functions, ['outside-check', props.outsideCheck]] as const;
    const sum = { period: FIVE_MINUTES, statistic: 'Sum' };
    const widget = (title: string, left: IMetric[], more: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {}) =>
      new GraphWidget({ title, left, width: 8, height: 6, leftYAxis: { min: 0 }, ...more });
    const api = contact.httpApi;
    const sesRate = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum' });
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
      // The one function with a concurrency limit of its own; the others share the account's.
      widget('Contact function throttles (reserved concurrency)', [contact.sendFunction.metricThrottles({ ...sum, label: 'throttles' })]),
      widget(
        'Function errors',
        checked.map(([name, fn]) => fn.metricErrors({ ...sum, label: name })),
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
    ];
  }
}
