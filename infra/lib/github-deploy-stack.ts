/**
 * What a GitHub workflow deploys with: GitHub's OIDC provider in the account (or the one that
 * exists there already) and one role that a job of the configured repository may assume, only
 * from one of the configured GitHub environments, with the token GitHub issued for AWS. No AWS
 * key is stored anywhere: each job gets credentials for an hour.
 *
 * The role may do one thing, assume the CDK's bootstrap roles of this account in the stage's
 * region and in us-east-1 (where the edge stacks live): everything the CDK CLI does goes
 * through them (publishing the assets, the change sets, the lookups). What a deploy may change
 * is therefore what the bootstrap gave CloudFormation's execution role, as it is for a deploy
 * from a laptop; the role adds no path of its own to the stages' data.
 *
 * A stack per account, not per stage, and not in the stages' app (infra/bin/github-deploy.ts):
 * a stage's `cdk deploy --all` or `destroy --all` never touches the role the pipeline runs on,
 * and who may deploy is changed by someone with rights in the account, never by the pipeline
 * with the role it would change.
 */
import { CfnOutput, DefaultStackSynthesizer, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { GithubDeployConfig } from '@site/core/node/deploy-config';
import { DEPLOY_ROLE_ARN_OUTPUT } from '@site/core/names';

/** GitHub's token issuer; IAM names the provider after it and prefixes its condition keys with it. */
export const GITHUB_OIDC_ISSUER = 'token.actions.githubusercontent.com';
/** The audience aws-actions/configure-aws-credentials asks GitHub to put in the token. */
export const STS_AUDIENCE = 'sts.amazonaws.com';
/** The CDK bootstrap roles the CLI assumes: for change sets, assets (files, images) and lookups. */
export const BOOTSTRAP_ROLE_KINDS = ['deploy', 'file-publishing', 'image-publishing', 'lookup'] as const;

/** A GitHub token's `sub` for a job that runs in `environment` of `repository`. */
export const environmentSubject = (repository: string, environment: string) => `repo:${repository}:environment:${environment}`;

export interface GithubDeployStackProps extends StackProps {
  config: GithubDeployConfig;
}

export class GithubDeployStack extends Stack {
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: GithubDeployStackProps) {
    super(scope, id, {
      description: `Deploys from GitHub: ${props.config.githubRepository}, environments ${props.config.githubEnvironments.join(', ')}`,
      ...props,
    });
    const { config } = props;

    const provider = config.githubOidcProviderArn
      ? iam.OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', config.githubOidcProviderArn)
      : // No thumbprints: IAM trusts GitHub's certificate through its own library of root CAs.
        new iam.OidcProviderNative(this, 'GitHubOidc', { url: `https://${GITHUB_OIDC_ISSUER}`, clientIds: [STS_AUDIENCE] });

    this.role = new iam.Role(this, 'DeployRole', {
      description: `Assumed by ${config.githubRepository}'s deploy workflow; may only assume the CDK bootstrap roles`,
      assumedBy: new iam.WebIdentityPrincipal(provider.openIdConnectProviderArn, {
        StringEquals: {
          [`${GITHUB_OIDC_ISSUER}:aud`]: STS_AUDIENCE,
          // An environment's jobs, and nothing else: not a branch, a tag, a pull request or another repository.
          [`${GITHUB_OIDC_ISSUER}:sub`]: config.githubEnvironments.map((environment) =>
            environmentSubject(config.githubRepository, environment),
          ),
        },
      }),
      // A first deploy (a certificate's validation, a new distribution) can outlast an hour;
      // the CLI assumes the bootstrap roles again with these credentials while it waits.
      maxSessionDuration: Duration.hours(2),
    });

    // The roles `cdk bootstrap` made: its qualifier, or the one in @aws-cdk/core:bootstrapQualifier.
    const qualifier = this.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const regions = [...new Set([config.region, 'us-east-1'])];
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'AssumeTheCdkBootstrapRoles',
        actions: ['sts:AssumeRole'],
        resources: regions.flatMap((region) =>
          BOOTSTRAP_ROLE_KINDS.map((kind) =>
            this.formatArn({
              service: 'iam',
              region: '',
              resource: 'role',
              resourceName: `cdk-${qualifier}-${kind}-role-${this.account}-${region}`,
            }),
          ),
        ),
      }),
    );

    new CfnOutput(this, DEPLOY_ROLE_ARN_OUTPUT, {
      description: 'The role the deploy workflow assumes: the GitHub variable AWS_DEPLOY_ROLE_ARN',
      value: this.role.roleArn,
    });
  }
}
