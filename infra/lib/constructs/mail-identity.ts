/**
 * The SES identity the functions send through. With verifyDomain, the sender's whole domain
 * with Easy DKIM, which is what aligns with the From domain for DMARC: the three DKIM
 * records go into the hosted zone when it is the sender's domain, otherwise the firm adds
 * them at its DNS provider (dkimRecords). Without it, the one address, verified by the
 * link SES mails to it.
 */
import { EmailIdentity, Identity, type DkimRecord } from 'aws-cdk-lib/aws-ses';
import type { IHostedZone } from 'aws-cdk-lib/aws-route53';
import { Construct } from 'constructs';

export interface MailIdentityProps {
  senderAddress: string;
  verifyDomain: boolean;
  /** A Route 53 zone the stack may write to; used when it is the sender's domain. */
  zone?: IHostedZone;
}

/** What SES calls the identity: the sender's domain, or the address itself. */
export function mailIdentityName(senderAddress: string, verifyDomain: boolean): string {
  return verifyDomain ? senderAddress.split('@')[1]!.toLowerCase() : senderAddress;
}

export class MailIdentity extends Construct {
  readonly identityArn: string;
  /** The DKIM CNAMEs someone must publish by hand: empty when there are none or the zone has them. */
  readonly dkimRecordsToPublish: DkimRecord[];

  constructor(scope: Construct, id: string, props: MailIdentityProps) {
    super(scope, id);
    const name = mailIdentityName(props.senderAddress, props.verifyDomain);
    const zone = props.verifyDomain && props.zone?.zoneName === name ? props.zone : undefined;
    const identity = new EmailIdentity(this, 'Identity', {
      identity: zone ? Identity.publicHostedZone(zone) : props.verifyDomain ? Identity.domain(name) : Identity.email(name),
    });
    this.identityArn = identity.emailIdentityArn;
    this.dkimRecordsToPublish = props.verifyDomain && !zone ? identity.dkimRecords : [];
  }
}
