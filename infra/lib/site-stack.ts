/**
 * The whole site in one stack, in the order of the picture in DESIGN.md: storage, site,
 * API, functions, mail, monitoring.
 */
import { join } from 'node:path';
import {
  Annotations,
  CfnOutput,
  DefaultStackSynthesizer,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FilterPattern, LogGroup, MetricFilter, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, AaaaRecord, HostedZone, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { API_PATH } from '@site/lambda/contract';
import { DEFAULT_TABLE_NAME, MESSAGE_TABLE, type IndexName, type KeyAttribute } from '@site/lambda/table';
import { RETRY_RUN_LOG } from '@site/lambda/metrics';
import { ACCESS_LOG_RETENTION_DAYS } from './access-logs';
import { CACHE_CONTROL, cacheControlFor, HASHED_ASSET_PREFIX } from './cache-control';
import type { Config } from './config';
import { FUNCTION_TIMEOUT_SECONDS } from './function-limits';
import { LAMBDA_BUNDLING, LAMBDA_ENVIRONMENT } from './lambda-bundling';
import { responseHeadersSettings } from './response-headers';
import { SECURITY_HEADERS } from './security-headers';
import { edgeFunctionCode, listSiteFiles } from './site-files';

export const APP_NAME = 'consultancy-site';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const handlerEntry = (name: string) => join(REPO_ROOT, 'lambda', 'src', 'handlers', `${name}.ts`);

export interface SiteStackProps extends StackProps {
  config: Config;
  /** The built site, normally frontend/dist; the tests pass a small stand-in. */
  siteDir: string;
  /** For config.domainName when config.certificateArn is not set: from the us-east-1 certificate stack. */
  certificate?: ICertificate;
}

export class SiteStack extends Stack {
  readonly distribution: cloudfront.Distribution;
  readonly table: Table;
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const { config, siteDir } = props;
    const name = (part: string) => `${APP_NAME}-${config.stage}-${part}`;
    const retention = config.retentionDays as RetentionDays;
    const siteFiles = listSiteFiles(siteDir);
    const zone = config.domainName ? importHostedZone(this, config) : undefined;
    const certificate = config.certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn)
      : props.certificate;

    // ── Storage ─────────────────────────────────────────────────────────────────────────────
    // Contact messages: the one copy of what a visitor sent until it is e-mailed, so it is
    // kept through a stack deletion and recoverable to any second of the last 35 days.
    const keyAttribute = (key: KeyAttribute) => ({ name: key.name, type: key.type as AttributeType });
    this.table = new Table(this, 'Messages', {
      tableName: name(DEFAULT_TABLE_NAME),
      partitionKey: keyAttribute(MESSAGE_TABLE.partitionKey),
      timeToLiveAttribute: MESSAGE_TABLE.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.deletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const [indexName, index] of Object.entries<{ partitionKey: KeyAttribute; sortKey?: KeyAttribute }>(MESSAGE_TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: keyAttribute(index.partitionKey),
        sortKey: index.sortKey && keyAttribute(index.sortKey),
        // Readers work from the index alone (the retry job re-sends from it): whole items.
        projectionType: ProjectionType.ALL,
      });
    }

    // ── Site ────────────────────────────────────────────────────────────────────────────────
    // Access logs hold visitors' IP addresses: kept for a fixed period the privacy statement quotes, then gone.
    const logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront standard logging writes with object ACLs, which BUCKET_OWNER_ENFORCED refuses.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket; logging it into itself would loop.',
    });

    const siteBucket = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      versioned: true,
      // Overwritten HTML stays restorable for a while without piling up forever.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(90) }],
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 's3/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const headers = responseHeadersSettings(SECURITY_HEADERS);
    const responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: name('security-headers'),
      comment: 'SECURITY_HEADERS from infra/lib/security-headers.ts, as the local edge sends them',
      ...headers,
    });

    // Unknown paths get the prerendered 404 page with status 404 at the edge, and nothing
    // rewrites the API's own error answers (no distribution-wide error responses).
    const edgeFunction = (event: 'viewer-request' | 'viewer-response') =>
      new cloudfront.Function(this, event === 'viewer-request' ? 'SiteViewerRequest' : 'SiteViewerResponse', {
        functionName: name(event),
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        code: cloudfront.FunctionCode.fromInline(edgeFunctionCode(event, siteFiles)),
        comment: `infra/lib/edge/${event}.js with this build's file list`,
      });

    // Created here because the distribution points at it; its stage and route follow under API.
    this.api = new HttpApi(this, 'Api', { apiName: name('api'), createDefaultStage: false });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: name('site'),
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // The visitors are in the Netherlands: Europe and North America edges are enough and cheapest.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      domainNames: config.domainName ? [config.domainName] : undefined,
      certificate,
      // Only settable with an own certificate; *.cloudfront.net fixes its own policy.
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      enableLogging: true,
      logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        // LIST too, so that S3 answers a missing object (an old asset URL) with 404, not 403.
        origin: S3BucketOrigin.withOriginAccessControl(siteBucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        // Honours the Cache-Control each object was uploaded with (see the deployments below).
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy,
        functionAssociations: [
          { eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: edgeFunction('viewer-request') },
          { eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE, function: edgeFunction('viewer-response') },
        ],
      },
      additionalBehaviors: {
        // Same origin as the page, so the browser needs no CORS.
        '/api/*': {
          origin: new HttpOrigin(Fn.parseDomainName(this.api.apiEndpoint), {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
          }),
          // A redirect would turn the form's POST into a GET; plain HTTP is refused instead.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy,
          compress: true,
        },
      },
    });
    // Listing needs a GET on the bucket root with a list query; the viewer-request function
    // rewrites / to /index.html and the cache policy forwards no query string to S3.
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'No request reaches the bucket root: / becomes /index.html at the edge, and no query string is forwarded.',
    );
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'A public Dutch firm site: visitors from any country are welcome.' },
      { id: 'AwsSolutions-CFR2', reason: 'No WAF: its monthly base fee exceeds the whole site; the API is throttled and capped instead.' },
    );
    if (!certificate) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without domainName the *.cloudfront.net certificate fixes the viewer TLS policy; set domainName for TLSv1.2_2021.',
      });
    }

    if (zone && config.domainName) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'SiteAliasIPv4', { zone, recordName: config.domainName, target });
      new AaaaRecord(this, 'SiteAliasIPv6', { zone, recordName: config.domainName, target });
    }

    // One upload per Cache-Control value, chosen by cacheControlFor (as on the local edge).
    // Hashed assets go first so a new index.html never points at files not there yet, and
    // nothing is pruned so tabs still showing the previous build can load its assets.
    const uploadOrder = [CACHE_CONTROL.hashedAsset, CACHE_CONTROL.other, CACHE_CONTROL.html];
    const uncovered = siteFiles.filter((path) => !(uploadOrder as string[]).includes(cacheControlFor(path)));
    if (uncovered.length > 0) throw new Error(`No upload for the Cache-Control of ${uncovered.join(', ')}; extend uploadOrder.`);
    const deploymentLogs = new LogGroup(this, 'SiteDeploymentLogs', { retention, removalPolicy: RemovalPolicy.DESTROY });
    const source = Source.asset(siteDir);
    let previousUpload: BucketDeployment | undefined;
    for (const cacheControl of uploadOrder) {
      const files = siteFiles.filter((path) => cacheControlFor(path) === cacheControl);
      if (files.length === 0) continue;
      const last = cacheControl === uploadOrder.at(-1);
      const upload = new BucketDeployment(this, `Upload-${kindOf(cacheControl)}`, {
        sources: [source],
        destinationBucket: siteBucket,
        exclude: ['*'],
        include: cacheControl === CACHE_CONTROL.hashedAsset ? [`${HASHED_ASSET_PREFIX.slice(1)}*`] : files.map((path) => path.slice(1)),
        cacheControl: [CacheControl.fromString(cacheControl)],
        prune: false,
        memoryLimit: 512,
        logGroup: deploymentLogs,
        // Hashed names never need invalidating; the rest is invalidated once all is uploaded.
        ...(last && {
          distribution: this.distribution,
          distributionPaths: siteFiles.filter((path) => !path.startsWith(HASHED_ASSET_PREFIX)),
        }),
      });
      if (previousUpload) upload.node.addDependency(previousUpload);
      previousUpload = upload;
    }

    // ── API ─────────────────────────────────────────────────────────────────────────────────
    // Throttled at the stage: the limit also holds for calls that skip CloudFront.
    const apiLogs = new LogGroup(this, 'ApiAccessLogs', {
      logGroupName: `/aws/apigateway/${name('api')}`,
      retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new HttpStage(this, 'ApiStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: { rateLimit: config.apiRateLimit.rate, burstLimit: config.apiRateLimit.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(apiLogs),
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

    // ── Functions ───────────────────────────────────────────────────────────────────────────
    const environment = {
      ...LAMBDA_ENVIRONMENT,
      TABLE_NAME: this.table.tableName,
      MAIL_FROM: config.senderAddress,
      MAIL_TO: config.contactRecipient,
      RETENTION_DAYS: String(config.retentionDays),
    };
    const lambdaFunction = (id: string, handler: string, options: { timeout: Duration; reservedConcurrency?: number }) => {
      const functionName = name(handler);
      const logGroup = new LogGroup(this, `${id}Logs`, {
        logGroupName: `/aws/lambda/${functionName}`,
        retention,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      // An own role instead of AWSLambdaBasicExecutionRole: logs to its own group only.
      const role = new Role(this, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
      role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }));
      const fn = new NodejsFunction(this, id, {
        functionName,
        entry: handlerEntry(handler),
        projectRoot: REPO_ROOT,
        depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
        runtime: Runtime.NODEJS_24_X,
        architecture: Architecture.ARM_64,
        memorySize: 512,
        timeout: options.timeout,
        reservedConcurrentExecutions: options.reservedConcurrency,
        role,
        logGroup,
        loggingFormat: LoggingFormat.JSON,
        environment,
        bundling: LAMBDA_BUNDLING,
      });
      Validations.of(fn).acknowledge({
        id: 'Serverless-LambdaTracing',
        reason: 'JSON logs and CloudWatch metrics cover two small functions; X-Ray would add a wildcard grant for little insight.',
      });
      return fn;
    };

    // Reserved concurrency caps what a flood of direct API calls can cost or do to the table.
    const sendFunction = lambdaFunction('SendContactEmail', 'send-contact-email', {
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      reservedConcurrency: config.reservedConcurrency === false ? undefined : config.reservedConcurrency,
    });
    Validations.of(sendFunction).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'API Gateway invokes it synchronously and the visitor gets the error; a DLQ only catches async events.',
    });
    // ANY, not POST: the handler itself answers other methods with 405 and Allow, as locally.
    const [route] = this.api.addRoutes({
      path: API_PATH,
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('SendContactEmailIntegration', sendFunction),
    });
    Validations.of(route!).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'A public contact form: visitors are anonymous; throttling and reserved concurrency bound abuse.',
    });
    sendFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.table.tableArn] }),
    );

    const retryFunction = lambdaFunction('RetryUndelivered', 'retry-undelivered', { timeout: Duration.minutes(2) });
    retryFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [`${this.table.tableArn}/index/${'byStatus' satisfies IndexName}`],
      }),
    );
    retryFunction.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [this.table.tableArn] }));
    Validations.of(retryFunction).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'A failed run loses nothing: the messages stay in the table and the next run (10 minutes) retries.',
    });
    const schedule = new Rule(this, 'RetrySchedule', {
      ruleName: name('retry-undelivered'),
      schedule: Schedule.rate(Duration.minutes(10)),
      // The next run is the retry: an immediate re-run would meet the same failure.
      targets: [new LambdaFunction(retryFunction, { retryAttempts: 0 })],
    });
    Validations.of(schedule).acknowledge({
      id: 'Serverless-EventBusDLQ',
      reason: 'A schedule tick carries no data: a missed one is replaced by the next, 10 minutes later.',
    });

    // ── Mail ────────────────────────────────────────────────────────────────────────────────
    // A domain identity (DKIM records in Route 53) when the sender's domain is the hosted
    // zone; otherwise the one address, verified by the link SES mails to it.
    const useDomainIdentity = zone !== undefined && config.senderAddress.split('@')[1] === config.hostedZoneName;
    const identityName = useDomainIdentity ? config.hostedZoneName! : config.senderAddress;
    const mailIdentityArn = config.createMailIdentity
      ? new EmailIdentity(this, 'MailIdentity', {
          identity: useDomainIdentity ? Identity.publicHostedZone(zone) : Identity.email(config.senderAddress),
        }).emailIdentityArn
      : this.formatArn({ service: 'ses', resource: 'identity', resourceName: identityName });
    const sendAsSender = new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [mailIdentityArn],
      conditions: { StringEquals: { 'ses:FromAddress': config.senderAddress } },
    });
    sendFunction.addToRolePolicy(sendAsSender);
    retryFunction.addToRolePolicy(sendAsSender);

    // ── Monitoring ──────────────────────────────────────────────────────────────────────────
    // CloudWatch can only publish to an encrypted topic through a customer-managed key.
    const alarmKey = new Key(this, 'AlarmTopicKey', {
      description: `${name('alarms')} topic encryption`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    alarmKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    const alarmTopic = new Topic(this, 'Alarms', { topicName: name('alarms'), masterKey: alarmKey, enforceSSL: true });
    // enforceSSL replaces the default topic policy, which is what let CloudWatch publish.
    alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [alarmTopic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    if (config.alarmEmail) {
      const subscription = alarmTopic.addSubscription(new EmailSubscription(config.alarmEmail));
      Validations.of(subscription).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason: 'An undeliverable alarm e-mail has nowhere better to go; the alarm itself stays visible in CloudWatch.',
      });
    }

    const metricNamespace = `${APP_NAME}/${config.stage}`;
    const retrySummary = FilterPattern.stringValue('$.msg', '=', RETRY_RUN_LOG.msg);
    const undelivered = new MetricFilter(this, 'UndeliveredMetric', {
      logGroup: retryFunction.logGroup,
      filterPattern: retrySummary,
      metricNamespace,
      metricName: 'UndeliveredMessages',
      metricValue: `$.${RETRY_RUN_LOG.pendingField}`,
    });
    const failed = new MetricFilter(this, 'FailedMetric', {
      logGroup: retryFunction.logGroup,
      filterPattern: retrySummary,
      metricNamespace,
      metricName: 'FailedMessages',
      metricValue: `$.${RETRY_RUN_LOG.failedField}`,
    });

    const alarm = (id: string, description: string, metric: IMetric) =>
      new Alarm(this, id, {
        alarmName: name(id),
        alarmDescription: description,
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new SnsAction(alarmTopic));
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    alarm(
      'SendFunctionErrors',
      'The contact function failed: visitors may be getting 5xx answers.',
      sendFunction.metricErrors(fiveMinutes),
    );
    alarm(
      'SendFunctionThrottles',
      'The contact function hit its reserved concurrency: a flood of calls, or too low a limit.',
      sendFunction.metricThrottles(fiveMinutes),
    );
    alarm(
      'RetryFunctionErrors',
      'The retry job failed: undelivered messages are not being re-sent.',
      retryFunction.metricErrors(fiveMinutes),
    );
    alarm(
      'Api5xx',
      'The API answered 5xx (function error, timeout or 503 when a message could not be stored).',
      this.api.metricServerError(fiveMinutes),
    );
    // Minimum over 30 minutes: every run (one per 10 minutes) left messages undelivered.
    alarm(
      'MessagesUndelivered',
      'Stored messages have not been e-mailed for 30 minutes: check SES (sandbox, identity, quota).',
      undelivered.metric({ period: Duration.minutes(30), statistic: 'Minimum' }),
    );
    alarm(
      'MessagesFailed',
      'The retry job gave up on a message: read it with `npm run messages` and answer it by hand.',
      failed.metric({ period: Duration.minutes(10), statistic: 'Sum' }),
    );

    // ── Outputs ─────────────────────────────────────────────────────────────────────────────
    new CfnOutput(this, 'SiteUrl', {
      description: 'The public site',
      value: `https://${config.domainName ?? this.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, 'DistributionId', { description: 'For manual invalidations', value: this.distribution.distributionId });
    new CfnOutput(this, 'TableName', { description: 'Stored contact messages (npm run messages)', value: this.table.tableName });
    new CfnOutput(this, 'ApiUrl', { description: 'The API behind /api/* (direct calls are throttled)', value: this.api.apiEndpoint });

    acknowledgeSiteUploadFunction(this, siteBucket, config.region);
  }
}

/** hashedAsset, html or other: the CACHE_CONTROL key, for construct ids. */
function kindOf(cacheControl: string): string {
  return Object.entries(CACHE_CONTROL).find(([, value]) => value === cacheControl)![0];
}

/** The zone is imported by id: a lookup by name would need credentials at synth. */
export function importHostedZone(scope: Construct, config: Config): IHostedZone {
  return HostedZone.fromHostedZoneAttributes(scope, 'Zone', {
    hostedZoneId: config.hostedZoneId!,
    zoneName: config.hostedZoneName!,
  });
}

/**
 * Findings on the function CDK itself adds to copy the build into the bucket. Its grants are
 * CDK's (read the asset, write the site bucket, invalidate); each finding is named exactly.
 */
function acknowledgeSiteUploadFunction(stack: Stack, siteBucket: Bucket, region: string): void {
  const bucketLogicalId = stack.getLogicalId(siteBucket.node.defaultChild as CfnBucket);
  // As cdk-nag prints them: literals where the synth knows them (the account at deploy
  // time, the partition from the region), else the pseudo parameters.
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const assetBucket = `arn:${known(stack.partition, 'Partition')}:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${known(stack.account, 'AccountId')}-${region}`;
  const wildcard = (finding: string, reason: string) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason });
  for (const helper of stack.node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    Validations.of(helper).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's site upload function logs through the basic Lambda execution policy.",
      },
      wildcard('Action::s3:GetObject*', 'CDK grants its upload function read access to the deployment asset.'),
      wildcard('Action::s3:GetBucket*', 'CDK grants its upload function read access to the deployment asset.'),
      wildcard('Action::s3:List*', 'CDK grants its upload function listing of the asset and site buckets to sync them.'),
      wildcard('Action::s3:DeleteObject*', 'CDK grants its upload function write access to the site bucket only.'),
      wildcard('Action::s3:Abort*', 'CDK grants its upload function write access to the site bucket only.'),
      wildcard(`Resource::${assetBucket}/*`, 'The CDK asset bucket holds the zipped build the function copies.'),
      wildcard(`Resource::<${bucketLogicalId}.Arn>/*`, 'The function writes every object of the site bucket, and only that bucket.'),
      wildcard('Resource::*', 'CloudFront invalidation actions take no resource narrower than *.'),
      { id: 'Serverless-LambdaDLQ', reason: 'CloudFormation calls the upload function synchronously and sees its failure itself.' },
      { id: 'AwsSolutions-L1', reason: 'CDK pins the runtime of its upload function.' },
      { id: 'Serverless-LambdaLatestVersion', reason: 'CDK pins the runtime of its upload function.' },
      { id: 'Serverless-LambdaTracing', reason: 'A one-shot deployment helper needs no tracing.' },
    );
  }
}
