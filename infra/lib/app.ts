/**
 * The app's stacks for a configuration: one definition for `bin/app.ts` and the tests, so
 * the tests synthesize exactly what `cdk deploy` would.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ApiEdgeStack } from './api-edge-stack';
import { CertificateStack } from './certificate-stack';
import { loadConfig, type Config } from '@site/core/node/deploy-config';
import { checkFacts, type FactsOfFile } from '@site/core/node/content-check';
import { refusePlaceholdersInProd, type PlaceholdersByFile } from '@site/core/placeholders';
import { CONTENT_FACTS, PLACEHOLDERS_BY_FILE } from '@site/frontend/content-files';
import { checkStatedFacts } from './stated-facts';
import { mailIdentityName } from './constructs/mail-identity';
import { MailStack } from './mail-stack';
import { edgeAlarmsStackName, mailStackName, stagePrefix } from '@site/core/names';
import { EdgeAlarmsStack } from './edge-alarms-stack';
import { SiteStack } from './site-stack';
import { WafStack, webAclName } from './waf-stack';

export interface SiteApp {
  config: Config;
  site: SiteStack;
  certificate?: CertificateStack;
  apiEdge: ApiEdgeStack;
  mail?: MailStack;
  waf?: WafStack;
  edgeAlarms: EdgeAlarmsStack;
}

export interface BuildOptions {
  siteDir: string;
  /** What is left of the content's placeholder(…) values, by file; the site's own by default. */
  contentPlaceholders?: PlaceholdersByFile;
  /** The firm's facts in the content, by file; the site's own by default. */
  contentFacts?: readonly FactsOfFile[];
}

export function buildApp(app: App, options: BuildOptions): SiteApp {
  const config = loadConfig(app.node.getAllContext() as Record<string, unknown>);
  checkFacts(options.contentFacts ?? CONTENT_FACTS);
  refusePlaceholdersInProd(config.stage, options.contentPlaceholders ?? PLACEHOLDERS_BY_FILE);
  checkStatedFacts(options.siteDir, config);
  // The account comes from the credentials at deploy time; synth needs none.
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const stackName = stagePrefix(config.stage);

  const certificate =
    config.domainName && !config.certificateArn
      ? new CertificateStack(app, `${stackName}-certificate`, {
          env: { account, region: 'us-east-1' },
          crossRegionReferences: true,
          config: { ...config, domainName: config.domainName },
        })
      : undefined;

  const waf =
    config.wafRateLimit !== false
      ? new WafStack(app, `${stackName}-waf`, {
          env: { account, region: 'us-east-1' },
          crossRegionReferences: true,
          prefix: stackName,
          rateLimit: config.wafRateLimit,
        })
      : undefined;

  const apiEdge = new ApiEdgeStack(app, `${stackName}-api-edge`, {
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
    prefix: stackName,
    retention: config.retentionDays,
  });

  const mail = config.createMailIdentity
    ? new MailStack(app, mailStackName(mailIdentityName(config.senderAddress, config.verifySenderDomain)), {
        env: { account, region: config.region },
        config,
      })
    : undefined;

  const certificateArn = config.certificateArn ?? certificate?.certificate.certificateArn;
  const edgeAlarmNames = EdgeAlarmsStack.alarmNames({ certificateArn, webAclName: waf && webAclName(stackName) });

  const site = new SiteStack(app, stackName, {
    env: { account, region: config.region },
    // The distribution's id goes to the edge alarms in us-east-1, whatever else does.
    crossRegionReferences: true,
    config,
    siteDir: options.siteDir,
    certificate: certificate?.certificate,
    mailIdentityExport: mail?.identityArnExport,
    webAclArn: waf?.webAcl.attrArn,
    apiOriginResponse: apiEdge.originResponse,
    edgeAlarms: edgeAlarmNames,
  });
  if (mail) site.addStackDependency(mail, 'imports the SES identity the functions send through');

  const edgeAlarms = new EdgeAlarmsStack(app, edgeAlarmsStackName(config.stage), {
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
    prefix: stackName,
    alarmEmail: config.alarmEmail,
    pageTo: config.pageTo,
    distributionId: site.distribution.distributionId,
    certificateArn,
    webAclName: waf && webAclName(stackName),
    dashboardUrl: site.dashboardUrl,
    alarmLinks: site.alarmLinks,
  });
  if (waf) edgeAlarms.addStackDependency(waf, 'alarms on the web ACL’s metrics');

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { config, site, certificate, apiEdge, mail, waf, edgeAlarms };
}
