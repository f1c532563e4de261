/**
 * The SES identity the functions send through, and the grant to send as senderAddress only.
 * A domain identity (DKIM records in Route 53) when the sender's domain is the hosted zone;
 * otherwise the one address, verified by the link SES mails to it.
 */
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IHostedZone } from 'aws-cdk-lib/aws-route53';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface MailIdentityProps {
  senderAddress: string;
  /** The site's zone; the identity is the whole domain when the sender's domain is this zone. */
  zone?: IHostedZone;
  /** false: another stage in this account and region already created the identity. */
  create: boolean;
}

export class MailIdentity extends Construct {
  readonly identityArn: string;
  private readonly senderAddress: string;

  constructor(scope: Construct, id: string, props: MailIdentityProps) {
    super(scope, id);
    this.senderAddress = props.senderAddress;
    const zone = props.zone;
    const senderDomain = props.senderAddress.split('@')[1];
    const domainZone = zone !== undefined && senderDomain === zone.zoneName ? zone : undefined;
    this.identityArn = props.create
      ? new EmailIdentity(this, 'Identity', {
          identity: domainZone ? Identity.publicHostedZone(domainZone) : Identity.email(props.senderAddress),
        }).emailIdentityArn
      : Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: domainZone?.zoneName ?? props.senderAddress });
  }

  /** SendEmail through this identity, with senderAddress as the From address and no other. */
  grantSendAsSender(...grantees: IGrantable[]): void {
    const statement = new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [this.identityArn],
      conditions: { StringEquals: { 'ses:FromAddress': this.senderAddress } },
    });
    for (const grantee of grantees) grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }
}
