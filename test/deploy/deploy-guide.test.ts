/**
 * The first-deploy guide (docs/first-deploy.md), run as written: its marked commands, in order,
 * with the real CDK CLI (`npx cdk`, aws-cdk 2.x) against moto's AWS API server on this machine,
 * by an operator who put the guide's configuration into cdk.json and answers the CLI's questions `y`.
 * Between deploy and destroy it checks what moto really provisions, and runs the deployed
 * contact-function package, taken from the staging bucket, in Node.js with its deployed
 * environment.
 *
 * What moto cannot show, and what the test does about it:
 * - moto's CloudFormation skips CloudFront (moto-as-aws/sitecustomize.py answers only a
 *   distribution's domain name, which the outside check's address reads), API Gateway v2,
 *   Secrets Manager, CloudWatch alarms and metric filters, SNS topic policies and subscriptions, S3 bucket policies, WAF,
 *   ACM and SES identities: their stacks still complete, so the test asserts on the rest. It
 *   creates the dashboard, but knows no saved Logs Insights query (QueryDefinition), whose id
 *   the dashboard reads: moto-as-aws/sitecustomize.py answers one, and the test reads the
 *   dashboard back.
 * - It runs no Lambda code (that needs Docker). It marks a custom resource CREATE_COMPLETE
 *   without invoking it when the stack is created through a change set, as the CLI does, so
 *   the site upload (three Custom::CDKBucketDeployment) never copies the build into the
 *   bucket: unproven here. Cross-region references (certificate, WAF) are Fn::GetStackOutput,
 *   not custom resources, and are read only by the distribution moto does not make.
 * - Outputs whose value names a resource moto skips (ApiUrl, the secret's ARN) are
 *   left out; TableName is there (moto-as-aws/sitecustomize.py builds a change set's outputs).
 * - It resolves no dynamic reference: the contact function's ORIGIN_VERIFY arrives as the
 *   literal {{resolve:secretsmanager:…}}. The test checks that it is that reference (never a
 *   secret in the template) and, running the package, puts a generated value in its place, as
 *   CloudFormation puts the secret's.
 * - It ignores a table's TimeToLiveSpecification and point-in-time recovery, Lambda's
 *   Architectures (it reports x86_64), RetainExceptOnCreate (destroy deletes the table and
 *   buckets a real destroy keeps), and DescribeKey fails (500) on a key CloudFormation made:
 *   none of these is asserted here (npm run test:infra asserts them on the templates).
 * - Updating a stack works only with the moto answers moto-as-aws/sitecustomize.py corrects;
 *   this guide is one first deploy, then destroy (on-call.test.ts updates, rolls back, restores).
 * - `npm run smoke` cannot run: it needs CloudFront and the HTTP API (see NOT_AGAINST_MOTO).
 * - Its CloudFormation does not know AWS::IAM::OIDCProvider: moto-as-aws/sitecustomize.py hands
 *   it to moto's IAM, which keeps it. moto's STS checks no trust policy, so that only the
 *   repository's environments may assume the GitHub deploy role is proven with an IAM policy
 *   simulator (infra/test/github-deploy.test.ts); here, that the deployed trust and policy are
 *   the synthesized ones and name the roles the bootstrap made.
 *
 * The operator's checkout (operator.ts) shares this repository's sources and frontend/dist;
 * only cdk.json and cdk.out are its own.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurationSetName, GITHUB_DEPLOY_STACK_NAME, type FunctionName } from '@site/core/names';
import { rolesFor, type NamedPolicy } from '@site/core/node/deployed-roles';
import { MESSAGE_TABLE } from '@site/core/table';
import { deployedRoles } from '@site/infra/deployed-roles';
import { CLOUDFRONT_LOG_FIELDS } from '@site/infra/cloudfront-access-log';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { awsCli, checkAwsCli, isolatedEnvironment, type AwsCli } from './aws-cli';
import { contactRequest, invoke, invokeWith, unpackDeployedFunction, type DeployedFunction } from './deployed-function';
import { rolePolicies, stackResources, stackStatus, stagingBucket, type DeployedResource } from './deployed';
import { guideText, readGuide, ROOT } from './guide';
import { guideRunner, type GuideRunner, type NotAgainstMoto } from './guide-runner';
import { START_SECONDS, startMoto, type Moto } from './moto';
import { checkTerminal, operatorCheckout, type Checkout } from './operator';
import { unzip } from './zip';

/** The guide's commands moto cannot serve, and why; the test runs every other command of the guide. */
export const NOT_AGAINST_MOTO: NotAgainstMoto[] = [
  {
    command: /^npm run smoke\b/,
    reason: 'the smoke check requests the site through CloudFront and the API through API Gateway; moto provisions neither',
  },
];

/** The guide's sample addresses are at example.nl, which the synth refuses; the operator puts the firm's domain there. */
const SAMPLE_DOMAIN = 'example.nl';
/** Stands in for the firm's domain: the synth accepts it, and moto sends mail nowhere. */
const FIRM_DOMAIN = 'moto-deploy-test.nl';
/** How long one command of the guide may take; each synthesizes the app and bundles both functions. */
const COMMAND_TIMEOUT_MS = 180_000;

const GUIDE = 'docs/first-deploy.md';
const guide = readGuide(guideText('first-deploy.md'), 'deploy', GUIDE);
/** The keys as the operator types them into cdk.json: the guide's, with the firm's domain for the samples. */
const withFirmDomain = (keys: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(keys).replaceAll(`@${SAMPLE_DOMAIN}"`, `@${FIRM_DOMAIN}"`));
/** Everything the guide configures, for the assertions; the checkout gets each part when the guide gets to it. */
const context: Record<string, unknown> = Object.assign(
  {},
  ...guide.steps.flatMap((step) => ('context' in step ? [withFirmDomain(step.context)] : [])),
);
const nodeMajor = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();

let moto: Moto | undefined;
let checkout: Checkout | undefined;
let env: NodeJS.ProcessEnv;
let aws: AwsCli;
let account: string;
let operator: GuideRunner;

interface SynthesizedStack {
  name: string;
  region: string;
  template: { Resources: Record<string, { Type: string; Properties?: any }> };
}

/** The stacks of the app as the last synth in the checkout wrote them (cdk.out/manifest.json). */
function synthesizedStacks(): SynthesizedStack[] {
  const assembly = join(checkout!.dir, 'cdk.out');
  const manifest = JSON.parse(readFileSync(join(assembly, 'manifest.json'), 'utf8'));
  return Object.entries<any>(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([id, artifact]) => ({
      name: artifact.properties.stackName ?? id,
      region: /^aws:\/\/[^/]+\/(.+)$/.exec(artifact.environment)![1]!,
      template: JSON.parse(readFileSync(join(assembly, artifact.properties.templateFile), 'utf8')),
    }));
}

/** What the deploy made of the site stack, found once after the deploy. */
interface Site {
  stack: SynthesizedStack;
  resources: DeployedResource[];
  table: { name: string; arn: string };
  contactFunction: DeployedResource;
  retryFunction: DeployedResource;
  consumerFunction: DeployedResource;
  checkFunction: DeployedResource;
  /** Lambda's GetFunctionConfiguration of each, as deployed. */
  configuration: { contact: any; retry: any; consumer: any; check: any };
}
let site: Site | undefined;

/** Where the guide's GitHub deploy stack went, and the role's ARN it printed. */
let github: { region: string; roleArn: string } | undefined;

function deployedGithub(): { region: string; roleArn: string } {
  if (!github) throw new Error('The guide did not get as far as the GitHub deploy stack.');
  return github;
}

function deployedSite(): Site {
  if (!site) throw new Error('The deploy step did not get as far as the site stack.');
  return site;
}

/** Every deployed function unpacked, whose IAM gates close after the tests. */
const unpacked: DeployedFunction[] = [];

/** A deployed function's package, unpacked to run with its environment and its role, against moto through IAM. */
async function unpack(name: FunctionName, resource: DeployedResource, configuration: any): Promise<DeployedFunction> {
  const { stack, table } = deployedSite();
  const stage = String(checkout!.context().stage);
  const fn = await unpackDeployedFunction({
    aws,
    name,
    region: stack.region,
    account,
    s3Key: stack.template.Resources[resource.logicalId]!.Properties.Code.S3Key,
    configuration,
    scratch: join(checkout!.scratch, name),
    endpoint: moto!.endpoint,
    names: { table: table.name, senderAddress: String(context.senderAddress), configurationSet: configurationSetName(stage) },
  });
  unpacked.push(fn);
  return fn;
}

function only(resources: DeployedResource[], type: string, physicalId: RegExp = /./): DeployedResource {
  const matching = resources.filter((resource) => resource.type === type && physicalId.test(resource.physicalId ?? ''));
  expect(
    matching.map((resource) => resource.logicalId),
    `one ${type} ${physicalId}`,
  ).toHaveLength(1);
  return matching[0]!;
}

/** Every statement of these policies as `effect action resource [condition]`, sorted: how an auditor reads them. */
function grantsOf(policies: NamedPolicy[]): string[] {
  const grants: string[] = [];
  for (const { policy } of policies) {
    for (const statement of policy.Statement) {
      const condition = statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : '';
      for (const action of [statement.Action].flat()) {
        for (const resource of [statement.Resource].flat()) grants.push(`${statement.Effect} ${action} ${resource}${condition}`);
      }
    }
  }
  return grants.sort();
}

beforeAll(
  async () => {
    // moto first: it is what a machine without the test's tools most likely lacks. A failure
    // here fails the run with that one line (how to install it); no test runs without moto.
    moto = await startMoto();
    checkAwsCli();
    checkTerminal();
    checkout = operatorCheckout(ROOT);
    env = isolatedEnvironment(moto.endpoint, checkout.scratch);
    aws = awsCli(env);
    // What the guide has the operator ask for <account-id>.
    account = (await aws('eu-west-1', 'sts', 'get-caller-identity')).Account;
    operator = guideRunner(guide, GUIDE, {
      cwd: checkout.dir,
      env,
      notAgainstMoto: NOT_AGAINST_MOTO,
      timeoutMs: COMMAND_TIMEOUT_MS,
      configure: (keys) => checkout!.configure(withFirmDomain(keys)),
    });
  },
  (START_SECONDS + 60) * 1000,
);

afterAll(async () => {
  await Promise.all(unpacked.map((fn) => fn.close()));
  await moto?.stop();
  checkout?.remove();
});

describe('the first-deploy guide, run as written against moto', () => {
  it('has the operator configure the stage and build the site before the first command that synthesizes the app', () => {
    // Every cdk command synthesizes, bootstrap included: without the addresses it stops with
    // ConfigError, without frontend/dist with "No built site". The checkout shares the
    // repository's frontend/dist, so a build from before the run would hide a missing
    // `npm run build`: the order is checked here, on the guide itself.
    const firstCdk = guide.steps.findIndex((step) => 'command' in step && step.command.startsWith('npx cdk '));
    const before = guide.steps.slice(0, firstCdk);
    expect(firstCdk).toBeGreaterThan(0);
    expect(before).toContainEqual({ command: 'npm run build' });
    const configured = Object.assign({}, ...before.flatMap((step) => ('context' in step ? [withFirmDomain(step.context)] : [])));
    expect(configured).toMatchObject({
      contactRecipient: expect.stringMatching(new RegExp(`@${FIRM_DOMAIN}$`)),
      senderAddress: expect.stringMatching(new RegExp(`@${FIRM_DOMAIN}$`)),
    });
    expect(JSON.stringify(context)).not.toContain(SAMPLE_DOMAIN);
  });

  it('bootstraps, after the configuration, every region the app deploys to and us-east-1', async () => {
    const run = await operator.through(/^npx cdk bootstrap\b/, { '<account-id>': account });
    const bootstrapped = [...run.command.matchAll(/aws:\/\/(\d{12})\/([a-z0-9-]+)/g)].map(([, id, region]) => {
      expect(id).toBe(account);
      return region!;
    });
    // Bootstrap synthesized the app first: its manifest says where the stacks go.
    const regions = new Set(['us-east-1', ...synthesizedStacks().map((stack) => stack.region)]);
    expect(new Set(bootstrapped)).toEqual(regions);
    for (const region of regions) {
      expect(await stackStatus(aws, region, 'CDKToolkit'), region).toBe('CREATE_COMPLETE');
      await aws(region, 's3api', 'head-bucket', '--bucket', await stagingBucket(aws, region));
    }
  });

  it('builds, synthesizes, diffs and deploys --all, asking to approve the security changes of the API edge, site and edge-alarms stacks, and creates every stack', async () => {
    const run = await operator.through(/^npx cdk deploy\b/);
    expect(operator.ran.map((r) => r.command)).toEqual(
      expect.arrayContaining(['npm run build', expect.stringMatching(/^npx cdk synth\b/)]),
    );
    // Once per stack with security changes: the API edge function's role, the site stack's IAM statements, the edge alarms' key and topic policies.
    expect(run.prompts).toEqual([
      expect.stringContaining('Do you wish to deploy these changes'),
      expect.stringContaining('Do you wish to deploy these changes'),
      expect.stringContaining('Do you wish to deploy these changes'),
    ]);
    expect(run.output).toContain('IAM Statement Changes');

    const stacks = synthesizedStacks();
    // The stack names the guide's stack table gives, for the stage the checkout's cdk.json sets.
    const stage = String(checkout!.context().stage);
    expect(stacks.map((stack) => stack.name)).toEqual(
      expect.arrayContaining([
        `consultancy-site-${stage}`,
        `consultancy-site-${stage}-api-edge`,
        expect.stringMatching(/^consultancy-site-mail-/),
      ]),
    );
    const statuses = await Promise.all(stacks.map((stack) => stackStatus(aws, stack.region, stack.name)));
    expect(Object.fromEntries(stacks.map((stack, i) => [stack.name, statuses[i]]))).toEqual(
      Object.fromEntries(stacks.map((stack) => [stack.name, 'CREATE_COMPLETE'])),
    );

    const siteStack = stacks.find((stack) => Object.values(stack.template.Resources).some((r) => r.Type === 'AWS::DynamoDB::Table'))!;
    const resources = await stackResources(aws, siteStack.region, siteStack.name);
    const tableName = only(resources, 'AWS::DynamoDB::Table').physicalId;
    const { Table } = await aws(siteStack.region, 'dynamodb', 'describe-table', '--table-name', tableName);
    const contactFunction = only(resources, 'AWS::Lambda::Function', /-send-contact-email$/);
    const retryFunction = only(resources, 'AWS::Lambda::Function', /-retry-undelivered$/);
    const consumerFunction = only(resources, 'AWS::Lambda::Function', /-record-delivery-event$/);
    const checkFunction = only(resources, 'AWS::Lambda::Function', /-outside-check$/);
    const [contact, retry, consumer, check] = await Promise.all(
      [contactFunction, retryFunction, consumerFunction, checkFunction].map((fn) =>
        aws(siteStack.region, 'lambda', 'get-function-configuration', '--function-name', fn.physicalId),
      ),
    );
    site = {
      stack: siteStack,
      resources,
      table: { name: tableName, arn: Table.TableArn },
      contactFunction,
      retryFunction,
      consumerFunction,
      checkFunction,
      configuration: { contact, retry, consumer, check },
    };
  });

  it('made the message table with the keys and indexes the functions use, billed per request', async () => {
    const { stack, table } = deployedSite();
    const { Table } = await aws(stack.region, 'dynamodb', 'describe-table', '--table-name', table.name);
    const attributeType = (name: string) => Table.AttributeDefinitions.find((a: any) => a.AttributeName === name)?.AttributeType;
    expect(Table.KeySchema).toEqual([{ AttributeName: MESSAGE_TABLE.partitionKey.name, KeyType: 'HASH' }]);
    expect(attributeType(MESSAGE_TABLE.partitionKey.name)).toBe(MESSAGE_TABLE.partitionKey.type);
    const indexes = Object.fromEntries(Table.GlobalSecondaryIndexes.map((index: any) => [index.IndexName, index]));
    expect(Object.keys(indexes).sort()).toEqual(Object.keys(MESSAGE_TABLE.indexes).sort());
    for (const [name, { partitionKey, sortKey }] of Object.entries(MESSAGE_TABLE.indexes)) {
      expect(indexes[name].KeySchema, name).toEqual([
        { AttributeName: partitionKey.name, KeyType: 'HASH' },
        { AttributeName: sortKey.name, KeyType: 'RANGE' },
      ]);
      expect(indexes[name].Projection, name).toEqual({ ProjectionType: 'ALL' });
      expect([attributeType(partitionKey.name), attributeType(sortKey.name)], name).toEqual([partitionKey.type, sortKey.type]);
    }
    expect(Table.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it(`runs both functions on Node.js ${nodeMajor} with the deployed table and the configured addresses`, () => {
    const { table, configuration } = deployedSite();
    const { contact, retry } = configuration;
    // The default when the guide sets none; a number either way.
    const retention = JSON.stringify(context.retentionDays ?? 365);
    for (const fn of [contact, retry]) {
      expect(fn.Runtime, fn.FunctionName).toBe(`nodejs${nodeMajor}.x`);
      expect(fn.Environment.Variables, fn.FunctionName).toMatchObject({
        TABLE_NAME: table.name,
        MAIL_FROM: context.senderAddress,
        MAIL_TO: context.contactRecipient,
        RETENTION_DAYS: retention,
        SES_CONFIGURATION_SET: `consultancy-site-${String(checkout!.context().stage)}`,
      });
    }
    // A dynamic reference CloudFormation resolves at deploy time: the secret itself is in no template.
    // The retry job has it too: the digest's link to the page of held messages is signed with a key derived from it (0048).
    for (const fn of [contact, retry]) {
      expect(fn.Environment.Variables.ORIGIN_VERIFY, fn.FunctionName).toMatch(/^\{\{resolve:secretsmanager:.+:SecretString:::\}\}$/);
    }
  });

  it('made the API edge function in us-east-1 as Lambda@Edge takes one: a published version, x86_64, no environment, a role CloudFront may assume', async () => {
    const stage = String(checkout!.context().stage);
    const name = `consultancy-site-${stage}-api-origin-response`;
    const edge = await aws('us-east-1', 'lambda', 'get-function-configuration', '--function-name', name);
    expect(edge.Runtime).toBe('nodejs22.x');
    expect(edge.Architectures ?? ['x86_64']).toEqual(['x86_64']);
    expect(edge.Environment?.Variables ?? {}).toEqual({});
    const { Versions } = await aws('us-east-1', 'lambda', 'list-versions-by-function', '--function-name', name);
    expect(Versions.map((version: { Version: string }) => version.Version)).toContain('1');
    const roleName = String(edge.Role).split('/').at(-1)!;
    const { Role } = await aws('us-east-1', 'iam', 'get-role', '--role-name', roleName);
    const trust =
      typeof Role.AssumeRolePolicyDocument === 'string'
        ? JSON.parse(decodeURIComponent(Role.AssumeRolePolicyDocument))
        : Role.AssumeRolePolicyDocument;
    const principals = trust.Statement.flatMap((statement: { Principal: { Service: string | string[] } }) =>
      [statement.Principal.Service].flat(),
    );
    expect(principals.sort()).toEqual(['edgelambda.amazonaws.com', 'lambda.amazonaws.com']);
  });

  it('gave each function the role the app synthesized, and no role the origin secret', async () => {
    const { stack, table, configuration } = deployedSite();
    // What each grant allows and refuses is proven before a deploy (infra/test, test/grants); here,
    // that the deploy put exactly those roles in IAM, with the stage's names in place.
    const synthesized = rolesFor(
      deployedRoles({
        template: stack.template,
        region: stack.region,
        config: { stage: String(checkout!.context().stage), senderAddress: String(context.senderAddress) },
      }),
      {
        table: table.name,
        senderAddress: String(context.senderAddress),
        configurationSet: configurationSetName(String(checkout!.context().stage)),
      },
    );
    expect(synthesized.account).toBe(account);
    // moto's ARN of a log group leaves off the `:*` CloudFormation's GetAtt ends it with.
    const comparable = (grants: string[]) => grants.map((grant) => grant.replace(/(:log-group:[^ ]+?)(:\*)?( |$)/, '$1$3'));
    const roles = {
      'send-contact-email': configuration.contact.Role,
      'retry-undelivered': configuration.retry.Role,
      'record-delivery-event': configuration.consumer.Role,
      'outside-check': configuration.check.Role,
    };
    for (const [fn, roleArn] of Object.entries(roles)) {
      const deployed = grantsOf(await rolePolicies(aws, stack.region, roleArn as string));
      expect(comparable(deployed), fn).toEqual(comparable(grantsOf(synthesized.principals[fn]!)));
      expect(deployed.join('\n'), fn).not.toContain('secretsmanager');
    }
  });

  it('schedules the retry job every 10 minutes, without re-running a failed tick', async () => {
    const { stack, resources, retryFunction } = deployedSite();
    const rule = only(resources, 'AWS::Events::Rule', /-retry-undelivered$/);
    const described = await aws(stack.region, 'events', 'describe-rule', '--name', rule.physicalId);
    expect(described).toMatchObject({ ScheduleExpression: 'rate(10 minutes)', State: 'ENABLED' });
    const { Targets } = await aws(stack.region, 'events', 'list-targets-by-rule', '--rule', rule.physicalId);
    expect(Targets).toEqual([
      expect.objectContaining({
        Arn: `arn:aws:lambda:${stack.region}:${account}:function:${retryFunction.physicalId}`,
        RetryPolicy: { MaximumRetryAttempts: 0 },
      }),
    ]);
  });

  it('schedules the outside check every five minutes against the public address, marking its post with the origin secret as a reference only', async () => {
    const { stack, resources, checkFunction, configuration } = deployedSite();
    const rule = only(resources, 'AWS::Events::Rule', /-outside-check$/);
    const described = await aws(stack.region, 'events', 'describe-rule', '--name', rule.physicalId);
    expect(described).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    const { Targets } = await aws(stack.region, 'events', 'list-targets-by-rule', '--rule', rule.physicalId);
    expect(Targets).toEqual([
      expect.objectContaining({
        Arn: `arn:aws:lambda:${stack.region}:${account}:function:${checkFunction.physicalId}`,
        RetryPolicy: { MaximumRetryAttempts: 0 },
      }),
    ]);
    const { check } = configuration;
    expect(check.Runtime).toBe(`nodejs${nodeMajor}.x`);
    expect(check.Timeout).toBe(60);
    expect(check.Environment.Variables.ORIGIN_VERIFY).toMatch(/^\{\{resolve:secretsmanager:.+:SecretString:::\}\}$/);
    expect(check.Environment.Variables.STAGE).toBe(String(checkout!.context().stage));
    // No table, no sender, no recipient: it calls the site, nothing of AWS.
    expect(Object.keys(check.Environment.Variables)).not.toContain('TABLE_NAME');
    expect(Object.keys(check.Environment.Variables)).not.toContain('MAIL_TO');
  });

  it('delivers CloudFront’s access log in us-east-1 to a log group of its own, with only the fields on call reads, kept as the access logs are', async () => {
    const stage = String(checkout!.context().stage);
    const { deliverySources } = await aws('us-east-1', 'logs', 'describe-delivery-sources');
    expect(deliverySources).toEqual([expect.objectContaining({ name: `consultancy-site-${stage}-cloudfront`, logType: 'ACCESS_LOGS' })]);
    expect(deliverySources[0].resourceArns[0]).toMatch(new RegExp(`^arn:aws:cloudfront::${account}:distribution/`));
    const { deliveries } = await aws('us-east-1', 'logs', 'describe-deliveries');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ deliverySourceName: `consultancy-site-${stage}-cloudfront`, deliveryDestinationType: 'CWL' });
    expect(deliveries[0].recordFields).toEqual([...CLOUDFRONT_LOG_FIELDS]);
    const { logGroups } = await aws(
      'us-east-1',
      'logs',
      'describe-log-groups',
      '--log-group-name-prefix',
      `/aws/cloudfront/consultancy-site-${stage}-access`,
    );
    expect(logGroups).toEqual([expect.objectContaining({ retentionInDays: ACCESS_LOG_RETENTION_DAYS })]);
  });

  it("hands the stage's SES delivery events from the default bus to the consumer, retried for a day", async () => {
    const { stack, resources, consumerFunction } = deployedSite();
    const rule = only(resources, 'AWS::Events::Rule', /-delivery-events$/);
    const described = await aws(stack.region, 'events', 'describe-rule', '--name', rule.physicalId);
    expect(described).toMatchObject({ State: 'ENABLED', EventBusName: 'default' });
    expect(JSON.parse(described.EventPattern)).toMatchObject({
      source: ['aws.ses'],
      detail: { mail: { tags: { 'ses:configuration-set': [`consultancy-site-${String(checkout!.context().stage)}`] } } },
    });
    const { Targets } = await aws(stack.region, 'events', 'list-targets-by-rule', '--rule', rule.physicalId);
    expect(Targets).toEqual([
      expect.objectContaining({
        Arn: `arn:aws:lambda:${stack.region}:${account}:function:${consumerFunction.physicalId}`,
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
      }),
    ]);
  });

  it('sends alarms to an SNS topic encrypted with its own rotating KMS key, which CloudWatch may use', async () => {
    const { stack, resources } = deployedSite();
    const topic = only(resources, 'AWS::SNS::Topic');
    const key = only(resources, 'AWS::KMS::Key');
    const { Attributes } = await aws(stack.region, 'sns', 'get-topic-attributes', '--topic-arn', topic.physicalId);
    expect(Attributes.KmsMasterKeyId).toMatch(new RegExp(`(^|/)${key.physicalId}$`));
    // moto answers DescribeKey with a 500 for a key CloudFormation made; these two read it fine.
    expect(await aws(stack.region, 'kms', 'get-key-rotation-status', '--key-id', key.physicalId)).toMatchObject({
      KeyRotationEnabled: true,
    });
    const { Policy } = await aws(stack.region, 'kms', 'get-key-policy', '--key-id', key.physicalId, '--policy-name', 'default');
    const statements = (typeof Policy === 'string' ? JSON.parse(Policy) : Policy).Statement;
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']),
        }),
      ]),
    );
  });

  it('staged the build npm run build made for the site upload (whose copy into the bucket moto does not run)', async () => {
    const { stack, resources } = deployedSite();
    const uploads = Object.entries(stack.template.Resources).filter(([, resource]) => resource.Type === 'Custom::CDKBucketDeployment');
    expect(uploads.length).toBeGreaterThan(0);
    const siteBucket = resources.find((resource) => resource.logicalId === uploads[0]![1].Properties.DestinationBucketName.Ref)!;
    await aws(stack.region, 's3api', 'head-bucket', '--bucket', siteBucket.physicalId);
    const sourceKeys = new Set(uploads.flatMap(([, upload]) => upload.Properties.SourceObjectKeys as string[]));
    expect(sourceKeys.size, 'every upload copies from the one zipped build').toBe(1);

    const zipFile = join(checkout!.scratch, 'site.zip');
    await aws(
      stack.region,
      's3api',
      'get-object',
      '--bucket',
      await stagingBucket(aws, stack.region),
      '--key',
      [...sourceKeys][0]!,
      zipFile,
    );
    const staged = unzip(readFileSync(zipFile));
    const dist = join(ROOT, 'frontend', 'dist');
    const built = readdirSync(dist, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/'));
    expect([...staged.keys()].sort()).toEqual(built.sort());
    for (const path of built) expect(staged.get(path)!.equals(readFileSync(join(dist, path))), path).toBe(true);
    // moto marks each upload CREATE_COMPLETE without running its function: the bucket stays empty here.
    for (const [logicalId] of uploads)
      expect(
        resources.some((resource) => resource.logicalId === logicalId),
        logicalId,
      ).toBe(true);
  });

  it('deployed a contact-function package that, run with its environment and its role, refuses, validates, stores and e-mails', async () => {
    const { stack, table, contactFunction } = deployedSite();
    const region = stack.region;
    const configuration = deployedSite().configuration.contact;

    // The package as the deploy left it in the staging bucket: the object the template names, the bytes Lambda got.
    const fn = await unpack('send-contact-email', contactFunction, configuration);
    expect(fn.packageSha256, 'the staged package is the deployed code').toBe(configuration.CodeSha256);
    const originSecret = fn.originSecret;
    const storedCount = async () => (await aws(region, 'dynamodb', 'scan', '--table-name', table.name, '--select', 'COUNT')).Count;
    const visitor = { name: 'Test Bezoeker', email: `bezoeker@${FIRM_DOMAIN}`, message: 'Een bericht van de deploytest.' };

    const refused = await invoke(fn, [
      contactRequest(fn, visitor),
      contactRequest(fn, visitor, randomBytes(48).toString('hex').slice(0, 64)),
      contactRequest(fn, { name: '', email: 'geen adres', message: '' }, originSecret),
    ]);
    expect(refused.map((result) => result.status)).toEqual([403, 403, 400]);
    for (const { body } of refused) expect(body.error).toEqual(expect.any(String));
    expect(Object.keys(refused[2]!.body.fields).sort()).toEqual(['email', 'message', 'name']);
    expect(await storedCount(), 'refused requests store nothing').toBe(0);

    // Before SES knows the sender (the mail stack's identity, which moto skips): stored, e-mail refused, kept for the retry job.
    const [beforeVerification] = await invoke(fn, [contactRequest(fn, visitor, originSecret)]);
    expect(beforeVerification!.status).toBe(200);
    const item = async (id: string) =>
      (await aws(region, 'dynamodb', 'get-item', '--table-name', table.name, '--key', JSON.stringify({ id: { S: id } }))).Item;
    const waiting = await item(beforeVerification!.body.id);
    expect(waiting).toMatchObject({
      name: { S: visitor.name },
      email: { S: visitor.email },
      message: { S: visitor.message },
      status: { S: 'received' },
      attempts: { N: '1' },
    });

    // Once the sender is verified, as the guide's SES section has the operator do.
    await aws(region, 'ses', 'verify-email-identity', '--email-address', String(context.senderAddress));
    const [afterVerification] = await invoke(fn, [contactRequest(fn, { ...visitor, message: 'Een tweede bericht.' }, originSecret)]);
    expect(afterVerification!.status).toBe(200);
    expect(await item(afterVerification!.body.id)).toMatchObject({ status: { S: 'emailed' }, sesMessageId: { S: expect.any(String) } });
    expect((await aws(region, 'ses', 'get-send-quota')).SentLast24Hours).toBe(1);
  });

  it('deployed a retry-job package that, run with its role on a schedule tick, e-mails the digest of a held message and counts its run', async () => {
    const { stack, table, retryFunction, configuration } = deployedSite();
    const region = stack.region;
    const fn = await unpack('retry-undelivered', retryFunction, configuration.retry);
    // A message held an hour ago (past the mail budget), as the contact function stores one.
    const receivedAt = new Date(Date.now() - 3600_000).toISOString();
    const held = {
      id: { S: '01JDHELDDEPLOYTEST000000000' },
      name: { S: 'Test Bezoeker' },
      email: { S: `bezoeker@${FIRM_DOMAIN}` },
      emailKey: { S: `bezoeker@${FIRM_DOMAIN}` },
      message: { S: 'Een bericht dat wacht op het overzicht.' },
      receivedAt: { S: receivedAt },
      status: { S: 'held' },
      heldFor: { S: 'budget' },
      score: { N: '0' },
      attempts: { N: '0' },
      expiresAt: { N: String(Math.floor(Date.now() / 1000) + 86_400) },
    };
    await aws(region, 'dynamodb', 'put-item', '--table-name', table.name, '--item', JSON.stringify(held));
    const tick = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account,
      time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      region,
      resources: [`arn:aws:events:${region}:${account}:rule/${retryFunction.physicalId}`],
      detail: {},
    };
    const [summary] = await invokeWith(fn, [tick]);
    // Every call of the run went through IAM as deployed: the digest's read and claim of its state among them.
    expect(summary).toMatchObject({ digested: 1 });
    expect(summary).not.toHaveProperty('digestError');
  });

  it("made the stage's dashboard, linking each saved query by the id the deploy gave it", async () => {
    const { stack } = deployedSite();
    const { DashboardBody } = await aws(stack.region, 'cloudwatch', 'get-dashboard', '--dashboard-name', stack.name);
    const body = JSON.parse(DashboardBody as string) as { widgets: { type: string; properties: { markdown?: string } }[] };
    const text = body.widgets.find((widget) => widget.type === 'text')!.properties.markdown!;
    const links = [...text.matchAll(/\[([\w-]+\/[\w-]+)\]\(.*?queryId~'([0-9a-f-]{36})\)\)/g)];
    expect(links.map(([, name]) => name)).toContain(`${stack.name}/not-stored`);
    expect(new Set(links.map(([, , id]) => id)).size).toBe(links.length);
    expect(body.widgets.filter((widget) => widget.type === 'metric').length).toBeGreaterThan(10);
  });

  it('shows the outputs of the deployed site stack with the command the guide gives', async () => {
    const run = await operator.through(/^aws cloudformation describe-stacks\b/);
    expect(run.command).toContain(`--stack-name ${deployedSite().stack.name}`);
    expect(run.command).toContain(`--region ${deployedSite().stack.region}`);
    // The outputs moto can resolve (moto-as-aws/sitecustomize.py), the table's name among them.
    expect(run.output).toMatch(new RegExp(`\\|\\s*TableName\\s*\\|\\s*${deployedSite().table.name}\\s*\\|`));
    const { name, region } = deployedSite().stack;
    const dashboard = `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${name}`;
    expect(run.output).toMatch(new RegExp(`\\|\\s*DashboardUrl\\s*\\|\\s*${dashboard.replace(/[.?/]/g, '\\$&')}\\s*\\|`));
  });

  it("deploys the account's GitHub deploy stack, an app of its own, after asking to approve its IAM changes, and prints the role's ARN", async () => {
    const deploy = await operator.through(/^npx cdk deploy --app "npx tsx infra\/bin\/github-deploy\.ts"$/);
    expect(deploy.prompts).toEqual([expect.stringContaining('Do you wish to deploy these changes')]);
    const printed = await operator.through(/^aws cloudformation describe-stacks\b/);
    expect(printed.command).toContain(`--stack-name ${GITHUB_DEPLOY_STACK_NAME}`);
    const roleArn = printed.output.trim().split('\n').at(-1)!.trim();
    expect(roleArn).toMatch(new RegExp(`^arn:aws:iam::${account}:role/\\S+$`));
    github = { region: /--region ([a-z0-9-]+)/.exec(printed.command)![1]!, roleArn };
    expect(await stackStatus(aws, github.region, GITHUB_DEPLOY_STACK_NAME)).toBe('CREATE_COMPLETE');
  });

  it("made GitHub's OIDC provider in IAM and a role that trusts its tokens for the repository's environments only", async () => {
    const { region, roleArn } = deployedGithub();
    const provider = `arn:aws:iam::${account}:oidc-provider/token.actions.githubusercontent.com`;
    const { OpenIDConnectProviderList } = await aws(region, 'iam', 'list-open-id-connect-providers');
    expect(OpenIDConnectProviderList).toEqual([{ Arn: provider }]);
    expect(await aws(region, 'iam', 'get-open-id-connect-provider', '--open-id-connect-provider-arn', provider)).toMatchObject({
      Url: 'token.actions.githubusercontent.com',
      ClientIDList: ['sts.amazonaws.com'],
    });
    const { Role } = await aws(region, 'iam', 'get-role', '--role-name', roleArn.split('/').at(-1)!);
    const trust =
      typeof Role.AssumeRolePolicyDocument === 'string'
        ? JSON.parse(decodeURIComponent(Role.AssumeRolePolicyDocument))
        : Role.AssumeRolePolicyDocument;
    const repository = String(context.githubRepository);
    expect(trust.Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { Federated: provider },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:sub': [`repo:${repository}:environment:test`, `repo:${repository}:environment:prod`],
          },
        },
      },
    ]);
  });

  it('lets that role assume the bootstrap roles the guide made, in both regions, and nothing else', async () => {
    const { region, roleArn } = deployedGithub();
    const grants = grantsOf(await rolePolicies(aws, region, roleArn));
    const roles = grants.map((grant) => {
      const [effect, action, resource] = grant.split(' ');
      expect([effect, action], grant).toEqual(['Allow', 'sts:AssumeRole']);
      return resource!;
    });
    expect(roles).toHaveLength(8);
    for (const role of roles) {
      // Each one exists: the names are those `cdk bootstrap` gave its roles.
      const name = role.split('/').at(-1)!;
      expect(name).toMatch(
        new RegExp(`^cdk-hnb659fds-(deploy|file-publishing|image-publishing|lookup)-role-${account}-(eu-west-1|us-east-1)$`),
      );
      expect((await aws(region, 'iam', 'get-role', '--role-name', name)).Role.Arn).toBe(role);
    }
  });

  it('destroys --all after asking once, every stack of the stage is gone, and the GitHub deploy stack stays', async () => {
    const run = await operator.through(/^npx cdk destroy\b/);
    expect(run.prompts).toEqual([expect.stringContaining('Are you sure you want to delete')]);
    // The destroy synthesized the stage's app: its stacks are the ones it deleted.
    const stacks = synthesizedStacks();
    expect(stacks.map((stack) => stack.name)).toContain(deployedSite().stack.name);
    const statuses = await Promise.all(stacks.map((stack) => stackStatus(aws, stack.region, stack.name)));
    stacks.forEach((stack, i) => expect([undefined, 'DELETE_COMPLETE'], stack.name).toContain(statuses[i]));
    expect(await stackStatus(aws, deployedGithub().region, GITHUB_DEPLOY_STACK_NAME)).toBe('CREATE_COMPLETE');
  });

  it('ran every command of the guide, except the ones moto cannot serve, each named with its reason', async () => {
    await operator.through();
    expect(operator.ran.length + operator.notRun.length).toBe(guide.commands.length);
    expect(operator.notRun.map(({ command }) => command)).toEqual([expect.stringMatching(/^npm run smoke\b/)]);
    for (const { command, reason } of operator.notRun) console.info(`Not run against moto: \`${command}\`: ${reason}.`);
  });
});
