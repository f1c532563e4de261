/**
 * Where alarms go: SNS topics encrypted with a customer-managed key (CloudWatch cannot publish
 * to a topic under the AWS-managed key), which only CloudWatch alarms of this account and region
 * may use. Every alarm e-mails alarmEmail through the first; with pageTo, a second topic pages
 * (an incident tool's HTTPS endpoint, or an SMS) for what cannot wait. One key for both: a key
 * costs a dollar a month, a topic nothing.
 */
import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic, type ITopicSubscription } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, SmsSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /** Start of every resource name. */
  prefix: string;
  /** Who is mailed when an alarm fires; without it alarms only show in the console. */
  alarmEmail?: string;
  /** Who is paged (pageTo): an https:// endpoint or an E.164 phone number; without it no page topic. */
  pageTo?: string;
}

export class AlarmTopic extends Construct {
  /** Every alarm's e-mail. */
  readonly topic: Topic;
  /** The page, with pageTo. */
  readonly pageTopic?: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // Only this account's alarms, in this region, may use the key or publish: a confused
    // deputy in another account cannot borrow CloudWatch to write to the topics.
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
    const topic = (topicId: string, topicName: string, subscription?: ITopicSubscription) => {
      const made = new Topic(this, topicId, { topicName, masterKey: key, enforceSSL: true });
      // enforceSSL replaces the default topic policy, which is what let CloudWatch publish.
      made.addToResourcePolicy(
        new PolicyStatement({ principals: [cloudWatch], actions: ['sns:Publish'], resources: [made.topicArn], conditions: fromOwnAlarms }),
      );
      if (subscription) {
        Validations.of(made.addSubscription(subscription)).acknowledge({
          id: 'Serverless-SNSRedrivePolicy',
          reason: 'An undeliverable alarm notification has nowhere better to go; the alarm itself stays visible in CloudWatch.',
        });
      }
      return made;
    };
    this.topic = topic('Topic', `${props.prefix}-alarms`, props.alarmEmail ? new EmailSubscription(props.alarmEmail) : undefined);
    if (props.pageTo) this.pageTopic = topic('PageTopic', `${props.prefix}-page`, pageSubscription(props.pageTo));
  }
}

/** An https:// endpoint (the incident tool confirms the subscription itself) or a phone for SMS. */
function pageSubscription(pageTo: string): ITopicSubscription {
  return pageTo.startsWith('https://') ? new UrlSubscription(pageTo) : new SmsSubscription(pageTo);
}
