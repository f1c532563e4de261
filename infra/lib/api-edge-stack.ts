/**
 * The /api/* behaviour's Lambda@Edge function (infra/lib/edge/api-origin-response.js): a form
 * post that API Gateway answers itself (its stage throttle, a function that failed) goes on to
 * the page that says so, never to raw JSON. CloudFront takes Lambda@Edge functions from
 * us-east-1 only, so it lives in a small stack of its own there, like the certificate and the
 * WAF, and the site stack reads its version across regions.
 *
 * Its cost: one invocation per /api/* request that reaches the API (128 MB, a few ms; the
 * site's pages never run it). Its catch: CloudFront keeps replicas of the function in its
 * regions, and deletes them only hours after the distribution lets go of it, so destroying
 * this stack right after the site stack fails until then (docs/first-deploy.md, "Destroying a stage").
 */
import { Aws, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CompositePrincipal, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, type IVersion } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { apiOriginResponseCode } from './edge-functions';

export interface ApiEdgeStackProps extends StackProps {
  /** Start of every resource name. */
  prefix: string;
  retention: RetentionDays;
}

/** Lambda@Edge runs every copy as `us-east-1.<name>`, logging to a group of that name in the region that ran it. */
const edgeLogGroupName = (functionName: string) => `/aws/lambda/us-east-1.${functionName}`;

/**
 * Node.js 22, not the site's 24: CloudFront's Lambda@Edge restrictions list Node.js 22 as the
 * newest runtime it takes. The code is one plain function that runs the same on both.
 */
const EDGE_RUNTIME_REASON = 'Lambda@Edge lists Node.js 22 as its newest runtime; the function is plain JavaScript that runs on 24 as well.';

const apiOriginResponseName = (prefix: string) => `${prefix}-api-origin-response`;

export class ApiEdgeStack extends Stack {
  /** What the /api/* behaviour runs on the origin's response. */
  readonly originResponse: IVersion;

  constructor(scope: Construct, id: string, props: ApiEdgeStackProps) {
    super(scope, id, props);
    const functionName = apiOriginResponseName(props.prefix);
    // Lambda runs it in us-east-1, CloudFront's replicas everywhere else.
    const role = new Role(this, 'Role', {
      assumedBy: new CompositePrincipal(new ServicePrincipal('lambda.amazonaws.com'), new ServicePrincipal('edgelambda.amazonaws.com')),
      description: 'Lambda@Edge: writes its own logs, in any region a replica runs in; nothing else',
    });
    const logGroupArn = `arn:${Aws.PARTITION}:logs:*:${Aws.ACCOUNT_ID}:log-group:${edgeLogGroupName(functionName)}`;
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroupArn, `${logGroupArn}:*`],
      }),
    );
    // The group the copies that run in us-east-1 write to; a replica elsewhere makes its own there.
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: edgeLogGroupName(functionName),
      retention: props.retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // No environment variables and no arm64: Lambda@Edge takes neither.
    const fn = new LambdaFunction(this, 'OriginResponse', {
      functionName,
      description: 'Lambda@Edge origin response of /api/*: API Gateway’s own answer to a form post goes on to its page',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.X86_64,
      handler: 'index.handler',
      code: Code.fromInline(apiOriginResponseCode()),
      memorySize: 128,
      timeout: Duration.seconds(5),
      role,
      logGroup,
    });
    this.originResponse = fn.currentVersion;
    const wildcard = (resource: string) => ({
      id: `AwsSolutions-IAM5[Resource::${resource.replace(Aws.PARTITION, '<AWS::Partition>').replace(Aws.ACCOUNT_ID, '<AWS::AccountId>')}]`,
      reason:
        'Lambda@Edge replicas log in whichever region runs them, so the ARN names any region; it names this function’s log group only.',
    });
    Validations.of(role).acknowledge(wildcard(logGroupArn), wildcard(`${logGroupArn}:*`));
    Validations.of(fn).acknowledge(
      { id: 'Serverless-LambdaTracing', reason: 'Lambda@Edge does not support X-Ray active tracing.' },
      {
        id: 'Serverless-LambdaDLQ',
        reason: 'CloudFront calls it synchronously, within the request; Lambda@Edge takes no dead-letter queue.',
      },
      { id: 'AwsSolutions-L1', reason: EDGE_RUNTIME_REASON },
      { id: 'Serverless-LambdaLatestVersion', reason: EDGE_RUNTIME_REASON },
    );
  }
}
