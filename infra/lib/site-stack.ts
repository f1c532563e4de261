/**
 * The whole site in one stack, composed in the order of the architecture: storage, site,
 * API and functions, mail, monitoring, outputs. Each part is a construct of its own in
 * constructs/.
 */
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Config } from './config';
import { Alarms } from './constructs/alarms';
import { ContactApi } from './constructs/contact-api';
import { grantSendAs } from './constructs/mail-sending';
import { MessageTable } from './constructs/message-table';
import { StaticSite } from './constructs/static-site';
import { importHostedZone } from './hosted-zone';
import { APP_NAME, stagePrefix, TABLE_NAME_OUTPUT } from './names';

export interface SiteStackProps extends StackProps {
  config: Config;
  /** The built site, normally frontend/dist; the tests pass a small stand-in. */
  siteDir: string;
  /** For config.domainName when config.certificateArn is not set: from the us-east-1 certificate stack. */
  certificate?: ICertificate;
  /** The export of the mail stack that owns the sender's identity; none when it exists outside the app. */
  mailIdentityExport?: string;
}

export class SiteStack extends Stack {
  readonly distribution: Distribution;
  readonly table: MessageTable;
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const { config } = props;
    const prefix = stagePrefix(config.stage);
    const retention = config.retentionDays as RetentionDays;
    const zone = config.domainName ? importHostedZone(this, config) : undefined;
    const certificate = config.certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn)
      : props.certificate;

    this.table = new MessageTable(this, 'Messages', { deletionProtection: config.deletionProtection });

    const site = new StaticSite(this, 'Site', {
      prefix,
      siteDir: props.siteDir,
      retention,
      domain: config.domainName && zone && certificate ? { name: config.domainName, zone, certificate } : undefined,
    });
    this.distribution = site.distribution;

    const contact = new ContactApi(this, 'Contact', {
      prefix,
      table: this.table,
      environment: {
        MAIL_FROM: config.senderAddress,
        MAIL_TO: config.contactRecipient,
        RETENTION_DAYS: String(config.retentionDays),
      },
      retention,
      rateLimit: config.apiRateLimit,
      reservedConcurrency: config.reservedConcurrency === false ? undefined : config.reservedConcurrency,
    });
    this.api = contact.httpApi;
    site.routeApi(contact.httpApi);

    grantSendAs(config.senderAddress, contact.sendFunction, contact.retryFunction);

    new Alarms(this, 'Monitoring', { prefix, metricNamespace: `${APP_NAME}/${config.stage}`, contact, alarmEmail: config.alarmEmail });

    new CfnOutput(this, 'SiteUrl', {
      description: 'The public site',
      value: `https://${config.domainName ?? this.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, 'DistributionId', { description: 'For manual invalidations', value: this.distribution.distributionId });
    new CfnOutput(this, TABLE_NAME_OUTPUT, { description: 'Stored contact messages (npm run messages)', value: this.table.tableName });
    new CfnOutput(this, 'ApiUrl', { description: 'The API behind /api/* (direct calls are throttled)', value: this.api.apiEndpoint });
    if (props.mailIdentityExport) {
      // The import is what keeps the shared mail stack from being deleted under this stage.
      new CfnOutput(this, 'MailIdentityArn', {
        description: 'The SES identity this stage sends through, owned by the shared mail stack',
        value: Fn.importValue(props.mailIdentityExport),
      });
    }
  }
}
