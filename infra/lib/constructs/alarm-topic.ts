/**
 * Where alarms go: an SNS topic encrypted with a customer-managed key (CloudWatch cannot
 * publish to a topic under the AWS-managed key), which only CloudWatch alarms of this
 * account and region may use, and an e-mail subscription for alarmEmail.
 */
import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /** Start of every resource name. */
  prefix: string;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
}

export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // Only this account's alarms, in this region, may use the key or publish: a confused
    // deputy in another account cannot borrow CloudWatch to write to the topic.
    const fromOwnAlarms = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: {
        'aws:SourceArn': stack.formatArn({
          service: 'cloudwatch',
          resource: 'alarm',
          resourceName: '*',
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      },
    };

    const key = new Key(this, 'TopicKey', {
      description: `${props.prefix}-alarms topic encryption`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromOwnAlarms,
      }),
    );
    this.topic = new Topic(this, 'Topic', { topicName: `${props.prefix}-alarms`, masterKey: key, enforceSSL: true });
    // enforceSSL replaces the default topic policy, which is what let CloudWatch publish.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromOwnAlarms,
      }),
    );
    if (props.alarmEmail) {
      const subscription = this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
      Validations.of(subscription).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason: 'An undeliverable alarm e-mail has nowhere better to go; the alarm itself stays visible in CloudWatch.',
      });
    }
  }
}
