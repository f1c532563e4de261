/**
 * Synthesizes the app the way `cdk synth` does (cdk.json's context and feature flags, the
 * same buildApp), against a small stand-in for frontend/dist so these tests do not depend
 * on the front-end build.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { expect } from 'vitest';
import { buildApp, type BuildOptions, type SiteApp } from '../lib/app';
import { buildGithubDeployApp } from '../lib/github-deploy-app';
import type { GithubDeployStack } from '../lib/github-deploy-stack';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { makeSiteDir, SITE_FILES } from '@site/testing/fixtures/site';

export { CDK_JSON_CONTEXT, makeSiteDir, SITE_FILES };

/**
 * A plausible firm domain for the tests' addresses and zone. cdk.json ships no addresses, and
 * the config refuses example.* and reserved domains, so every synth passes these explicitly.
 */
export const TEST_DOMAIN = 'streepjevoorfinance.nl';
export const TEST_ADDRESSES = {
  contactRecipient: `info@${TEST_DOMAIN}`,
  senderAddress: `website@${TEST_DOMAIN}`,
} as const;

export interface Synthesized extends SiteApp {
  app: App;
  assembly: CloudAssembly;
  template: Template;
  /** The shared mail stack's template, when the app creates the identity. */
  mailTemplate?: Template;
  siteDir: string;
}

/**
 * cdk.json's context, the test addresses, then `context`: as `cdk synth -c …` would. The
 * functions are bundled only with `bundled` (the tests of the bundle itself): bundling three
 * functions with esbuild took most of a synth's time, and nothing else reads the bundle. The
 * CDK's own switch for that (`aws:cdk:bundling-stacks`) leaves the template as it is.
 */
/** The CDK's context for a synth that does not bundle the functions (see synth). */
export const UNBUNDLED = { 'aws:cdk:bundling-stacks': [] } as const;

export function synth(
  context: Record<string, unknown> = {},
  options: Omit<BuildOptions, 'siteDir'> = {},
  { bundled = false }: { bundled?: boolean } = {},
): Synthesized {
  const siteDir = makeSiteDir();
  const app = new App({
    context: { ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES, ...(bundled ? {} : UNBUNDLED), ...context },
    outdir: mkdtempSync(join(tmpdir(), 'cdk-out-')),
  });
  const built = buildApp(app, { siteDir, ...options });
  // Throws when a cdk-nag finding is neither fixed nor acknowledged, as `cdk synth` fails.
  const assembly = app.synth();
  return {
    ...built,
    app,
    assembly,
    siteDir,
    template: Template.fromStack(built.site),
    mailTemplate: built.mail && Template.fromStack(built.mail),
  };
}

/** Every cdk-nag finding left after the acknowledgements, by pack, and every CDK annotation. */
export function expectNoFindings(app: App, stacks: Stack[]): void {
  for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
    const findings = pack
      .validateScope(app)
      .violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings, pack.name).toEqual([]);
  }
  for (const stack of stacks) {
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  }
}

/** The one resource of a type whose properties match, with its logical id. */
export function only(template: Template, type: string, props: Record<string, unknown> = {}): { id: string; resource: any } {
  const found = Object.entries(template.findResources(type, { Properties: Match.objectLike(props) }));
  expect(
    found.map(([id]) => id),
    `${type} matching ${JSON.stringify(props)}`,
  ).toHaveLength(1);
  const [id, resource] = found[0]!;
  return { id, resource };
}

export interface SynthesizedGithubDeploy {
  app: App;
  stack: GithubDeployStack;
  template: Template;
  templateFile: string;
}

/** The GitHub deploy stack's own app (bin/github-deploy.ts), with cdk.json's context and then `context`. */
export function synthGithubDeploy(context: Record<string, unknown>): SynthesizedGithubDeploy {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, ...context }, outdir: mkdtempSync(join(tmpdir(), 'cdk-out-')) });
  const { stack } = buildGithubDeployApp(app);
  const assembly = app.synth();
  return { app, stack, template: Template.fromStack(stack), templateFile: assembly.getStackByName(stack.stackName).templateFullPath };
}
