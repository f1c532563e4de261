/**
 * The whole site in one stack, composed in the order of the architecture: storage, site,
 * API and functions, mail and its delivery events, monitoring (saved queries, alarms, the
 * dashboard), outputs. Each part is a construct of its own in constructs/.
 */
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ILogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IVersion } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '@site/core/api-origin';
import {
  DELIVERY_ALARM_ENV,
  FUNCTION_ENV,
  HELD_PAGE_ENV,
  MAIL_BUDGET_ENV,
  ORIGIN_VERIFY_ENV,
  VISITOR_LIMIT_ENV,
} from '@site/core/function-env';
import type { Config } from '@site/core/node/deploy-config';
import type { AlarmLinks, AlarmName } from './alarm-catalogue';
import { dashboardUrl, savedQueryUrl } from './console-links';
import { Alarms } from './constructs/alarms';
import { ContactApi } from './constructs/contact-api';
import { SiteDashboard } from './constructs/dashboard';
import { DeliveryEvents } from './constructs/delivery-events';
import { SavedQueries } from './constructs/log-queries';
import { grantSendAs } from './constructs/mail-sending';
import { MessageTable } from './constructs/message-table';
import { OriginSecret } from './constructs/origin-secret';
import { OutsideCheck } from './constructs/outside-check';
import { StaticSite } from './constructs/static-site';
import { importHostedZone } from './hosted-zone';
import { ALARM_QUERIES, isEdgeQuery, LOG_QUERIES, type LogQueryName, type LogSource } from './log-queries';
import { APP_NAME, configurationSetName, stagePrefix, TABLE_NAME_OUTPUT } from '@site/core/names';

export interface SiteStackProps extends StackProps {
  config: Config;
  /** The built site, normally frontend/dist; the tests pass a small stand-in. */
  siteDir: string;
  /** For config.domainName when config.certificateArn is not set: from the us-east-1 certificate stack. */
  certificate?: ICertificate;
  /** The export of the mail stack that owns the sender's identity; none when it exists outside the app. */
  mailIdentityExport?: string;
  /** The us-east-1 web ACL from the WAF stack, with config.wafRateLimit. */
  webAclArn?: string;
  /** The /api/* behaviour's Lambda@Edge function on the origin's response, from the us-east-1 API edge stack. */
  apiOriginResponse: IVersion;
  /** The us-east-1 alarms the dashboard draws (that stack is made after this one, so they are found by name). */
  edgeAlarms: AlarmName[];
}

export class SiteStack extends Stack {
  readonly distribution: Distribution;
  readonly table: MessageTable;
  readonly api: HttpApi;
  /** Where each alarm's e-mail sends its reader, in this stack's region: the dashboard, and the saved query for its metric. */
  readonly alarmLinks: (name: AlarmName) => AlarmLinks;
  /** The stage's dashboard (the DashboardUrl output). */
  readonly dashboardUrl: string;

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
      webAclArn: props.webAclArn,
      hstsIncludeSubdomains: config.hstsIncludeSubdomains,
    });
    this.distribution = site.distribution;

    const siteUrl = `https://${config.domainName ?? this.distribution.distributionDomainName}`;
    const originSecret = new OriginSecret(this, 'OriginSecret', {
      prefix,
      version: config.originSecretVersion,
      previousVersion: config.originSecretPreviousVersion,
    });

    // Before the functions: every e-mail they send goes through its configuration set.
    const deliveryEvents = new DeliveryEvents(this, 'DeliveryEvents', {
      prefix,
      configurationSetName: configurationSetName(config.stage),
      table: this.table,
      retention,
      stage: config.stage,
    });

    const contact = new ContactApi(this, 'Contact', {
      prefix,
      table: this.table,
      environment: {
        [FUNCTION_ENV.mailFrom]: config.senderAddress,
        [FUNCTION_ENV.mailTo]: config.contactRecipient,
        [FUNCTION_ENV.retentionDays]: String(config.retentionDays),
        [FUNCTION_ENV.configurationSet]: deliveryEvents.configurationSetName,
        [FUNCTION_ENV.stage]: config.stage,
      },
      requestEnvironment: {
        ...originSecret.functionEnvironment,
        [VISITOR_LIMIT_ENV.messages]: String(config.visitorLimit.messages),
        [VISITOR_LIMIT_ENV.ipv6Network]: String(config.ipv6NetworkLimit),
        [VISITOR_LIMIT_ENV.windowSeconds]: String(config.visitorLimit.windowMinutes * 60),
        [MAIL_BUDGET_ENV.perHour]: String(config.mailBudget.perHour),
        [MAIL_BUDGET_ENV.perDay]: String(config.mailBudget.perDay),
        [MAIL_BUDGET_ENV.sitePerHour]: String(config.siteMailBudget.perHour),
        [MAIL_BUDGET_ENV.sitePerDay]: String(config.siteMailBudget.perDay),
        [HELD_PAGE_ENV.spamRetentionDays]: String(config.spamRetentionDays),
      },
      retryEnvironment: {
        [DELIVERY_ALARM_ENV.minutes]: String(config.deliveryAlarmHours * 60),
        // The digest's link to the page of held messages: the site's address, and the secret its key is derived from
        // (the current one: the contact function accepts links signed with it and, during a rotation, the previous one).
        [HELD_PAGE_ENV.siteUrl]: siteUrl,
        [ORIGIN_VERIFY_ENV.current]: originSecret.headerValue,
      },
      retention,
      rateLimit: config.apiRateLimit,
      reservedConcurrency: config.reservedConcurrency === false ? undefined : config.reservedConcurrency,
    });
    this.api = contact.httpApi;
    site.routeApi(contact.httpApi, originSecret.headerValue, props.apiOriginResponse);

    deliveryEvents.sendThrough(contact.sendFunction, contact.retryFunction);
    grantSendAs(config.senderAddress, deliveryEvents.configurationSetName, contact.sendFunction, contact.retryFunction);

    const outsideCheck = new OutsideCheck(this, 'OutsideCheck', {
      prefix,
      stage: config.stage,
      siteUrl,
      originSecret: originSecret.headerValue,
      retention,
    });

    const logGroups: Record<LogSource, ILogGroup> = {
      'send-contact-email': contact.sendFunction.logGroup,
      'retry-undelivered': contact.retryFunction.logGroup,
      'record-delivery-event': deliveryEvents.consumer.logGroup,
      'outside-check': outsideCheck.function.logGroup,
      'api-access-log': contact.accessLogs,
    };
    const queries = new SavedQueries<LogQueryName, LogSource>(this, 'Queries', { prefix, queries: LOG_QUERIES, logGroups });
    this.dashboardUrl = dashboardUrl(this.region, prefix);
    this.alarmLinks = (name) => {
      const query = ALARM_QUERIES[name];
      if (isEdgeQuery(query)) throw new Error(`${name} links to ${query}, a query of the us-east-1 stack.`);
      return {
        dashboard: this.dashboardUrl,
        query: { name: queries.nameOf(query), id: queries.idOf(query), url: (id) => savedQueryUrl(this.region, id) },
      };
    };
    const monitoring = new Alarms(this, 'Monitoring', {
      prefix,
      stage: config.stage,
      metricNamespace: `${APP_NAME}/${config.stage}`,
      contact,
      deliveryEvents,
      alarmEmail: config.alarmEmail,
      pageTo: config.pageTo,
      links: this.alarmLinks,
    });
    new SiteDashboard(this, 'Dashboard', {
      name: prefix,
      stage: config.stage,
      contact,
      deliveryEvents,
      outsideCheck: outsideCheck.function,
      table: this.table,
      alarms: [...monitoring.composites, ...monitoring.alarms],
      edgeAlarms: props.edgeAlarms,
      queries,
    });

    new CfnOutput(this, 'DashboardUrl', {
      description: 'Where on call starts (docs/on-call.md): the path, the alarms, the logs',
      value: this.dashboardUrl,
    });
    new CfnOutput(this, 'SiteUrl', {
      description: 'The public site',
      value: siteUrl,
    });
    new CfnOutput(this, 'DistributionId', { description: 'For manual invalidations', value: this.distribution.distributionId });
    new CfnOutput(this, TABLE_NAME_OUTPUT, { description: 'Stored contact messages (npm run messages)', value: this.table.tableName });
    new CfnOutput(this, 'ApiUrl', {
      description: `The API behind /api/*; calls without CloudFront's ${ORIGIN_VERIFY_HEADER} are refused (npm run smoke -- <SiteUrl> --api <ApiUrl>)`,
      value: this.api.apiEndpoint,
    });
    new CfnOutput(this, 'OriginSecretArn', {
      description: 'The origin secret CloudFront sends to the API; rotate it as docs/on-call.md says',
      value: originSecret.secret.secretArn,
    });
    if (props.mailIdentityExport) {
      // The import is what keeps the shared mail stack from being deleted under this stage.
      new CfnOutput(this, 'MailIdentityArn', {
        description: 'The SES identity this stage sends through, owned by the shared mail stack',
        value: Fn.importValue(props.mailIdentityExport),
      });
    }
  }
}
