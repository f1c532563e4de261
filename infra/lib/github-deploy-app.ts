/**
 * The GitHub deploy stack's own app, for `bin/github-deploy.ts` and the tests: the same
 * context as the stages' (cdk.json), checked by the same rules, and the same cdk-nag packs.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { githubDeployConfigFrom, type GithubDeployConfig } from '@site/core/node/deploy-config';
import { GITHUB_DEPLOY_STACK_NAME } from '@site/core/names';
import { GithubDeployStack } from './github-deploy-stack';

export function buildGithubDeployApp(app: App): { config: GithubDeployConfig; stack: GithubDeployStack } {
  const config = githubDeployConfigFrom(app.node.getAllContext() as Record<string, unknown>);
  const stack = new GithubDeployStack(app, GITHUB_DEPLOY_STACK_NAME, {
    // IAM is global; the stack lives in the stages' region, beside their bootstrap.
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: config.region },
    config,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { config, stack };
}
