/**
 * One of the site's Lambda functions: a handler from lambda/src/handlers bundled as
 * lambda/bundle.ts says, on arm64 and Node.js 24, logging JSON to a log group of its own,
 * with a role of its own that may write to that group and nothing else until granted more.
 */
import { join } from 'node:path';
import { RemovalPolicy, Validations, type Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { keepGrant } from '../kept-grants';
import { LAMBDA_BUNDLING, LAMBDA_ENVIRONMENT } from '../lambda-bundling';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

export interface SiteFunctionProps {
  /** The file in lambda/src/handlers, without `.ts`. */
  handler: string;
  functionName: string;
  timeout: Duration;
  retention: RetentionDays;
  environment: Record<string, string>;
  reservedConcurrentExecutions?: number;
  /** 512 MB unless the function needs less. */
  memorySize?: number;
}

export class SiteFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: SiteFunctionProps) {
    // Siblings, not children: the function's own props need them before it exists.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      logGroupName: `/aws/lambda/${props.functionName}`,
      retention: props.retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of AWSLambdaBasicExecutionRole: logs to its own group only.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }));
    super(scope, id, {
      functionName: props.functionName,
      entry: join(REPO_ROOT, 'lambda', 'src', 'handlers', `${props.handler}.ts`),
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: { ...LAMBDA_ENVIRONMENT, ...props.environment },
      bundling: LAMBDA_BUNDLING,
    });
    keepGrant(this, props.functionName, {
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      reason: 'the Lambda runtime writes the function’s log with these; its own code calls neither',
    });
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaTracing',
      reason: 'JSON logs and CloudWatch metrics cover these small functions; X-Ray would add a wildcard grant for little insight.',
    });
  }
}
