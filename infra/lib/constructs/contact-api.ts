/**
 * The contact form's back end: the HTTP API and its throttled, logged stage, the contact
 * function behind API_PATH, CHALLENGE_PATH and HELD_PATH, and the retry job on its schedule, each allowed exactly the
 * table actions it performs.
 */
import { Annotations, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_PATH, CHALLENGE_PATH, HELD_PATH } from '@site/core/contract';
import { UNRESERVED_CONCURRENCY_MINIMUM, type ApiRateLimit } from '@site/core/node/deploy-config';
import { FUNCTION_ENV } from '@site/core/function-env';
import { API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS, FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { DIGEST_STATE_ID, IDEMPOTENCY_PREFIX, TEXT_PREFIX } from '@site/core/table';
import type { MessageTable } from './message-table';
import { SiteFunction } from './site-function';

export interface ContactApiProps {
  /** Start of every resource name. */
  prefix: string;
  table: MessageTable;
  /** What both functions need besides TABLE_NAME: MAIL_FROM, MAIL_TO, RETENTION_DAYS, the configuration set. */
  environment: Record<string, string>;
  /** What only the contact function needs: the origin secret, the visitor limit, the budgets and spam's expiry. */
  requestEnvironment: Record<string, string>;
  /** What only the retry job needs: when an e-mail counts as not delivered, and what the digest's link is made of. */
  retryEnvironment: Record<string, string>;
  retention: RetentionDays;
  rateLimit: ApiRateLimit;
  /** Concurrent executions reserved for (and capping) the contact function; none when undefined. */
  reservedConcurrency?: number;
}

/** How often the retry job runs; a failed run is retried by the next. */
const RETRY_INTERVAL = Duration.minutes(10);

export class ContactApi extends Construct {
  readonly httpApi: HttpApi;
  /** The API stage's access log: one line per request, without personal data. */
  readonly accessLogs: LogGroup;
  readonly sendFunction: SiteFunction;
  readonly retryFunction: SiteFunction;

  constructor(scope: Construct, id: string, props: ContactApiProps) {
    super(scope, id);
    const { prefix, retention } = props;
    const environment = { [FUNCTION_ENV.tableName]: props.table.tableName, ...props.environment };

    this.httpApi = new HttpApi(this, 'Api', { apiName: `${prefix}-api`, createDefaultStage: false });
    this.accessLogs = this.addStage(prefix, props.rateLimit, retention);
    this.sendFunction = this.addSendFunction(props, environment);
    this.retryFunction = this.addRetryJob(props, environment);
  }

  /** The API's one stage: throttled (the limit also holds for calls that skip CloudFront) and access-logged. */
  private addStage(prefix: string, rateLimit: ApiRateLimit, retention: RetentionDays): LogGroup {
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `/aws/apigateway/${prefix}-api`,
      retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new HttpStage(this, 'Stage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: { rateLimit: rateLimit.rate, burstLimit: rateLimit.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // No IP address or user agent: the log holds no personal data, as on the local edge.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    return accessLogs;
  }

  /** The contact function behind API_PATH, CHALLENGE_PATH and HELD_PATH, allowed to store and update messages. */
  private addSendFunction(props: ContactApiProps, environment: Record<string, string>): SiteFunction {
    const { prefix, table, retention } = props;
    // Reserved concurrency caps what a flood of direct API calls can cost or do to the table.
    const sendFunction = new SiteFunction(this, 'SendContactEmail', {
      handler: 'send-contact-email',
      functionName: `${prefix}-send-contact-email`,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      reservedConcurrentExecutions: props.reservedConcurrency,
      retention,
      environment: { ...environment, ...props.requestEnvironment },
    });
    if (props.reservedConcurrency !== undefined) {
      const quota = props.reservedConcurrency + UNRESERVED_CONCURRENCY_MINIMUM;
      Annotations.of(sendFunction).addInfo(
        `reservedConcurrency ${props.reservedConcurrency}: Lambda keeps ${UNRESERVED_CONCURRENCY_MINIMUM} concurrent executions unreserved, ` +
          `so this deploy needs an account quota of at least ${quota} (Service Quotas, AWS Lambda, Concurrent executions); ` +
          `new accounts often have 10. Set reservedConcurrency to false to reserve none.`,
      );
    }
    Validations.of(sendFunction).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'API Gateway invokes it synchronously and the visitor gets the error; a DLQ only catches async events.',
    });
    table.grantItems(sendFunction, 'dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem');
    // The firm's page of held messages lists them from the status index (decision 0048).
    table.grantQueryIndex(sendFunction, 'byStatus');
    // A request that reserved an Idempotency-Key and was then refused takes its reservation back.
    table.grantItemsWithKeys(sendFunction, [`${IDEMPOTENCY_PREFIX}*`], 'dynamodb:DeleteItem');
    // A message's near-copy bands are read in one request, on the visitor's wait.
    table.grantItemsWithKeys(sendFunction, [`${TEXT_PREFIX}*`], 'dynamodb:BatchGetItem');
    const integration = new HttpLambdaIntegration('SendContactEmailIntegration', sendFunction, {
      timeout: Duration.seconds(API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS),
    });
    // ANY, not POST: the handler itself answers other methods with 405 and Allow, as locally.
    const [sendRoute] = this.httpApi.addRoutes({ path: API_PATH, methods: [HttpMethod.ANY], integration });
    // GET only: the page's stamp worker asks for its proof-of-work challenge here (the same
    // function, which signs it); any other method matches no route and gets API Gateway's 404.
    const [challengeRoute] = this.httpApi.addRoutes({ path: CHALLENGE_PATH, methods: [HttpMethod.GET], integration });
    // The firm's page of held messages (decision 0048): ANY, so the function answers other methods with 405, as on API_PATH.
    const [heldRoute] = this.httpApi.addRoutes({ path: HELD_PATH, methods: [HttpMethod.ANY], integration });
    for (const route of [sendRoute!, challengeRoute!, heldRoute!]) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'A public contact form: visitors are anonymous; the held page checks its own signed link. Throttling and reserved concurrency bound abuse.',
      });
    }

    return sendFunction;
  }

  /** The retry job on its schedule: e-mails what is stored but not sent, and counts what is not delivered. */
  private addRetryJob(props: ContactApiProps, environment: Record<string, string>): SiteFunction {
    const { prefix, table, retention } = props;
    const retryFunction = new SiteFunction(this, 'RetryUndelivered', {
      handler: 'retry-undelivered',
      functionName: `${prefix}-retry-undelivered`,
      timeout: Duration.minutes(2),
      retention,
      environment: { ...environment, ...props.retryEnvironment },
    });
    table.grantQueryIndex(retryFunction, 'byStatus');
    table.grantItems(retryFunction, 'dynamodb:UpdateItem');
    // The digest of held messages: its state is one item, read and claimed by every run.
    table.grantItemsWithKeys(retryFunction, [DIGEST_STATE_ID], 'dynamodb:GetItem', 'dynamodb:PutItem');
    Validations.of(retryFunction).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'A failed run loses nothing: the messages stay in the table and the next run (10 minutes) retries.',
    });
    const schedule = new Rule(this, 'RetrySchedule', {
      ruleName: `${prefix}-retry-undelivered`,
      schedule: Schedule.rate(RETRY_INTERVAL),
      // The next run is the retry: an immediate re-run would meet the same failure.
      targets: [new LambdaFunction(retryFunction, { retryAttempts: 0 })],
    });
    Validations.of(schedule).acknowledge({
      id: 'Serverless-EventBusDLQ',
      reason: 'A schedule tick carries no data: a missed one is replaced by the next, 10 minutes later.',
    });
    return retryFunction;
  }
}
