/**
 * The alarms on what CloudFront and a CloudFront web ACL publish: their metrics exist in
 * us-east-1 only, so these alarms, and the encrypted topic they notify, live in a small stack
 * of their own there, like the certificate and the WAF. The distribution's id comes from the
 * site stack across regions.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { CLOUDFRONT_5XX_PERCENT, type AlarmLinks, type AlarmName } from './alarm-catalogue';
import { AlarmTopic } from './constructs/alarm-topic';
import { notifyingAlarm } from './constructs/notifying-alarm';

export interface EdgeAlarmsStackProps extends StackProps {
  /** Start of every resource name. */
  prefix: string;
  alarmEmail?: string;
  distributionId: string;
  /** The web ACL's name, with config.wafRateLimit. */
  webAclName?: string;
  /** Where each alarm's e-mail sends its reader: the site stack's dashboard and saved queries, in its region. */
  alarmLinks: (name: AlarmName) => AlarmLinks;
}

export class EdgeAlarmsStack extends Stack {
  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    const { prefix } = props;
    const target = {
      prefix,
      topic: new AlarmTopic(this, 'AlarmTopic', { prefix: `${prefix}-edge`, alarmEmail: props.alarmEmail }).topic,
      links: props.alarmLinks,
    };
    const fiveMinutes = Duration.minutes(5);

    notifyingAlarm(
      this,
      target,
      'CloudFront5xxRate',
      new Metric({
        namespace: 'AWS/CloudFront',
        metricName: '5xxErrorRate',
        // CloudFront's metrics are global: Region is always "Global".
        dimensionsMap: { DistributionId: props.distributionId, Region: 'Global' },
        period: fiveMinutes,
        statistic: 'Average',
      }),
      { threshold: CLOUDFRONT_5XX_PERCENT, evaluationPeriods: 2 },
    );

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
          period: fiveMinutes,
          statistic: 'Sum',
        }),
      );
    }
  }
}
