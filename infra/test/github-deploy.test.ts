/**
 * The account's GitHub deploy stack (lib/github-deploy-stack.ts), synthesized as its own app
 * (bin/github-deploy.ts) synthesizes it: the template, cdk-nag, the settings' mistakes, and an
 * IAM policy simulator deciding which GitHub tokens may assume the role (its trust policy) and
 * what the role may do then (its policy).
 *
 * The trust is decided with the simulator's unchecked run: the service reference it checks
 * request context against lists no `token.actions.githubusercontent.com:*` keys for
 * AssumeRoleWithWebIdentity, so the checked run would drop the token's sub and aud and refuse
 * every request. The trust policy is validated as a trust policy first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { createValidatedPolicy, validateTrustPolicy } from '@cloud-copilot/iam-policy';
import { runSimulation, runUnsafeSimulation } from '@cloud-copilot/iam-simulate';
import { ConfigError, githubDeployConfigFrom, loadConfig } from '@site/core/node/deploy-config';
import { GITHUB_DEPLOY_STACK_NAME } from '@site/core/names';
import { buildGithubDeployApp } from '../lib/github-deploy-app';
import { CDK_JSON_CONTEXT, expectNoFindings, only, synthGithubDeploy, TEST_ADDRESSES, type SynthesizedGithubDeploy } from './synth';

const REPOSITORY = 'streepjevoorfinance/website';
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const ISSUER = 'token.actions.githubusercontent.com';
const PROVIDER = `arn:aws:iam::${ACCOUNT}:oidc-provider/${ISSUER}`;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/consultancy-site-github-deploy-DeployRole`;
const KINDS = ['deploy', 'file-publishing', 'image-publishing', 'lookup'];

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The template's intrinsics as they resolve in the test account; the provider's Ref is its ARN. */
function resolver(template: Template) {
  const resources = template.toJSON().Resources as Record<string, { Type: string }>;
  const resolve = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    if ('Ref' in value) {
      const ref = value.Ref as string;
      if (ref === 'AWS::AccountId') return ACCOUNT;
      if (ref === 'AWS::Partition') return 'aws';
      if (resources[ref]?.Type === 'AWS::IAM::OIDCProvider') return PROVIDER;
      throw new Error(`Unresolved Ref ${ref}`);
    }
    if ('Fn::Join' in value) {
      const [separator, parts] = value['Fn::Join'] as [string, Json[]];
      return parts.map((part) => resolve(part) as string).join(separator);
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
  };
  return resolve;
}

function trustPolicy(synthesized: SynthesizedGithubDeploy): Json {
  const { resource } = only(synthesized.template, 'AWS::IAM::Role');
  return resolver(synthesized.template)(resource.Properties.AssumeRolePolicyDocument);
}

function rolePolicy(synthesized: SynthesizedGithubDeploy): Json {
  const { resource } = only(synthesized.template, 'AWS::IAM::Policy');
  return resolver(synthesized.template)(resource.Properties.PolicyDocument);
}

const bootstrapRole = (kind: string, region: string, { account = ACCOUNT, qualifier = 'hnb659fds' } = {}) =>
  `arn:aws:iam::${account}:role/cdk-${qualifier}-${kind}-role-${account}-${region}`;

let synthesized: SynthesizedGithubDeploy;

beforeAll(() => {
  synthesized = synthGithubDeploy({ githubRepository: REPOSITORY });
});

describe('the GitHub deploy stack', () => {
  it('is named once per account and lives in the stages’ region', () => {
    expect(synthesized.stack.stackName).toBe(GITHUB_DEPLOY_STACK_NAME);
    expect(synthesized.stack.region).toBe(REGION);
  });

  it("makes GitHub's OIDC provider for STS, without thumbprints (IAM trusts GitHub's certificate authority itself)", () => {
    synthesized.template.resourceCountIs('AWS::IAM::OIDCProvider', 1);
    const { resource } = only(synthesized.template, 'AWS::IAM::OIDCProvider');
    expect(resource.Properties).toEqual({ Url: `https://${ISSUER}`, ClientIdList: ['sts.amazonaws.com'] });
  });

  it("trusts a token from that provider for STS whose subject is a job in one of the repository's environments, nothing else", () => {
    expect(trustPolicy(synthesized)).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Federated: PROVIDER },
          Action: 'sts:AssumeRoleWithWebIdentity',
          Condition: {
            StringEquals: {
              [`${ISSUER}:aud`]: 'sts.amazonaws.com',
              [`${ISSUER}:sub`]: [`repo:${REPOSITORY}:environment:test`, `repo:${REPOSITORY}:environment:prod`],
            },
          },
        },
      ],
    });
  });

  it('lets the role assume the four CDK bootstrap roles of the account in the stages’ region and us-east-1, and nothing else', () => {
    expect(rolePolicy(synthesized)).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'AssumeTheCdkBootstrapRoles',
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: expect.arrayContaining(KINDS.flatMap((kind) => [bootstrapRole(kind, REGION), bootstrapRole(kind, 'us-east-1')])),
        },
      ],
    });
    expect((rolePolicy(synthesized) as any).Statement[0].Resource).toHaveLength(8);
    const role = only(synthesized.template, 'AWS::IAM::Role').resource.Properties;
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies).toBeUndefined();
    // Long enough for a first deploy that waits on a certificate and a new distribution.
    expect(role.MaxSessionDuration).toBe(7200);
  });

  it('outputs the role’s ARN, what the workflow’s AWS_DEPLOY_ROLE_ARN names', () => {
    const roleId = only(synthesized.template, 'AWS::IAM::Role').id;
    synthesized.template.hasOutput('DeployRoleArn', { Value: { 'Fn::GetAtt': [roleId, 'Arn'] } });
  });

  it('has no cdk-nag finding and no acknowledged one', () => {
    expectNoFindings(synthesized.app, [synthesized.stack]);
    expect(JSON.stringify(synthesized.template.toJSON())).not.toContain('cdk_nag');
  });

  it("takes the account's existing provider by its ARN and makes none", () => {
    const existing = synthGithubDeploy({ githubRepository: REPOSITORY, githubOidcProviderArn: PROVIDER });
    existing.template.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    expect(trustPolicy(existing)).toMatchObject({ Statement: [{ Principal: { Federated: PROVIDER } }] });
    expectNoFindings(existing.app, [existing.stack]);
  });

  it('trusts only the environments githubEnvironments names, and names the bootstrap roles of us-east-1 once when the stages live there', () => {
    const prodOnly = synthGithubDeploy({ githubRepository: REPOSITORY, githubEnvironments: ['prod'], region: 'us-east-1' });
    expect(trustPolicy(prodOnly)).toMatchObject({
      Statement: [{ Condition: { StringEquals: { [`${ISSUER}:sub`]: [`repo:${REPOSITORY}:environment:prod`] } } }],
    });
    const resources = (rolePolicy(prodOnly) as any).Statement[0].Resource as string[];
    expect(resources.sort()).toEqual(KINDS.map((kind) => bootstrapRole(kind, 'us-east-1')).sort());
  });

  it('names the bootstrap roles by the qualifier the CDK bootstraps with', () => {
    const qualified = synthGithubDeploy({ githubRepository: REPOSITORY, '@aws-cdk/core:bootstrapQualifier': 'firm2024' });
    const resources = (rolePolicy(qualified) as any).Statement[0].Resource as string[];
    expect(resources).toContain(bootstrapRole('deploy', REGION, { qualifier: 'firm2024' }));
    expect(resources.join('\n')).not.toContain('hnb659fds');
  });
});

describe('its settings', () => {
  const problems = (context: Record<string, unknown>, read: (context: Record<string, unknown>) => unknown = githubDeployConfigFrom) => {
    try {
      read({ ...CDK_JSON_CONTEXT, ...context });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('make no stack without githubRepository, and say how to set it', () => {
    expect(problems({})).toEqual([
      'githubRepository: required for the GitHub deploy stack (the repository whose workflows may deploy, as owner/name); set it with -c githubRepository=<owner>/<name> or as "githubRepository" in the "context" of cdk.json.',
    ]);
    expect(() => buildGithubDeployApp(new App({ context: { ...CDK_JSON_CONTEXT } }))).toThrow(ConfigError);
  });

  it('need none of the stage’s addresses, and take -c values as the CLI passes them', () => {
    expect(githubDeployConfigFrom({ ...CDK_JSON_CONTEXT, githubRepository: REPOSITORY, githubEnvironments: '["prod"]' })).toEqual({
      region: REGION,
      githubRepository: REPOSITORY,
      githubEnvironments: ['prod'],
      githubOidcProviderArn: undefined,
    });
  });

  it('refuse a repository that is not owner/name, environments that are no stage names, and another issuer’s provider', () => {
    expect(
      problems({
        githubRepository: 'https://github.com/streepjevoorfinance/website',
        githubEnvironments: ['prod', 'Production*'],
        githubOidcProviderArn: `arn:aws:iam::${ACCOUNT}:oidc-provider/gitlab.com`,
      }),
    ).toEqual([
      'githubRepository: "https://github.com/streepjevoorfinance/website" is not a GitHub repository as owner/name, such as firm-name/website, spelled as GitHub spells it.',
      'githubEnvironments.1: "Production*" is not an environment name: the stage it deploys, so lower-case letters, digits and dashes, starting with a letter, at most 16 characters.',
      `githubOidcProviderArn: "arn:aws:iam::${ACCOUNT}:oidc-provider/gitlab.com" is not the ARN of the account's GitHub OIDC provider, arn:aws:iam::<account>:oidc-provider/token.actions.githubusercontent.com.`,
    ]);
    expect(problems({ githubRepository: 'streepjevoorfinance/..' })).toHaveLength(1);
    expect(problems({ githubRepository: '-firm/website' })).toHaveLength(1);
  });

  it('refuse an empty list of environments, one named twice, and a single name for a list', () => {
    expect(problems({ githubRepository: REPOSITORY, githubEnvironments: [] })).toEqual([
      'githubEnvironments: is empty: the deploy role would trust no workflow; name at least one environment, such as ["prod"].',
    ]);
    expect(problems({ githubRepository: REPOSITORY, githubEnvironments: ['prod', 'prod'] })).toEqual([
      'githubEnvironments: ["prod","prod"] names an environment twice.',
    ]);
    expect(problems({ githubRepository: REPOSITORY, githubEnvironments: 'prod' })).toEqual([
      'githubEnvironments: "prod" is not a list of GitHub environment names such as ["test", "prod"].',
    ]);
  });

  it('refuse a misspelt key, which would otherwise leave the role trusting the default environments', () => {
    expect(problems({ githubRepository: REPOSITORY, githubEnviroments: ['prod'] })).toEqual([
      expect.stringMatching(/^githubEnviroments: unknown key\. Known keys: .*githubEnvironments/),
    ]);
  });

  it('are known to the stages’ app, which refuses a provider without a repository', () => {
    const stage = { stage: 'test', ...TEST_ADDRESSES };
    expect(loadConfig({ ...stage, githubRepository: REPOSITORY, githubEnvironments: ['prod'] })).toMatchObject({
      githubRepository: REPOSITORY,
      githubEnvironments: ['prod'],
    });
    expect(problems({ ...stage, githubOidcProviderArn: PROVIDER }, loadConfig)).toEqual([
      'githubOidcProviderArn: only applies with githubRepository, the repository whose workflows may deploy.',
    ]);
  });
});

describe('who may assume the role, decided by an IAM policy simulator', () => {
  function decide(claims: { sub?: string; aud?: string }, { principal = PROVIDER, action = 'sts:AssumeRoleWithWebIdentity' } = {}) {
    const trust = createValidatedPolicy(trustPolicy(synthesized), validateTrustPolicy, { name: 'trust' });
    expect(trust.errors).toEqual([]);
    return runUnsafeSimulation(
      {
        identityPolicies: [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        resourcePolicy: trust,
        request: {
          action,
          principal,
          resource: { resource: ROLE, accountId: ACCOUNT },
          contextVariables: {
            ...(claims.sub !== undefined && { [`${ISSUER}:sub`]: claims.sub }),
            ...(claims.aud !== undefined && { [`${ISSUER}:aud`]: claims.aud }),
          },
        },
      },
      {},
    );
  }
  const STS = 'sts.amazonaws.com';

  it('allows a job in each configured environment of the repository', () => {
    expect(decide({ sub: `repo:${REPOSITORY}:environment:test`, aud: STS })).toBe('Allowed');
    expect(decide({ sub: `repo:${REPOSITORY}:environment:prod`, aud: STS })).toBe('Allowed');
  });

  it.each([
    ['another repository', 'streepjevoorfinance/other:environment:prod'],
    ['a fork, under its owner', 'someone-else/website:environment:prod'],
    ['the repository spelt in another case', 'StreepjeVoorFinance/website:environment:prod'],
    ['a branch outside any environment', `${REPOSITORY}:ref:refs/heads/main`],
    ['another branch', `${REPOSITORY}:ref:refs/heads/feature`],
    ['a tag', `${REPOSITORY}:ref:refs/tags/prod-20261201-120000`],
    ['a pull request, also from a fork', `${REPOSITORY}:pull_request`],
    ['an environment it was not given', `${REPOSITORY}:environment:drill`],
    ['a prefix of a configured subject', `${REPOSITORY}:environment:prod-copy`],
  ])('refuses %s', (_, subject) => {
    expect(decide({ sub: `repo:${subject}`, aud: STS })).toBe('ImplicitlyDenied');
  });

  it('refuses a token for another audience, one without an audience, and one without a subject', () => {
    expect(decide({ sub: `repo:${REPOSITORY}:environment:prod`, aud: 'https://github.com/streepjevoorfinance' })).toBe('ImplicitlyDenied');
    expect(decide({ sub: `repo:${REPOSITORY}:environment:prod` })).toBe('ImplicitlyDenied');
    expect(decide({ aud: STS })).toBe('ImplicitlyDenied');
  });

  it('refuses a token of another provider, and any other way in', () => {
    const claims = { sub: `repo:${REPOSITORY}:environment:prod`, aud: STS };
    expect(decide(claims, { principal: `arn:aws:iam::${ACCOUNT}:oidc-provider/gitlab.com` })).toBe('ImplicitlyDenied');
    expect(decide(claims, { action: 'sts:AssumeRole', principal: `arn:aws:iam::${ACCOUNT}:root` })).toBe('ImplicitlyDenied');
  });
});

describe('what the role may do, decided by an IAM policy simulator', () => {
  async function decide(action: string, resource: string, accountId = ACCOUNT) {
    const response = await runSimulation(
      {
        identityPolicies: [{ name: 'deploy', policy: rolePolicy(synthesized) }],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        request: { action, principal: ROLE, resource: { resource, accountId }, contextVariables: {} },
      },
      {},
    );
    if (response.resultType === 'error') throw new Error(`${action}: ${response.errors.message}`);
    return response.overallResult;
  }

  it('may assume each bootstrap role the CDK CLI uses, in both regions', async () => {
    for (const region of [REGION, 'us-east-1']) {
      for (const kind of KINDS) expect(await decide('sts:AssumeRole', bootstrapRole(kind, region)), `${kind} ${region}`).toBe('Allowed');
    }
  });

  it("may not assume CloudFormation's execution role, another region's or another account's bootstrap roles, or any other role", async () => {
    for (const role of [
      bootstrapRole('cfn-exec', REGION),
      bootstrapRole('deploy', 'eu-central-1'),
      bootstrapRole('deploy', REGION, { qualifier: 'other1234' }),
      `arn:aws:iam::${ACCOUNT}:role/OrganizationAccountAccessRole`,
    ]) {
      expect(await decide('sts:AssumeRole', role), role).toBe('ImplicitlyDenied');
    }
    const elsewhere = bootstrapRole('deploy', REGION, { account: '210987654321' });
    expect(await decide('sts:AssumeRole', elsewhere, '210987654321')).toBe('ImplicitlyDenied');
  });

  it('may do nothing itself: no tagging or passing a role, no stack, bucket, table or secret', async () => {
    for (const [action, resource] of [
      ['sts:TagSession', bootstrapRole('deploy', REGION)],
      ['iam:PassRole', bootstrapRole('cfn-exec', REGION)],
      [
        'cloudformation:CreateChangeSet',
        `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/consultancy-site-prod/0f1e2d3c-aaaa-bbbb-cccc-123456789012`,
      ],
      [
        'cloudformation:DescribeStacks',
        `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/consultancy-site-prod/0f1e2d3c-aaaa-bbbb-cccc-123456789012`,
      ],
      ['s3:PutObject', `arn:aws:s3:::cdk-hnb659fds-assets-${ACCOUNT}-${REGION}/asset.zip`],
      ['dynamodb:Query', `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/consultancy-site-prod-MessagesEXAMPLE/index/byStatus`],
      ['secretsmanager:GetSecretValue', `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:consultancy-site-prod-origin-AbCdEf`],
    ] as const) {
      expect(await decide(action, resource), `${action} ${resource}`).toBe('ImplicitlyDenied');
    }
  });

  it('names every role it may assume by its whole ARN, with no wildcard', () => {
    expect(JSON.stringify(rolePolicy(synthesized))).not.toContain('*');
  });
});
