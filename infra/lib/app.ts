/**
 * The app's stacks for a configuration: one definition for `bin/app.ts` and the tests, so
 * the tests synthesize exactly what `cdk deploy` would.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { CertificateStack } from './certificate-stack';
import { loadConfig, type Config } from './config';
import { SiteStack } from './site-stack';
import { siteStackName } from './stack-name';

export interface SiteApp {
  config: Config;
  site: SiteStack;
  certificate?: CertificateStack;
}

export function buildApp(app: App, options: { siteDir: string }): SiteApp {
  const config = loadConfig(app.node.getAllContext() as Record<string, unknown>);
  // The account comes from the credentials at deploy time; synth needs none.
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const stackName = siteStackName(config.stage);

  const certificate =
    config.domainName && !config.certificateArn
      ? new CertificateStack(app, `${stackName}-certificate`, {
          env: { account, region: 'us-east-1' },
          crossRegionReferences: true,
          config: { ...config, domainName: config.domainName },
        })
      : undefined;

  const site = new SiteStack(app, stackName, {
    env: { account, region: config.region },
    crossRegionReferences: certificate !== undefined,
    config,
    siteDir: options.siteDir,
    certificate: certificate?.certificate,
  });

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { config, site, certificate };
}
