/**
 * Table, API, functions (their bundles too) and their exact permissions, on the default
 * configuration from cdk.json with the test addresses.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { API_PATH, CHALLENGE_PATH, HELD_PATH } from '@site/core/contract';
import { keyAttributes, MESSAGE_TABLE, type KeyAttribute } from '@site/core/table';
import { HANDLER_BUNDLE } from '@site/lambda/bundle';
import { mailBudgetsFrom } from '@site/lambda/config';
import { MAIL_BUDGET_ENV } from '@site/core/function-env';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS, FUNCTION_BUNDLE_MAX_BYTES, FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { only, synth, TEST_ADDRESSES, type Synthesized } from './synth';

let s: Synthesized;
let resources: Record<string, any>;
const tableId = () => only(s.template, 'AWS::DynamoDB::Table').id;
const fn = (name: string) => only(s.template, 'AWS::Lambda::Function', { FunctionName: `consultancy-site-test-${name}` });

beforeAll(() => {
  s = synth({}, {}, { bundled: true });
  resources = s.template.toJSON().Resources;
});

describe('table', () => {
  it('is built from MESSAGE_TABLE: key, every index in its map (the sparse status index among them), TTL', () => {
    const table = only(s.template, 'AWS::DynamoDB::Table').resource.Properties;
    const { partitionKey, indexes, timeToLiveAttribute } = MESSAGE_TABLE;
    const keySchema = (index: { partitionKey: KeyAttribute; sortKey?: KeyAttribute }) => [
      { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
      ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
    ];
    expect(table.KeySchema).toEqual([{ AttributeName: partitionKey.name, KeyType: 'HASH' }]);
    expect(table.GlobalSecondaryIndexes).toEqual(
      Object.entries<{ partitionKey: KeyAttribute; sortKey?: KeyAttribute }>(indexes).map(([indexName, index]) => ({
        IndexName: indexName,
        KeySchema: keySchema(index),
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(Object.keys(indexes)).toEqual(['byStatus', 'byEmail']);
    expect(table.AttributeDefinitions).toEqual(keyAttributes().map((key) => ({ AttributeName: key.name, AttributeType: key.type })));
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: timeToLiveAttribute, Enabled: true });
  });

  it('has a generated name, found through the TableName output, so a retained table never blocks a deploy', () => {
    const { id, resource } = only(s.template, 'AWS::DynamoDB::Table');
    expect(resource.Properties.TableName).toBeUndefined();
    expect(s.template.toJSON().Outputs.TableName.Value).toEqual({ Ref: id });
  });

  it('is on demand, encrypted with the AWS managed key, recoverable to the second, and outlives the stack but not a failed create', () => {
    const { resource } = only(s.template, 'AWS::DynamoDB::Table');
    expect(resource.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(resource.Properties.SSESpecification).toEqual({ SSEEnabled: true });
    // The privacy statement quotes the same period (the synth checks the built page against it).
    expect(resource.Properties.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
      RecoveryPeriodInDays: MESSAGE_TABLE.pointInTimeRecoveryDays,
    });
    expect(resource.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(resource.UpdateReplacePolicy).toBe('Retain');
    // Deletion protection defaults to on for prod only (see domain.test.ts).
    expect(resource.Properties.DeletionProtectionEnabled).toBe(false);
  });
});

describe('HTTP API', () => {
  it('routes every method of API_PATH and HELD_PATH, and GET of CHALLENGE_PATH, to the contact function (payload 2.0), which answers 405 itself', () => {
    const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route')).map((r: any) => r.Properties);
    expect(routes.map((route) => route.RouteKey).sort()).toEqual([`ANY ${API_PATH}`, `GET ${CHALLENGE_PATH}`, `ANY ${HELD_PATH}`].sort());
    const integrationId = routes[0].Target['Fn::Join'][1][1].Ref;
    for (const route of routes) {
      expect(route.AuthorizationType).toBe('NONE');
      expect(route.Target, route.RouteKey).toEqual({ 'Fn::Join': ['', ['integrations/', { Ref: integrationId }]] });
    }
    const integration = resources[integrationId].Properties;
    expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    expect(integration.IntegrationUri).toEqual({ 'Fn::GetAtt': [fn('send-contact-email').id, 'Arn'] });
    s.template.resourceCountIs('AWS::ApiGatewayV2::Integration', 1);
    const api = only(s.template, 'AWS::ApiGatewayV2::Api').resource.Properties;
    expect(api).toMatchObject({ Name: 'consultancy-site-test-api', ProtocolType: 'HTTP' });
    expect(api.CorsConfiguration).toBeUndefined();
  });

  it('throttles the default stage as apiRateLimit says and logs every request as JSON without personal data', () => {
    const stage = only(s.template, 'AWS::ApiGatewayV2::Stage').resource.Properties;
    expect(stage.StageName).toBe('$default');
    expect(stage.AutoDeploy).toBe(true);
    expect(stage.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 });
    const logGroupId = stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
    expect(resources[logGroupId].Properties).toEqual({ LogGroupName: '/aws/apigateway/consultancy-site-test-api', RetentionInDays: 365 });
    const format = JSON.parse(stage.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', path: '$context.path' });
    expect(stage.AccessLogSettings.Format).not.toMatch(/sourceIp|userAgent|identity/);
  });
});

describe('functions', () => {
  const newestNodeRuntime = () =>
    Object.values(Runtime)
      .filter((value): value is Runtime => value instanceof Runtime && /^nodejs\d+\.x$/.test(value.name))
      .sort((a, b) => Number.parseInt(b.name.slice(6)) - Number.parseInt(a.name.slice(6)))[0]!;

  it.each(['send-contact-email', 'retry-undelivered', 'record-delivery-event'])(
    '%s runs on the newest Node.js the installed aws-cdk-lib lists, on arm64',
    (name) => {
      const props = fn(name).resource.Properties;
      expect(props.Runtime).toBe(newestNodeRuntime().name);
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.MemorySize).toBe(512);
      expect(props.Handler).toBe('index.handler');
      // The bundle targets the runtime it runs on.
      expect(`node${props.Runtime.slice(6, -2)}`).toBe(HANDLER_BUNDLE.target);
    },
  );

  it.each(['send-contact-email', 'retry-undelivered', 'record-delivery-event'])(
    '%s logs JSON to its own log group, kept retentionDays',
    (name) => {
      const props = fn(name).resource.Properties;
      expect(props.LoggingConfig.LogFormat).toBe('JSON');
      const logGroup = resources[props.LoggingConfig.LogGroup.Ref];
      expect(logGroup.Properties).toEqual({ LogGroupName: `/aws/lambda/consultancy-site-test-${name}`, RetentionInDays: 365 });
    },
  );

  it.each(['send-contact-email', 'retry-undelivered'])('%s gets TABLE_NAME, MAIL_FROM, MAIL_TO and RETENTION_DAYS', (name) => {
    expect(fn(name).resource.Properties.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: tableId() },
      MAIL_FROM: TEST_ADDRESSES.senderAddress,
      MAIL_TO: TEST_ADDRESSES.contactRecipient,
      RETENTION_DAYS: '365',
    });
  });

  it('gives only the contact function the origin secret and the visitor limit (5 per 10 minutes by default, 20 per IPv6 /48)', () => {
    const secretId = only(s.template, 'AWS::SecretsManager::Secret').id;
    expect(Object.keys(fn('send-contact-email').resource.Properties.Environment.Variables).sort()).toEqual(
      [
        'MAIL_FROM',
        'MAIL_TO',
        'ORIGIN_VERIFY',
        'RETENTION_DAYS',
        'SES_CONFIGURATION_SET',
        'STAGE',
        'TABLE_NAME',
        'VISITOR_LIMIT',
        'VISITOR_IPV6_NETWORK_LIMIT',
        'VISITOR_WINDOW_SECONDS',
        'SPAM_RETENTION_DAYS',
        ...Object.values(MAIL_BUDGET_ENV),
      ].sort(),
    );
    expect(fn('send-contact-email').resource.Properties.Environment.Variables).toMatchObject({
      ORIGIN_VERIFY: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
      VISITOR_LIMIT: '5',
      VISITOR_IPV6_NETWORK_LIMIT: '20',
      VISITOR_WINDOW_SECONDS: '600',
    });
    expect(Object.keys(fn('retry-undelivered').resource.Properties.Environment.Variables).sort()).toEqual(
      [
        'DELIVERY_ALARM_MINUTES',
        'MAIL_FROM',
        'MAIL_TO',
        'RETENTION_DAYS',
        'SES_CONFIGURATION_SET',
        'STAGE',
        'TABLE_NAME',
        // The digest's link to the page of held messages (decision 0048): signed with a key derived from the secret.
        'SITE_URL',
        'ORIGIN_VERIFY',
      ].sort(),
    );
    const retryEnv = fn('retry-undelivered').resource.Properties.Environment.Variables;
    expect(retryEnv.ORIGIN_VERIFY).toEqual(fn('send-contact-email').resource.Properties.Environment.Variables.ORIGIN_VERIFY);
    expect(JSON.stringify(retryEnv.SITE_URL)).toContain('DomainName');
  });

  it('gives the contact function the mail budgets, by default the settings table’s, under the names it reads them by', () => {
    const env = fn('send-contact-email').resource.Properties.Environment.Variables;
    expect(mailBudgetsFrom(env)).toEqual({
      ordinary: DEFAULTS.mailBudget,
      site: DEFAULTS.siteMailBudget,
    });
    expect(env).toMatchObject({
      MAIL_BUDGET_PER_HOUR: '10',
      MAIL_BUDGET_PER_DAY: '40',
      SITE_MAIL_BUDGET_PER_HOUR: '30',
      SITE_MAIL_BUDGET_PER_DAY: '120',
    });
  });

  it('gives the contact function the mail budgets set in cdk.json context instead', () => {
    const mailBudget = { perHour: 4, perDay: 25 };
    const siteMailBudget = { perHour: 12, perDay: 60 };
    const set = synth({ mailBudget, siteMailBudget });
    const env = only(set.template, 'AWS::Lambda::Function', { FunctionName: 'consultancy-site-test-send-contact-email' }).resource
      .Properties.Environment.Variables;
    expect(mailBudgetsFrom(env)).toEqual({ ordinary: mailBudget, site: siteMailBudget });
  });

  it('limits the contact function to the shared time limit and, by default, reserves no concurrency (a new account has none to spare)', () => {
    const props = fn('send-contact-email').resource.Properties;
    expect(props.Timeout).toBe(FUNCTION_TIMEOUT_SECONDS);
    expect(props.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('lets API Gateway wait for the contact function as long as the local edge does, longer than the function may run', () => {
    const integration = only(s.template, 'AWS::ApiGatewayV2::Integration', { IntegrationType: 'AWS_PROXY' }).resource.Properties;
    expect(integration.TimeoutInMillis).toBe(API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS * 1000);
    expect(API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS).toBeGreaterThan(FUNCTION_TIMEOUT_SECONDS);
  });

  it('runs the retry job every 10 minutes without immediate re-runs', () => {
    const retry = fn('retry-undelivered');
    expect(retry.resource.Properties.Timeout).toBe(120);
    expect(retry.resource.Properties.ReservedConcurrentExecutions).toBeUndefined();
    const rule = only(s.template, 'AWS::Events::Rule', { Name: 'consultancy-site-test-retry-undelivered' }).resource.Properties;
    expect(rule.ScheduleExpression).toBe('rate(10 minutes)');
    expect(rule.State).toBe('ENABLED');
    expect(rule.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [retry.id, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
    ]);
  });

  it('runs the outside check every five minutes, without immediate re-runs, against the site’s public address', () => {
    const check = fn('outside-check');
    expect(check.resource.Properties.Timeout).toBe(60);
    expect(check.resource.Properties.MemorySize).toBe(256);
    const distribution = only(s.template, 'AWS::CloudFront::Distribution').id;
    expect(check.resource.Properties.Environment.Variables).toMatchObject({
      STAGE: 'test',
      SITE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] },
    });
    const rule = only(s.template, 'AWS::Events::Rule', { Name: 'consultancy-site-test-outside-check' }).resource.Properties;
    expect(rule.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.State).toBe('ENABLED');
    expect(rule.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [check.id, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
    ]);
    expect(
      Object.keys(s.template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: Match.anyValue() } })),
    ).toHaveLength(2);
  });

  it('bundles the outside check without the AWS SDK: it calls the site, nothing of AWS', () => {
    const key: string = fn('outside-check').resource.Properties.Code.S3Key;
    const code = readFileSync(join(s.assembly.directory, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs'), 'utf8');
    expect(code).toMatch(/export\s*\{[^}]*\bas handler\s*[,}]/);
    expect(code).not.toContain('DynamoDB');
    expect(code).not.toMatch(/SendEmail/);
    expect(code.length).toBeLessThan(200 * 1024);
  });

  it.each(['send-contact-email', 'retry-undelivered', 'record-delivery-event'])(
    '%s is bundled as one minified ES module with the AWS SDK inside, within the bench’s budget',
    (name) => {
      const key: string = fn(name).resource.Properties.Code.S3Key;
      const bundle = join(s.assembly.directory, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs');
      expect(existsSync(bundle), bundle).toBe(true);
      expect(statSync(bundle).size).toBeLessThanOrEqual(FUNCTION_BUNDLE_MAX_BYTES);
      const code = readFileSync(bundle, 'utf8');
      expect(code.startsWith(HANDLER_BUNDLE.banner)).toBe(true);
      // Lambda calls `handler`; the contact bundle also exports the parts it is built from (for the bench).
      expect(code).toMatch(/export\s*\{[^}]*\bas handler\s*[,}]/);
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      // lambda/bundle.ts's substitutions reach the deployed bundle too.
      expect(code).not.toMatch(/from\s*["']node:http["']/);
      expect(code).not.toContain('sso_start_url');
      expect(code).toContain('DynamoDB');
      // Minified: very long lines (the few line breaks left are inside template literals).
      expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
    },
  );
});

describe('permissions', () => {
  // What each role allows is test/grants' check over every call the suite made, and
  // function-roles.test.ts's and ses-permissions.test.ts's through the IAM policy simulator.
  const roleOf = (name: string) => fn(name).resource.Properties.Role['Fn::GetAtt'][0] as string;
  it.each(['send-contact-email', 'retry-undelivered', 'record-delivery-event', 'outside-check'])(
    '%s has a role of its own, for Lambda only, with no managed policies',
    (name) => {
      const role = resources[roleOf(name)].Properties;
      expect(role.AssumeRolePolicyDocument.Statement).toEqual([
        { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
      ]);
      expect(role.ManagedPolicyArns).toBeUndefined();
      expect(role.Policies).toBeUndefined();
    },
  );

  it('verifies senderAddress as an address identity, in the shared mail stack that the site stack imports it from', () => {
    s.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    expect(only(s.mailTemplate!, 'AWS::SES::EmailIdentity').resource.Properties).toEqual({ EmailIdentity: TEST_ADDRESSES.senderAddress });
    s.mailTemplate!.resourceCountIs('AWS::Route53::RecordSet', 0);
    expect(s.mail!.stackName).toBe('consultancy-site-mail-website-at-streepjevoorfinance-nl');
    expect(s.mail!.region).toBe(s.site.region);
    const exported = s.mailTemplate!.toJSON().Outputs.IdentityArn;
    expect(exported.Export).toEqual({ Name: 'consultancy-site-mail-website-at-streepjevoorfinance-nl-identity-arn' });
    expect(s.template.toJSON().Outputs.MailIdentityArn.Value).toEqual({ 'Fn::ImportValue': exported.Export.Name });
    expect(s.site.dependencies.map((stack) => stack.stackName).sort()).toEqual(
      [s.apiEdge.stackName, s.mail!.stackName, s.waf!.stackName].sort(),
    );
  });

  it('lets API Gateway invoke the contact function from this API only, on its three paths, and EventBridge the retry job, the delivery-event consumer and the outside check from their rules only', () => {
    const permissions = Object.values(s.template.findResources('AWS::Lambda::Permission')).map((p: any) => p.Properties);
    expect(permissions).toHaveLength(6);
    const api = permissions.filter((p) => p.Principal === 'apigateway.amazonaws.com');
    const apiId = only(s.template, 'AWS::ApiGatewayV2::Api').id;
    // arn:aws:execute-api:region:account:apiId/stage/method/path, as formatArn joins it.
    const pathsAllowed = api.map((p) => {
      expect(p.FunctionName).toEqual({ 'Fn::GetAtt': [fn('send-contact-email').id, 'Arn'] });
      const parts = p.SourceArn['Fn::Join'][1];
      expect(parts).toContainEqual({ Ref: apiId });
      return parts.at(-1);
    });
    expect(pathsAllowed.sort()).toEqual([`/*/*${API_PATH}`, `/*/*${CHALLENGE_PATH}`, `/*/*${HELD_PATH}`].sort());
    const events = permissions.filter((p) => p.Principal === 'events.amazonaws.com');
    const ruleOf = (name: string) => only(s.template, 'AWS::Events::Rule', { Name: `consultancy-site-test-${name}` }).id;
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          FunctionName: { 'Fn::GetAtt': [fn('retry-undelivered').id, 'Arn'] },
          SourceArn: { 'Fn::GetAtt': [ruleOf('retry-undelivered'), 'Arn'] },
        }),
        expect.objectContaining({
          FunctionName: { 'Fn::GetAtt': [fn('record-delivery-event').id, 'Arn'] },
          SourceArn: { 'Fn::GetAtt': [ruleOf('delivery-events'), 'Arn'] },
        }),
        expect.objectContaining({
          FunctionName: { 'Fn::GetAtt': [fn('outside-check').id, 'Arn'] },
          SourceArn: { 'Fn::GetAtt': [ruleOf('outside-check'), 'Arn'] },
        }),
      ]),
    );
    expect(events).toHaveLength(3);
  });
});
