/**
 * A deployed function, run as Lambda runs it: its package as the deploy left it in the staging
 * bucket, unpacked, with the environment the deploy gave it and its role's credentials, invoked
 * in Node.js; the contact function with requests shaped as API Gateway hands them over after
 * CloudFront forwarded them. Its calls reach moto (for DynamoDB and SES) through IAM gates that
 * evaluate each against the role as the deploy left it in IAM (emulators/src/iam-gate.ts): moto
 * enforces no IAM, AWS does.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { FAKE_CREDENTIALS, type AwsCli } from './aws-cli';
import type { FunctionName } from '@site/core/names';
import type { DeployedRoles, StageNames } from '@site/core/node/deployed-roles';
import { startIamGate } from '@site/emulators/iam-gate';
import { rolePolicies, stagingBucket } from './deployed';
import { unzip } from './zip';

export interface DeployedFunction {
  region: string;
  /** Its name (FUNCTION_NAMES): the principal its calls are signed as. */
  name: FunctionName;
  account: string;
  /** Where the package is unpacked. */
  taskRoot: string;
  environment: NodeJS.ProcessEnv;
  /** The value CloudFront would send; moto leaves the dynamic reference unresolved. */
  originSecret: string;
  /** SHA-256 of the staged package, base64, as Lambda's CodeSha256 reports the deployed code. */
  packageSha256: string;
  /** A directory for the runs' results. */
  scratch: string;
  /** Stops the IAM gates in front of moto. */
  close(): Promise<void>;
}

/**
 * Fetches the package the template names from the staging bucket and unpacks it. `configuration`
 * is Lambda's GetFunctionConfiguration of the deployed function; `endpoint` is moto's, which
 * stands in for DynamoDB and SES; `names`, the stage's table, sender and configuration set.
 */
export async function unpackDeployedFunction(options: {
  aws: AwsCli;
  name: FunctionName;
  region: string;
  account: string;
  s3Key: string;
  configuration: any;
  scratch: string;
  endpoint: string;
  names: StageNames;
}): Promise<DeployedFunction> {
  const { aws, region, configuration, scratch } = options;
  mkdirSync(scratch, { recursive: true });
  const zipFile = join(scratch, `${options.name}.zip`);
  await aws(region, 's3api', 'get-object', '--bucket', await stagingBucket(aws, region), '--key', options.s3Key, zipFile);
  const archive = readFileSync(zipFile);
  const taskRoot = join(scratch, 'task');
  for (const [name, content] of unzip(archive)) {
    mkdirSync(join(taskRoot, name, '..'), { recursive: true });
    writeFileSync(join(taskRoot, name), content);
  }

  const roles: DeployedRoles = {
    account: options.account,
    region,
    principals: { [options.name]: await rolePolicies(aws, region, configuration.Role) },
    keptGrants: {},
  };
  const gated = { roles, names: options.names, upstream: options.endpoint };
  const gates = await Promise.all([startIamGate({ ...gated, service: 'dynamodb' }), startIamGate({ ...gated, service: 'ses' })]);

  // CloudFormation would put the secret's generated value (64 letters and digits) where moto leaves the reference.
  const originSecret = randomBytes(48).toString('base64url').replace(/[-_]/g, 'x').slice(0, 64);
  const deployed = configuration.Environment.Variables as Record<string, string>;
  const environment: NodeJS.ProcessEnv = {
    ...deployed,
    ORIGIN_VERIFY: originSecret,
    // What the Lambda runtime adds to every function's environment.
    PATH: process.env.PATH,
    TZ: ':UTC',
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_EXECUTION_ENV: `AWS_Lambda_${configuration.Runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: configuration.FunctionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(configuration.MemorySize),
    AWS_LAMBDA_FUNCTION_TIMEOUT: String(configuration.Timeout),
    FUNCTION_ARN: configuration.FunctionArn,
    _HANDLER: configuration.Handler,
    // The role's credentials, as Lambda gives them: the gates know the role by its function's name.
    ...FAKE_CREDENTIALS,
    AWS_ACCESS_KEY_ID: options.name,
    AWS_SESSION_TOKEN: 'deploy-test',
    // The one change: DynamoDB and SES are moto's, behind IAM.
    AWS_ENDPOINT_URL_DYNAMODB: gates[0].url,
    AWS_ENDPOINT_URL_SES: gates[1].url,
  };
  return {
    region,
    name: options.name,
    account: options.account,
    taskRoot,
    environment,
    originSecret,
    packageSha256: createHash('sha256').update(archive).digest('base64'),
    scratch,
    close: async () => {
      await Promise.all(gates.map((gate) => gate.close()));
    },
  };
}

const API_PATH = '/api/send-contact-email';

/**
 * A request to the contact route as API Gateway hands it to the function (the HTTP API's
 * payload format 2.0, header names in lower case) after CloudFront forwarded it: `headers`
 * are the ones its origin request policy passes on and the origin header it adds.
 */
function apiEvent(fn: Pick<DeployedFunction, 'region' | 'account'>, body: string, headers: Record<string, string>): APIGatewayProxyEventV2 {
  const now = new Date();
  const apiId = 'a1b2c3d4e5';
  const domainName = `${apiId}.execute-api.${fn.region}.amazonaws.com`;
  const [day, month, year, time] = now.toUTCString().split(' ').slice(1, 5);
  return {
    version: '2.0',
    routeKey: `ANY ${API_PATH}`,
    rawPath: API_PATH,
    rawQueryString: '',
    headers: {
      'content-length': String(Buffer.byteLength(body)),
      host: domainName,
      'user-agent': 'Amazon CloudFront',
      via: '2.0 0123456789abcdef0123456789abcdef.cloudfront.net (CloudFront)',
      'x-amzn-trace-id': `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`,
      'x-forwarded-for': '198.51.100.7, 130.176.0.1',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      ...headers,
    },
    requestContext: {
      accountId: fn.account,
      apiId,
      domainName,
      domainPrefix: apiId,
      http: { method: 'POST', path: API_PATH, protocol: 'HTTP/1.1', sourceIp: '130.176.0.1', userAgent: 'Amazon CloudFront' },
      requestId: randomBytes(12).toString('base64url'),
      routeKey: `ANY ${API_PATH}`,
      stage: '$default',
      time: `${day}/${month}/${year}:${time} +0000`,
      timeEpoch: now.getTime(),
    },
    body,
    isBase64Encoded: false,
  };
}

/** The JSON request the page's script sends, through CloudFront from one visitor address. */
export function contactRequest(
  fn: Pick<DeployedFunction, 'region' | 'account'>,
  fields: Record<string, string>,
  originHeader?: string,
): APIGatewayProxyEventV2 {
  return apiEvent(fn, JSON.stringify(fields), {
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
    'cloudfront-viewer-address': '198.51.100.7:50123',
    'cloudfront-forwarded-proto': 'https',
    ...(originHeader !== undefined && { 'x-origin-verify': originHeader }),
  });
}

/**
 * Invokes the package once per event, in one Node.js process, as Lambda would. Rejects with
 * the function's log when the runtime stand-in fails (its lines hold ids and outcomes, never what
 * a visitor typed).
 */
export async function invoke(fn: DeployedFunction, events: APIGatewayProxyEventV2[]): Promise<{ status: number | undefined; body: any }[]> {
  const results = (await invokeWith(fn, events)) as APIGatewayProxyStructuredResultV2[];
  return results.map((result) => ({ status: result.statusCode, body: JSON.parse(result.body ?? 'null') }));
}

/** Invokes the package once per event, as `invoke` does, and answers what the handler returned for each. */
export async function invokeWith(fn: DeployedFunction, events: unknown[]): Promise<unknown[]> {
  const resultsFile = join(fn.scratch, `results-${randomUUID()}.json`);
  const child = spawn(process.execPath, [join(import.meta.dirname, 'lambda-runtime.ts'), resultsFile], {
    cwd: fn.taskRoot,
    env: { ...fn.environment, LAMBDA_TASK_ROOT: fn.taskRoot },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stdout.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stdin.end(JSON.stringify(events));
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (exitCode !== 0) throw new Error(`The runtime stand-in ended with ${exitCode}:\n${logs}`);
  return JSON.parse(readFileSync(resultsFile, 'utf8')) as unknown[];
}
