/**
 * The alarms on what CloudFront, the certificate and a CloudFront web ACL publish: their metrics
 * exist in us-east-1 only, so these alarms, the encrypted topics they notify, CloudFront's access
 * log in CloudWatch Logs and its saved query live in a small stack of their own there, like the
 * certificate and the WAF. The distribution's id comes from the site stack across regions; the
 * alarms link to the site region's dashboard, and to this stack's query or the site's.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { ComparisonOperator, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import {
  CERTIFICATE_DAYS_LEFT,
  CLOUDFRONT_5XX_PERCENT,
  EDGE_FUNCTION_ERRORS,
  RATE_MIN_REQUESTS,
  SITE_4XX_PERCENT,
  type AlarmLinks,
  type AlarmName,
} from './alarm-catalogue';
import { savedQueryUrl } from './console-links';
import { AlarmTopic } from './constructs/alarm-topic';
import { CloudFrontAccessLog } from './constructs/cloudfront-access-log';
import { SavedQueries } from './constructs/log-queries';
import { notifyingAlarm, type AlarmTarget } from './constructs/notifying-alarm';
import { ALARM_QUERIES, EDGE_LOG_QUERIES, isEdgeQuery, type EdgeLogQueryName } from './log-queries';

export interface EdgeAlarmsStackProps extends StackProps {
  /** Start of every resource name. */
  prefix: string;
  alarmEmail?: string;
  pageTo?: string;
  distributionId: string;
  /** The site's certificate (us-east-1), with domainName; its expiry is watched. */
  certificateArn?: string;
  /** The web ACL's name, with config.wafRateLimit. */
  webAclName?: string;
  /** The stage's dashboard, in the site stack's region. */
  dashboardUrl: string;
  /** Where an alarm whose query is the site stack's sends its reader: that stack's dashboard and saved query, in its region. */
  alarmLinks: (name: AlarmName) => AlarmLinks;
}

const FIVE_MINUTES = Duration.minutes(5);

export class EdgeAlarmsStack extends Stack {
  /** The names of the alarms made here, for the site's dashboard (which is made before this stack). */
  static alarmNames(props: Pick<EdgeAlarmsStackProps, 'certificateArn' | 'webAclName'>): AlarmName[] {
    return [
      'CloudFront5xxRate',
      'Site4xxRate',
      'EdgeFunctionErrors',
      ...(props.certificateArn ? (['CertificateExpiry'] as const) : []),
      ...(props.webAclName ? (['WafBlockedRequests'] as const) : []),
    ];
  }

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    const { prefix, distributionId } = props;
    const accessLog = new CloudFrontAccessLog(this, 'CloudFrontAccessLog', {
      prefix,
      distributionId,
      retention: ACCESS_LOG_RETENTION_DAYS,
    });
    const queries = new SavedQueries<EdgeLogQueryName, 'cloudfront-access-log'>(this, 'Queries', {
      prefix,
      queries: EDGE_LOG_QUERIES,
      logGroups: { 'cloudfront-access-log': accessLog.logGroup },
    });
    const topics = new AlarmTopic(this, 'AlarmTopic', { prefix: `${prefix}-edge`, alarmEmail: props.alarmEmail, pageTo: props.pageTo });
    const target: AlarmTarget = {
      prefix,
      topic: topics.topic,
      pageTopic: topics.pageTopic,
      links: (name) => {
        const query = ALARM_QUERIES[name];
        if (!isEdgeQuery(query)) return props.alarmLinks(name);
        return {
          dashboard: props.dashboardUrl,
          query: { name: queries.nameOf(query), id: queries.idOf(query), url: (queryId) => savedQueryUrl(this.region, queryId) },
        };
      },
    };
    const cloudFront = (metricName: string, statistic: string) =>
      new Metric({
        namespace: 'AWS/CloudFront',
        metricName,
        // CloudFront's metrics are global: Region is always "Global".
        dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
        period: FIVE_MINUTES,
        statistic,
      });
    // A rate only where there were enough requests to judge; no requests, no data.
    const rateOf = (metricName: string, minRequests: number, label: string) =>
      new MathExpression({
        expression: `IF(requests >= ${minRequests}, rate, 0)`,
        usingMetrics: { requests: cloudFront('Requests', 'Sum'), rate: cloudFront(metricName, 'Average') },
        period: FIVE_MINUTES,
        label,
      });

    notifyingAlarm(this, target, 'CloudFront5xxRate', rateOf('5xxErrorRate', RATE_MIN_REQUESTS.fiveXx, '5xx rate, %'), {
      threshold: CLOUDFRONT_5XX_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
    });
    notifyingAlarm(this, target, 'Site4xxRate', rateOf('4xxErrorRate', RATE_MIN_REQUESTS.fourXx, '4xx rate, %'), {
      threshold: SITE_4XX_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });
    // CloudFront counts the errors of the distribution's Lambda@Edge function here, wherever it ran.
    notifyingAlarm(
      this,
      target,
      'EdgeFunctionErrors',
      new MathExpression({
        expression: 'FILL(execution, 0) + FILL(validation, 0)',
        usingMetrics: { execution: cloudFront('LambdaExecutionError', 'Sum'), validation: cloudFront('LambdaValidationError', 'Sum') },
        period: FIVE_MINUTES,
        label: 'Lambda@Edge errors',
      }),
      { threshold: EDGE_FUNCTION_ERRORS },
    );

    if (props.certificateArn) {
      // ACM publishes it once a day, for each certificate, in the certificate's region.
      notifyingAlarm(
        this,
        target,
        'CertificateExpiry',
        new Metric({
          namespace: 'AWS/CertificateManager',
          metricName: 'DaysToExpiry',
          dimensionsMap: { CertificateArn: props.certificateArn },
          period: Duration.days(1),
          statistic: 'Minimum',
        }),
        { threshold: CERTIFICATE_DAYS_LEFT, comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD },
      );
    }

    if (props.webAclName) {
      notifyingAlarm(
        this,
        target,
        'WafBlockedRequests',
        // A CloudFront web ACL's metrics carry no Region; ALL is the sum of its rules.
        new Metric({
          namespace: 'AWS/WAFV2',
          metricName: 'BlockedRequests',
          dimensionsMap: { WebACL: props.webAclName, Rule: 'ALL' },
          period: FIVE_MINUTES,
          statistic: 'Sum',
        }),
      );
    }
  }
}
