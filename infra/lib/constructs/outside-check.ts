/**
 * The outside check (core/src/outside-check.ts): a function of its own that every
 * OUTSIDE_CHECK.intervalMinutes does what a visitor does through the stage's public address and
 * writes whether it worked (the OutsideCheck metric, alarmed in alarms.ts). It calls no AWS API:
 * its requests go to the site, as a visitor's do, so its role may write its log and nothing else.
 * It signs its post's marker with a key derived from the origin secret CloudFront sends, so it
 * holds the same reference to that version as the distribution's origin header.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { FUNCTION_ENV, ORIGIN_VERIFY_ENV } from '@site/core/function-env';
import { OUTSIDE_CHECK, OUTSIDE_CHECK_ENV } from '@site/core/outside-check';
import { SiteFunction } from './site-function';

export interface OutsideCheckProps {
  /** Start of every resource name. */
  prefix: string;
  stage: string;
  /** The site's public address (the SiteUrl output). */
  siteUrl: string;
  /** The origin secret's value as CloudFront sends it: a dynamic reference, resolved at deploy time. */
  originSecret: string;
  retention: RetentionDays;
}

export class OutsideCheck extends Construct {
  readonly function: SiteFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: OutsideCheckProps) {
    super(scope, id);
    // 256 MB: four requests and a proof-of-work solve of a few thousand hashes.
    this.function = new SiteFunction(this, 'Function', {
      handler: 'outside-check',
      functionName: `${props.prefix}-outside-check`,
      timeout: Duration.seconds(OUTSIDE_CHECK.timeoutSeconds),
      memorySize: 256,
      retention: props.retention,
      environment: {
        [FUNCTION_ENV.stage]: props.stage,
        [OUTSIDE_CHECK_ENV.siteUrl]: props.siteUrl,
        [ORIGIN_VERIFY_ENV.current]: props.originSecret,
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'A failed run is what it reports: its metric is missing, which its alarm counts as failed; the next run is the retry.',
    });
    this.schedule = new Rule(this, 'Schedule', {
      ruleName: `${props.prefix}-outside-check`,
      schedule: Schedule.rate(Duration.minutes(OUTSIDE_CHECK.intervalMinutes)),
      // A run repeated at once would only measure the same moment again.
      targets: [new LambdaFunction(this.function, { retryAttempts: 0 })],
    });
    Validations.of(this.schedule).acknowledge({
      id: 'Serverless-EventBusDLQ',
      reason: 'A schedule tick carries no data: a missed one shows as a missing run, which the check’s alarm counts as failed.',
    });
  }
}
