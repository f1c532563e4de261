/**
 * The account's GitHub deploy stack, an app of its own (docs/first-deploy.md, "Deploying from
 * GitHub"): `npx cdk deploy --app "npx tsx infra/bin/github-deploy.ts"`, once per account, by
 * someone with rights in it. Not in bin/app.ts: see lib/github-deploy-stack.ts.
 */
import { App } from 'aws-cdk-lib';
import { buildGithubDeployApp } from '../lib/github-deploy-app';

buildGithubDeployApp(new App());
