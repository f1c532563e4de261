/**
 * Every template the app can synthesize, across the configurations that change its shape:
 * each must survive a failed deploy being retried (nothing retained under a fixed name)
 * and pass cfn-lint, as CloudFormation's own schema and rules read it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceholdersByFile } from '@site/core/placeholders';
import { synth, synthGithubDeploy, TEST_DOMAIN } from './synth';

const ZONE = { hostedZoneName: TEST_DOMAIN, hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';

/** The configurations, each with what it adds: a stack, a kind of identity, a resource. */
const VARIANTS: Record<string, { context: Record<string, unknown>; placeholders?: PlaceholdersByFile }> = {
  'default (test, address identity)': { context: {} },
  'prod: domain, certificate stack, DKIM in the zone, alarm mail, reserved concurrency': {
    context: { stage: 'prod', domainName: `www.${TEST_DOMAIN}`, ...ZONE, alarmEmail: `ops@${TEST_DOMAIN}`, reservedConcurrency: 10 },
    placeholders: new Map(),
  },
  'own certificate, identity made outside the app': {
    context: { domainName: TEST_DOMAIN, ...ZONE, certificateArn: CERTIFICATE_ARN, createMailIdentity: false },
  },
  'sender domain without a zone (DKIM outputs)': { context: { stage: 'acc', verifySenderDomain: true } },
  'WAF stack, origin secret mid-rotation': {
    context: {
      wafRateLimit: 100,
      originSecretVersion: '4c1f3a52-9d0e-4b7a-8f21-6a3e5c7d9b10',
      originSecretPreviousVersion: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d',
    },
  },
};

/** Template files by `<variant> / <stack>`. */
let templates: Record<string, string>;

beforeAll(() => {
  templates = {};
  for (const [variant, { context, placeholders }] of Object.entries(VARIANTS)) {
    const s = synth(context, { contentPlaceholders: placeholders });
    for (const stack of s.assembly.stacks) templates[`${variant} / ${stack.stackName}`] = stack.templateFullPath;
  }
  // The account's GitHub deploy stack, its own app: with GitHub's provider, and with the account's.
  const repository = { githubRepository: 'streepjevoorfinance/website' };
  templates['GitHub deploy, new provider / consultancy-site-github-deploy'] = synthGithubDeploy(repository).templateFile;
  templates['GitHub deploy, existing provider / consultancy-site-github-deploy'] = synthGithubDeploy({
    ...repository,
    githubOidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com',
  }).templateFile;
});

it('covers the site, API edge, certificate, WAF, edge alarms, mail and GitHub deploy stacks', () => {
  const stacks = new Set(Object.keys(templates).map((key) => key.split(' / ')[1]!.replace(/-(test|prod|acc)\b/, '-<stage>')));
  expect([...stacks].sort()).toEqual(
    [
      'consultancy-site-<stage>',
      'consultancy-site-<stage>-api-edge',
      'consultancy-site-<stage>-certificate',
      'consultancy-site-<stage>-edge-alarms',
      'consultancy-site-<stage>-waf',
      'consultancy-site-github-deploy',
      'consultancy-site-mail-streepjevoorfinance-nl',
      'consultancy-site-mail-website-at-streepjevoorfinance-nl',
    ].sort(),
  );
});

describe('retry after a failed deploy or a destroy', () => {
  /** A top-level property that names the physical resource (TableName, BucketName, EmailIdentity, …). */
  const fixedNames = (properties: Record<string, unknown> = {}) =>
    Object.entries(properties)
      .filter(([key, value]) => (/Name$/.test(key) || key === 'EmailIdentity') && typeof value === 'string')
      .map(([key, value]) => `${key}=${value as string}`);

  it('nothing kept after a delete or replacement has a fixed physical name', () => {
    const offenders: string[] = [];
    let retained = 0;
    for (const [name, file] of Object.entries(templates)) {
      const resources = (JSON.parse(readFileSync(file, 'utf8')) as { Resources: Record<string, any> }).Resources;
      for (const [id, resource] of Object.entries(resources)) {
        const kept = ['Retain', 'RetainExceptOnCreate', 'Snapshot'];
        if (!kept.includes(resource.DeletionPolicy) && !kept.includes(resource.UpdateReplacePolicy)) continue;
        retained++;
        for (const fixed of fixedNames(resource.Properties)) offenders.push(`${name}: ${id} (${resource.Type}) ${fixed}`);
        // Retained, yes, but removed again when its own create rolls back.
        if (resource.DeletionPolicy !== 'RetainExceptOnCreate') offenders.push(`${name}: ${id} is ${resource.DeletionPolicy}`);
      }
    }
    expect(offenders).toEqual([]);
    // Table, site bucket and log bucket in each of the five site stacks.
    expect(retained).toBe(15);
  });

  it('the check sees a fixed name where there is one', () => {
    expect(fixedNames({ TableName: 'consultancy-site-test-contact-messages', BucketName: { Ref: 'X' } })).toEqual([
      'TableName=consultancy-site-test-contact-messages',
    ]);
    expect(fixedNames({ EmailIdentity: `website@${TEST_DOMAIN}` })).toHaveLength(1);
  });
});

describe('cfn-lint', () => {
  const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  const installed = version.status === 0;

  /**
   * Warnings allowed, by rule, with the reason; any other finding fails.
   * W3005: CDK itself adds DependsOn on a function's role next to the GetAtt of it.
   * W6001: the site stack outputs the mail stack's identity ARN through Fn::ImportValue on
   *   purpose; the import is what stops the shared mail stack being deleted under a stage.
   */
  const ALLOWED = new Set(['W3005', 'W6001']);

  it('finds no error in any template, and no warning but the allowed ones', (context) => {
    if (!installed) {
      context.skip('cfn-lint is not installed here (pip install cfn-lint); the templates were not linted');
    }
    let output = '';
    try {
      output = execFileSync('cfn-lint', ['--format', 'json', '--', ...Object.values(templates)], { encoding: 'utf8' });
    } catch (error) {
      // Exit codes 2 (errors), 4 (warnings) and 8 (informational) come with the findings on stdout.
      output = (error as { stdout: string }).stdout;
    }
    const findings = (JSON.parse(output) as { Rule: { Id: string }; Message: string; Filename: string }[]).map(
      (finding) => `${finding.Rule.Id} ${finding.Filename}: ${finding.Message}`,
    );
    expect(findings.filter((finding) => !ALLOWED.has(finding.split(' ')[0]!))).toEqual([]);
    console.info(`${version.stdout.trim()}: ${Object.keys(templates).length} templates, ${findings.length} allowed warnings`);
  });
});
