/**
 * The site itself: the build in a private, versioned S3 bucket behind CloudFront, the
 * security headers on every answer, the edge functions that serve pages at clean URLs and
 * the 404 page, access logs, alias records for an own domain, and the ordered uploads.
 */
import { extname } from 'node:path';
import { Annotations, DefaultStackSynthesizer, Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IVersion } from 'aws-cdk-lib/aws-lambda';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, AaaaRecord, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { API_CLOUDFRONT_HEADERS, API_QUERY_PARAMETERS, API_VIEWER_HEADERS, ORIGIN_VERIFY_HEADER } from '@site/core/api-origin';
import { CACHE_CONTROL, cacheControlFor, HASHED_ASSET_PREFIX } from '@site/core/cache-control';
import { CONTENT_TYPES, FONT_EXTENSION } from '@site/core/node/content-types';
import { responseHeadersSettings } from '../response-headers';
import { securityHeaders } from '@site/core/node/security-headers';
import { listSiteFiles } from '@site/core/node/site-files';
import { apiFunctionCode, edgeFunctionCode } from '../edge-functions';

export interface StaticSiteProps {
  /** Start of every resource name. */
  prefix: string;
  /** The built site, normally frontend/dist. */
  siteDir: string;
  /** Retention of the upload function's log. */
  retention: RetentionDays;
  /** An own domain, its zone and its us-east-1 certificate; without it the *.cloudfront.net address. */
  domain?: { name: string; zone: IHostedZone; certificate: ICertificate };
  /** An AWS WAF web ACL (scope CLOUDFRONT, made in us-east-1) for the distribution; none by default. */
  webAclArn?: string;
  /** HSTS for every subdomain of the site's host too (hstsIncludeSubdomains). */
  hstsIncludeSubdomains: boolean;
}

export class StaticSite extends Construct {
  readonly distribution: cloudfront.Distribution;
  private readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  private readonly prefix: string;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    const { prefix, siteDir, domain } = props;
    this.prefix = prefix;
    const siteFiles = listSiteFiles(siteDir);

    // Access logs hold visitors' IP addresses: kept ACCESS_LOG_RETENTION_DAYS, then gone (the privacy statement says so).
    const logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront standard logging writes with object ACLs, which BUCKET_OWNER_ENFORCED refuses.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
      // Like the site bucket: kept, except when the create itself rolls back.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
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
      // No fixed name, so a retained bucket never blocks the next deploy.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: `${prefix}-security-headers`,
      comment: 'securityHeaders(siteDir) from core/node/security-headers.ts, as the local edge sends them',
      ...responseHeadersSettings(securityHeaders(siteDir, { hstsIncludeSubdomains: props.hstsIncludeSubdomains })),
    });

    // Unknown paths get the prerendered 404 page with status 404 at the edge, and nothing
    // rewrites the API's own error answers (no distribution-wide error responses).
    const edgeFunction = (event: 'viewer-request' | 'viewer-response') =>
      new cloudfront.Function(this, event === 'viewer-request' ? 'ViewerRequest' : 'ViewerResponse', {
        functionName: `${prefix}-${event}`,
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        code: cloudfront.FunctionCode.fromInline(edgeFunctionCode(event, siteFiles)),
        comment: `infra/lib/edge/${event}.js with this build's file list`,
      });

    const certificate = domain?.certificate;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${prefix}-site`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // The visitors are in the Netherlands: Europe and North America edges are enough and cheapest.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      domainNames: domain ? [domain.name] : undefined,
      certificate,
      // Only settable with an own certificate; *.cloudfront.net fixes its own policy.
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      enableLogging: true,
      logBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
      defaultBehavior: {
        // LIST too, so that S3 answers a missing object (an old asset URL) with 404, not 403.
        origin: S3BucketOrigin.withOriginAccessControl(siteBucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        // Honours the Cache-Control each object was uploaded with (see the uploads below).
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [
          { eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: edgeFunction('viewer-request') },
          { eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE, function: edgeFunction('viewer-response') },
        ],
      },
    });
    // Listing needs a GET on the bucket root with a list query; the viewer-request function
    // rewrites / to /index.html and the cache policy forwards no query string to S3.
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'No request reaches the bucket root: / becomes /index.html at the edge, and no query string is forwarded.',
    );
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'A public Dutch firm site: visitors from any country are welcome.',
    });
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason: 'wafRateLimit set to false: the operator chose to save the WAF fee; the function limits each visitor instead.',
      });
    }
    if (!certificate) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without domainName the *.cloudfront.net certificate fixes the viewer TLS policy; set domainName for TLSv1.2_2021.',
      });
    }

    if (domain) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasIPv4', { zone: domain.zone, recordName: domain.name, target });
      new AaaaRecord(this, 'AliasIPv6', { zone: domain.zone, recordName: domain.name, target });
    }

    this.upload(siteDir, siteFiles, siteBucket, props.retention);
    acknowledgeSiteUploadFunction(Stack.of(this), siteBucket);
  }

  /**
   * Sends `/api/*` to the HTTP API: same origin as the page, so the browser needs no CORS.
   * CloudFront adds the origin secret, which the function requires, and the viewer's address,
   * which it limits messages by; of the viewer's own headers only those the function reads,
   * with the viewer's Host under a name of our own (the function compares Origin with it).
   * `originResponse` turns API Gateway's own answer to a form post into its page.
   */
  routeApi(api: IHttpApi, originSecretValue: string, originResponse: IVersion): void {
    const viewerHost = new cloudfront.Function(this, 'ApiRequest', {
      functionName: `${this.prefix}-api-request`,
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(apiFunctionCode()),
      comment: 'infra/lib/edge/api-request.js: the viewer Host as X-Viewer-Host',
    });
    const originRequestPolicy = new cloudfront.OriginRequestPolicy(this, 'ApiOriginRequest', {
      originRequestPolicyName: `${this.prefix}-api`,
      comment: 'core/src/api-origin.ts: what the contact function reads, and the viewer address; never Host',
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...API_VIEWER_HEADERS, ...API_CLOUDFRONT_HEADERS),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.allowList(...API_QUERY_PARAMETERS),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });
    this.distribution.addBehavior(
      '/api/*',
      new HttpOrigin(Fn.parseDomainName(api.apiEndpoint), {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: { [ORIGIN_VERIFY_HEADER]: originSecretValue },
      }),
      {
        // A redirect would turn the form's POST into a GET; plain HTTP is refused instead.
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [{ eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: viewerHost }],
        edgeLambdas: [{ eventType: cloudfront.LambdaEdgeEventType.ORIGIN_RESPONSE, functionVersion: originResponse }],
        compress: true,
      },
    );
  }

  /**
   * One upload per Cache-Control value, chosen by cacheControlFor (as on the local edge), and
   * the fonts apart from the other hashed assets, with their Content-Type named (see
   * FONT_EXTENSION). Hashed assets go first so a new index.html never points at files not
   * there yet, and nothing is pruned so tabs still showing the previous build can load its assets.
   */
  private upload(siteDir: string, siteFiles: string[], siteBucket: Bucket, retention: RetentionDays): void {
    const uploadOrder = [CACHE_CONTROL.hashedAsset, CACHE_CONTROL.image, CACHE_CONTROL.other, CACHE_CONTROL.html];
    const uncovered = siteFiles.filter((path) => !(uploadOrder as string[]).includes(cacheControlFor(path)));
    if (uncovered.length > 0) throw new Error(`No upload for the Cache-Control of ${uncovered.join(', ')}; extend uploadOrder.`);
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', { retention, removalPolicy: RemovalPolicy.DESTROY });
    const source = Source.asset(siteDir);
    const isFont = (path: string) => path.endsWith(FONT_EXTENSION);
    const batches = uploadOrder.flatMap((cacheControl) => {
      const files = siteFiles.filter((path) => cacheControlFor(path) === cacheControl);
      return [
        { id: kindOf(cacheControl), cacheControl, files: files.filter((path) => !isFont(path)) },
        { id: `${kindOf(cacheControl)}-font`, cacheControl, files: files.filter(isFont), contentType: CONTENT_TYPES[FONT_EXTENSION] },
      ];
    });
    let previousUpload: BucketDeployment | undefined;
    for (const { id, cacheControl, files, contentType } of batches) {
      if (files.length === 0) continue;
      const last = cacheControl === uploadOrder.at(-1);
      const upload = new BucketDeployment(this, `Upload-${id}`, {
        sources: [source],
        destinationBucket: siteBucket,
        exclude: ['*'],
        // Hashed assets by kind (assets/*.js), which keeps the upload the same from build to build.
        include:
          cacheControl === CACHE_CONTROL.hashedAsset
            ? [...new Set(files.map((path) => `${HASHED_ASSET_PREFIX.slice(1)}*${extname(path)}`))]
            : files.map((path) => path.slice(1)),
        cacheControl: [CacheControl.fromString(cacheControl)],
        ...(contentType && { contentType }),
        prune: false,
        memoryLimit: 512,
        logGroup: deploymentLogs,
        // Hashed names never need invalidating; the rest is invalidated once all is uploaded.
        ...(last && {
          distribution: this.distribution,
          distributionPaths: siteFiles.filter((path) => !path.startsWith(HASHED_ASSET_PREFIX)),
        }),
      });
      if (previousUpload) {
        upload.node.addDependency(previousUpload);
        // Every upload brings an AWS CLI layer, but they share one handler (a singleton),
        // which only carries the first upload's: the others would be layers attached to nothing.
        upload.node.tryRemoveChild('AwsCliLayer');
      }
      previousUpload = upload;
    }
  }
}

/** hashedAsset, html or other: the CACHE_CONTROL key, for construct ids. */
function kindOf(cacheControl: string): string {
  return Object.entries(CACHE_CONTROL).find(([, value]) => value === cacheControl)![0];
}

/**
 * Findings on the function CDK itself adds to the stack to copy the build into the bucket.
 * Its grants are CDK's (read the asset, write the site bucket, invalidate); each finding is
 * named exactly.
 */
function acknowledgeSiteUploadFunction(stack: Stack, siteBucket: Bucket): void {
  const bucketLogicalId = stack.getLogicalId(siteBucket.node.defaultChild as CfnBucket);
  // As cdk-nag prints them: literals where the synth knows them (the account at deploy
  // time, the partition from the region), else the pseudo parameters.
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const assetBucket = `arn:${known(stack.partition, 'Partition')}:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${known(stack.account, 'AccountId')}-${stack.region}`;
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
