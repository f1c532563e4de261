/**
 * CloudFront's access log in CloudWatch Logs, for the saved query the edge alarms link to:
 * CloudFront's standard logging (v2), whose delivery source lives in us-east-1 and delivers to a
 * log group there. Only the fields on call reads (when, the method, the path, the status, why,
 * where, how long): no address, referrer, query string, cookie or user agent, so it holds no
 * personal data. The S3 access log (static-site.ts) keeps the full record for as long as before.
 */
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnDelivery, CfnDeliveryDestination, CfnDeliverySource, LogGroup, ResourcePolicy, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The fields each line holds: what the query shows and nothing more (CloudFront's names). */
export const CLOUDFRONT_LOG_FIELDS = [
  'timestamp',
  'cs-method',
  'cs-uri-stem',
  'sc-status',
  'x-edge-detailed-result-type',
  'x-edge-location',
  'time-taken',
] as const;

export interface CloudFrontAccessLogProps {
  /** Start of every resource name. */
  prefix: string;
  distributionId: string;
  retention: RetentionDays;
}

export class CloudFrontAccessLog extends Construct {
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: CloudFrontAccessLogProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/cloudfront/${props.prefix}-access`,
      retention: props.retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const source = new CfnDeliverySource(this, 'Source', {
      name: `${props.prefix}-cloudfront`,
      logType: 'ACCESS_LOGS',
      resourceArn: stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: props.distributionId }),
    });
    const logGroupArn = stack.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: this.logGroup.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const destination = new CfnDeliveryDestination(this, 'Destination', {
      name: `${props.prefix}-cloudfront-logs`,
      destinationResourceArn: logGroupArn,
      outputFormat: 'json',
    });
    // The log delivery service writes the group, for this account's deliveries only. Made here
    // rather than left to AWS, which would add it account-wide and keep it after the stack.
    const writes = new ResourcePolicy(this, 'DeliveryWrites', {
      resourcePolicyName: `${props.prefix}-cloudfront-logs`,
      policyStatements: [
        new PolicyStatement({
          principals: [new ServicePrincipal('delivery.logs.amazonaws.com')],
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [`${logGroupArn}:log-stream:*`],
          conditions: {
            StringEquals: { 'aws:SourceAccount': stack.account },
            // As the CloudWatch Logs guide writes it for vended logs: this account's deliveries in this region.
            ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:*` },
          },
        }),
      ],
    });
    const delivery = new CfnDelivery(this, 'Delivery', {
      deliverySourceName: source.name,
      deliveryDestinationArn: destination.attrArn,
      recordFields: [...CLOUDFRONT_LOG_FIELDS],
    });
    delivery.node.addDependency(source);
    delivery.node.addDependency(writes);
  }
}
