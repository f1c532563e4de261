/**
 * What SES reports after it accepted an e-mail: the stage's configuration set, which every
 * e-mail is sent through, publishes its sending events (core/src/ses-events.ts) to the
 * account's default EventBridge bus; a rule that matches this set's events only invokes the
 * consumer (lambda/src/delivery-events/delivery-event-handler.ts), which records the outcome on the stored
 * message. Why EventBridge and not SNS: docs/decisions/0017-delivery-events-through-eventbridge.md.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ConfigurationSet, EventDestination, type EmailSendingEvent } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { FUNCTION_ENV } from '@site/core/function-env';
import { CONFIGURATION_SET_TAG, SES_DETAIL_TYPES, SES_EVENT_SOURCE, SES_EVENTS } from '@site/core/ses-events';
import type { MessageTable } from './message-table';
import { SiteFunction } from './site-function';

export interface DeliveryEventsProps {
  /** Start of every resource name. */
  prefix: string;
  /** The configuration set's name (core/src/names.ts: configurationSetName). */
  configurationSetName: string;
  table: MessageTable;
  retention: RetentionDays;
  /** The stage the consumer counts its metrics under. */
  stage: string;
}

/** A lost event leaves its message `emailed`, which the retry job's count and MessagesNotDelivered report. */
const LOST_EVENT_REASON =
  'An event that is never recorded leaves its message "emailed": the retry job counts it and MessagesNotDelivered fires after deliveryAlarmHours.';

export class DeliveryEvents extends Construct {
  readonly configurationSet: ConfigurationSet;
  /**
   * Its name as a literal, not a reference: the functions' environment and grants name it
   * as `npm run messages` does; sendThrough() makes them wait for the set.
   */
  readonly configurationSetName: string;
  readonly consumer: SiteFunction;

  constructor(scope: Construct, id: string, props: DeliveryEventsProps) {
    super(scope, id);
    const { prefix, table } = props;
    this.configurationSetName = props.configurationSetName;

    // Reputation metrics per set too, beside the account's, for a stage that sends much more than the others.
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      reputationMetrics: true,
      sendingEnabled: true,
      // SuppressedReasons [] (CDK's disableSuppressionList): every e-mail goes to the firm's own
      // mailbox, which bounces a wave past its hourly limit (Exchange Online's 5.2.121); with the
      // account's list those bounces would suppress the firm's own address, for every stage.
      // Bounces still reach the consumer and the bounce alarm (docs/first-deploy.md).
      disableSuppressionList: true,
    });
    this.configurationSet.addEventDestination('ToEventBridge', {
      configurationSetEventDestinationName: 'eventbridge',
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: SES_DETAIL_TYPES.map((detailType) => SES_EVENTS[detailType].published as EmailSendingEvent),
    });

    this.consumer = new SiteFunction(this, 'RecordDeliveryEvent', {
      handler: 'record-delivery-event',
      functionName: `${prefix}-record-delivery-event`,
      timeout: Duration.seconds(30),
      retention: props.retention,
      environment: { [FUNCTION_ENV.tableName]: table.tableName, [FUNCTION_ENV.stage]: props.stage },
    });
    // GetItem: an event that did not apply is told apart (a repeat, not ours, no such message) by reading the message's attempts.
    table.grantItems(this.consumer, 'dynamodb:UpdateItem', 'dynamodb:GetItem');
    Validations.of(this.consumer).acknowledge({ id: 'Serverless-LambdaDLQ', reason: LOST_EVENT_REASON });

    // Every stage's set publishes to the same default bus: the set's own tag picks this stage's.
    const rule = new Rule(this, 'Rule', {
      ruleName: `${prefix}-delivery-events`,
      description: `SES sending events of the configuration set ${props.configurationSetName}`,
      eventPattern: {
        source: [SES_EVENT_SOURCE],
        detailType: [...SES_DETAIL_TYPES],
        detail: { mail: { tags: { [CONFIGURATION_SET_TAG]: [props.configurationSetName] } } },
      },
      // EventBridge retries a failed delivery to Lambda for a day; Lambda itself retries a failed run twice.
      targets: [new LambdaFunction(this.consumer, { maxEventAge: Duration.hours(24), retryAttempts: 185 })],
    });
    Validations.of(rule).acknowledge({ id: 'Serverless-EventBusDLQ', reason: LOST_EVENT_REASON });
  }

  /** Functions that send through the set are created after it, so none sends before its events are published. */
  sendThrough(...functions: IFunction[]): void {
    for (const fn of functions) fn.node.addDependency(this.configurationSet);
  }
}
