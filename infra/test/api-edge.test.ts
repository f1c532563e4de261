/**
 * The /api/* behaviour's Lambda@Edge function (infra/lib/api-edge-stack.ts): where it is made
 * and how CloudFront runs it, its code executed on origin responses in the shape of AWS's
 * documented example event ("Lambda@Edge event structure", example origin response), and what
 * its role may do, decided by an IAM policy simulator over the synthesized policy.
 */
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { API_PATH, CHALLENGE_PATH, FORM_CONTENT_TYPE, FORM_RESULT_PAGES } from '@site/core/contract';
import { loadConfig } from '@site/core/node/deploy-config';
import { CDK_JSON_CONTEXT, only, synth, TEST_ADDRESSES, type Synthesized } from './synth';

const ACCOUNT = '123456789012';
const FUNCTION_NAME = 'consultancy-site-test-api-origin-response';

let s: Synthesized;
let edge: Template;
let fn: any;
beforeAll(() => {
  s = synth();
  edge = Template.fromStack(s.apiEdge);
  fn = only(edge, 'AWS::Lambda::Function').resource;
});

type Headers = Record<string, { key: string; value: string }[]>;
interface Response {
  status: string;
  statusDescription: string;
  headers: Headers;
  body?: string;
}
const header = (key: string, value: string): Headers => ({ [key.toLowerCase()]: [{ key, value }] });

/** AWS's example origin-response event, with this API's request and `response` as the origin gave it. */
function originResponse(request: { method: string; uri: string; contentType?: string }, response: { status: number; headers: Headers }) {
  return {
    Records: [
      {
        cf: {
          config: {
            distributionDomainName: 'd111111abcdef8.cloudfront.net',
            distributionId: 'EDFDVBD6EXAMPLE',
            eventType: 'origin-response',
            requestId: '4TyzHTaYWb1GX1qTfsHhEqV6HUDd_BzoBZnwfnvQc_1oF26ClkoUSEQ==',
          },
          request: {
            clientIp: '203.0.113.178',
            headers: {
              ...header('X-Forwarded-For', '203.0.113.178'),
              ...header('User-Agent', 'Amazon CloudFront'),
              ...header('Via', '2.0 8f22423015641505b8c857a37450d6c0.cloudfront.net (CloudFront)'),
              ...header('Host', 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com'),
              ...(request.contentType && header('Content-Type', request.contentType)),
            },
            method: request.method,
            origin: {
              custom: {
                customHeaders: {},
                domainName: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
                keepaliveTimeout: 5,
                path: '',
                port: 443,
                protocol: 'https',
                readTimeout: 30,
                sslProtocols: ['TLSv1.2'],
              },
            },
            querystring: '',
            uri: request.uri,
          },
          response: {
            headers: { ...header('Date', 'Sat, 28 Nov 2026 13:12:38 GMT'), ...response.headers },
            status: String(response.status),
            statusDescription: '',
          },
        },
      },
    ],
  };
}

/** The deployed code, run as Lambda runs an inline Node.js function: index.js, `handler` exported. */
function deployedHandler(): (event: object) => Promise<Response> {
  const module = { exports: {} as { handler?: (event: object) => Promise<Response> } };
  runInNewContext(fn.Properties.Code.ZipFile, { module, exports: module.exports });
  expect(fn.Properties.Handler).toBe('index.handler');
  return module.exports.handler!;
}

/** API Gateway's own answer: JSON in its shape, no Retry-After. */
const gateway = (status: number, message: string) => ({
  status,
  headers: { ...header('Content-Type', 'application/json'), ...header('Content-Length', String(message.length + 14)) },
});
const formPost = { method: 'POST', uri: API_PATH, contentType: FORM_CONTENT_TYPE };

describe('the API edge stack', () => {
  it('lives in us-east-1, and the /api/* behaviour runs its published version on the origin response, without the body', () => {
    expect(s.apiEdge.region).toBe('us-east-1');
    const distribution = only(s.template, 'AWS::CloudFront::Distribution').resource.Properties.DistributionConfig;
    const api = distribution.CacheBehaviors.find((b: any) => b.PathPattern === '/api/*');
    expect(api.LambdaFunctionAssociations).toHaveLength(1);
    const [association] = api.LambdaFunctionAssociations;
    expect(association.EventType).toBe('origin-response');
    expect(association.IncludeBody).not.toBe(true);
    // The site's pages never run it.
    expect(distribution.DefaultCacheBehavior.LambdaFunctionAssociations).toBeUndefined();
    // A version, not $LATEST (CloudFront refuses that), read across regions from the edge stack.
    const version = only(edge, 'AWS::Lambda::Version').resource;
    expect(version.Properties.FunctionName).toEqual({ Ref: only(edge, 'AWS::Lambda::Function').id });
    expect(JSON.stringify(association.LambdaFunctionARN)).not.toContain('$LATEST');
    expect(s.site.dependencies.map((stack) => stack.stackName)).toContain(s.apiEdge.stackName);
  });

  it('is made as Lambda@Edge takes a function: x86_64, Node.js 22, no environment, a role CloudFront’s replicas may assume', () => {
    expect(fn.Properties.FunctionName).toBe(FUNCTION_NAME);
    expect(fn.Properties.Runtime).toBe('nodejs22.x');
    expect(fn.Properties.Architectures ?? ['x86_64']).toEqual(['x86_64']);
    expect(fn.Properties.Environment).toBeUndefined();
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(30);
    const role = edge.toJSON().Resources[fn.Properties.Role['Fn::GetAtt'][0]];
    const principals = role.Properties.AssumeRolePolicyDocument.Statement.flatMap((st: any) => [st.Principal.Service].flat());
    expect(principals.sort()).toEqual(['edgelambda.amazonaws.com', 'lambda.amazonaws.com']);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('logs in us-east-1 to the group Lambda@Edge names after the function, kept as long as the stage’s other logs', () => {
    const logs = only(edge, 'AWS::Logs::LogGroup').resource;
    expect(logs.Properties.LogGroupName).toBe(`/aws/lambda/us-east-1.${FUNCTION_NAME}`);
    expect(logs.Properties.RetentionInDays).toBe(loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES }).retentionDays);
    expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: only(edge, 'AWS::Logs::LogGroup').id });
  });
});

describe('the origin-response function, as deployed', () => {
  let handler: (event: object) => Promise<Response>;
  beforeAll(() => {
    handler = deployedHandler();
  });

  it('sends a form post that the stage throttle refused on to the busy page, not the visitor’s own limit, with no JSON', async () => {
    const answer = await handler(originResponse(formPost, gateway(429, '{"message":"Too Many Requests"}')));
    expect(answer.status).toBe('303');
    expect(answer.statusDescription).toBe('See Other');
    expect(answer.headers.location).toEqual([{ key: 'Location', value: FORM_RESULT_PAGES.busy }]);
    expect(answer.body).toBe('');
    expect(answer.headers['content-type']).toBeUndefined();
    expect(answer.headers['cache-control']).toEqual([{ key: 'Cache-Control', value: 'no-store' }]);
  });

  it.each([
    [500, 'Internal Server Error', 'the function failed'],
    [502, 'Internal Server Error', 'the function answered what API Gateway cannot read'],
    [503, 'Service Unavailable', 'Lambda throttled the function, or the integration timed out'],
    [504, 'Gateway Timeout', 'the gateway gave up'],
  ])('sends a form post that API Gateway answered %i (%s: %s) on to the failure page', async (status, message) => {
    const answer = await handler(originResponse(formPost, gateway(status, `{"message":"${message}"}`)));
    expect(answer.status).toBe('303');
    expect(answer.headers.location).toEqual([{ key: 'Location', value: FORM_RESULT_PAGES.failed }]);
  });

  it('knows a form post by its media type whatever the charset and case', async () => {
    const post = { ...formPost, contentType: 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' };
    expect((await handler(originResponse(post, gateway(429, '{"message":"Too Many Requests"}')))).status).toBe('303');
  });

  it('passes on the function’s own answers to a form post: its page again (with Retry-After), and its redirects', async () => {
    const page = { status: 429, headers: { ...header('Content-Type', 'text/html; charset=utf-8'), ...header('Retry-After', '420') } };
    const own = await handler(originResponse(formPost, structuredClone(page)));
    expect(own.status).toBe('429');
    expect(own.headers['retry-after']).toEqual([{ key: 'Retry-After', value: '420' }]);
    expect(own.body).toBeUndefined();
    const failed = await handler(originResponse(formPost, { status: 503, headers: header('Content-Type', 'text/html; charset=utf-8') }));
    expect(failed.status).toBe('503');
    const sent = await handler(originResponse(formPost, { status: 303, headers: header('Location', FORM_RESULT_PAGES.sent) }));
    expect(sent).toMatchObject({ status: '303', headers: { location: [{ value: FORM_RESULT_PAGES.sent }] } });
    expect(sent.body).toBeUndefined();
  });

  it('passes on every answer to the page’s script and to other requests: they read the JSON themselves', async () => {
    const json = { method: 'POST', uri: API_PATH, contentType: 'application/json' };
    const throttled = await handler(originResponse(json, gateway(429, '{"message":"Too Many Requests"}')));
    expect(throttled.status).toBe('429');
    expect(throttled.headers['content-type']).toEqual([{ key: 'Content-Type', value: 'application/json' }]);
    expect(throttled.body).toBeUndefined();
    const challenge = await handler(
      originResponse({ method: 'GET', uri: CHALLENGE_PATH }, gateway(503, '{"message":"Service Unavailable"}')),
    );
    expect(challenge.status).toBe('503');
    const notFound = await handler(originResponse(formPost, gateway(404, '{"message":"Not Found"}')));
    expect(notFound.status).toBe('404');
  });
});

describe('its role', () => {
  const logGroup = (region: string, name = FUNCTION_NAME) => `arn:aws:logs:${region}:${ACCOUNT}:log-group:/aws/lambda/us-east-1.${name}`;
  let policy: object;
  beforeAll(() => {
    const policyResource = only(edge, 'AWS::IAM::Policy').resource;
    const resolve = (value: any): any =>
      typeof value === 'string'
        ? value
        : value['Fn::Join']
          ? value['Fn::Join'][1].map(resolve).join(value['Fn::Join'][0])
          : ({ 'AWS::Partition': 'aws', 'AWS::AccountId': ACCOUNT } as Record<string, string>)[value.Ref]!;
    const statements = policyResource.Properties.PolicyDocument.Statement.map((st: any) => ({
      ...st,
      Resource: [st.Resource].flat().map(resolve),
    }));
    policy = { Version: '2012-10-17', Statement: statements };
  });

  async function may(action: string, resource: string): Promise<string> {
    const response = await runSimulation(
      {
        identityPolicies: [{ name: 'edge', policy }],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        request: {
          action,
          principal: `arn:aws:iam::${ACCOUNT}:role/edge`,
          resource: { resource, accountId: ACCOUNT },
          contextVariables: {},
        },
      },
      {},
    );
    if (response.resultType === 'error') throw new Error(response.errors.message);
    return response.overallResult;
  }

  it('may write its own logs in whichever region a replica runs', async () => {
    for (const region of ['us-east-1', 'eu-central-1', 'ap-southeast-2']) {
      expect(await may('logs:CreateLogGroup', logGroup(region)), region).toBe('Allowed');
      expect(await may('logs:CreateLogStream', `${logGroup(region)}:log-stream:2026/11/28/[1]abc`), region).toBe('Allowed');
      expect(await may('logs:PutLogEvents', `${logGroup(region)}:log-stream:2026/11/28/[1]abc`), region).toBe('Allowed');
    }
  });

  it('may not write another function’s logs, delete or read logs, or do anything else', async () => {
    expect(await may('logs:PutLogEvents', `${logGroup('eu-west-1', 'consultancy-site-test-send-contact-email')}:log-stream:x`)).not.toBe(
      'Allowed',
    );
    expect(await may('logs:DeleteLogGroup', logGroup('eu-west-1'))).not.toBe('Allowed');
    expect(await may('logs:GetLogEvents', `${logGroup('eu-west-1')}:log-stream:x`)).not.toBe('Allowed');
    expect(await may('dynamodb:PutItem', `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/x`)).not.toBe('Allowed');
    expect(await may('ses:SendEmail', `arn:aws:ses:eu-west-1:${ACCOUNT}:identity/x`)).not.toBe('Allowed');
  });
});
