/**
 * Who may invoke the contact function, decided by an IAM policy simulator over the function's
 * synthesized resource policy (its AWS::Lambda::Permission resources, as Lambda turns them into
 * statements): API Gateway, for this API's two paths only, in any stage and method (the routes
 * themselves pick the method).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { API_PATH, CHALLENGE_PATH } from '@site/core/contract';
import { loadConfig } from '@site/core/node/deploy-config';
import { CDK_JSON_CONTEXT, only, synth, TEST_ADDRESSES } from './synth';

const ACCOUNT = '123456789012';
const { region: REGION } = loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES });
const API_ID = 'a1b2c3d4e5';
const FUNCTION_ARN = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:consultancy-site-test-send-contact-email`;
/** A request's ARN as API Gateway names it when it invokes: api/stage/method/path. */
const executeApi = (path: string, method = 'GET', apiId = API_ID) =>
  `arn:aws:execute-api:${REGION}:${ACCOUNT}:${apiId}/$default/${method}${path}`;

let resourcePolicy: object;

beforeAll(() => {
  const s = synth();
  const resources = s.template.toJSON().Resources as Record<string, any>;
  const fnId = only(s.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-send-contact-email' }).id;
  const apiId = only(s.template, 'AWS::ApiGatewayV2::Api').id;
  const resolve = (value: any): any => {
    if (typeof value === 'string') return value;
    if (value.Ref === apiId) return API_ID;
    if (value.Ref === 'AWS::Region') return REGION;
    if (value.Ref === 'AWS::AccountId') return ACCOUNT;
    if (value.Ref === 'AWS::Partition') return 'aws';
    if (value['Fn::Join']) return value['Fn::Join'][1].map(resolve).join(value['Fn::Join'][0]);
    throw new Error(`Cannot resolve ${JSON.stringify(value)}`);
  };
  const statements = Object.values(resources)
    .filter((r) => r.Type === 'AWS::Lambda::Permission' && r.Properties.FunctionName['Fn::GetAtt']?.[0] === fnId)
    .map(({ Properties: p }) => ({
      Effect: 'Allow',
      Principal: { Service: p.Principal },
      Action: p.Action,
      Resource: FUNCTION_ARN,
      ...(p.SourceArn && { Condition: { ArnLike: { 'AWS:SourceArn': resolve(p.SourceArn) } } }),
    }));
  expect(statements.length).toBeGreaterThan(0);
  resourcePolicy = { Version: '2012-10-17', Statement: statements };
});

async function mayInvoke(sourceArn: string, principal = 'apigateway.amazonaws.com'): Promise<string> {
  const response = await runSimulation(
    {
      identityPolicies: [],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      resourcePolicy,
      request: {
        action: 'lambda:InvokeFunction',
        principal,
        resource: { resource: FUNCTION_ARN, accountId: ACCOUNT },
        contextVariables: { 'aws:SourceArn': sourceArn, 'aws:SourceAccount': ACCOUNT },
      },
    },
    {},
  );
  if (response.resultType === 'error') throw new Error(response.errors.message);
  return response.overallResult;
}

describe('the contact function may be invoked', () => {
  it('by this API for a GET of the challenge and any method of the contact path', async () => {
    expect(await mayInvoke(executeApi(CHALLENGE_PATH))).toBe('Allowed');
    expect(await mayInvoke(executeApi(API_PATH, 'POST'))).toBe('Allowed');
  });

  it('not by this API for another path, not by another API, and not by another service', async () => {
    expect(await mayInvoke(executeApi('/api/other'))).not.toBe('Allowed');
    expect(await mayInvoke(executeApi(CHALLENGE_PATH, 'GET', 'zz9zz9zz9z'))).not.toBe('Allowed');
    expect(await mayInvoke(executeApi(CHALLENGE_PATH), 'events.amazonaws.com')).not.toBe('Allowed');
  });
});
