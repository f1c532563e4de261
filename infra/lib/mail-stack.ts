/**
 * The sender's SES identity, in a small stack of its own per identity, account and region.
 * An identity's name is the address or domain itself, so two stages that send as the same
 * sender must share one: each synthesizes this same stack, and each imports its export, so
 * CloudFormation refuses to delete it while any stage still sends through it, and deletes
 * it with the last one (nothing is retained under a fixed name to block a later deploy).
 */
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Config } from '@site/core/node/deploy-config';
import { MailIdentity } from './constructs/mail-identity';
import { importHostedZone } from './hosted-zone';

export interface MailStackProps extends StackProps {
  config: Pick<Config, 'senderAddress' | 'verifySenderDomain' | 'hostedZoneId' | 'hostedZoneName'>;
}

export class MailStack extends Stack {
  /** The export every stage imports: its name is fixed by the stack's name. */
  readonly identityArnExport: string;

  constructor(scope: Construct, id: string, props: MailStackProps) {
    super(scope, id, props);
    const { config } = props;
    const senderDomain = config.senderAddress.split('@')[1]!.toLowerCase();
    const zone = config.hostedZoneId && config.hostedZoneName === senderDomain ? importHostedZone(this, config) : undefined;
    const identity = new MailIdentity(this, 'Mail', { senderAddress: config.senderAddress, verifyDomain: config.verifySenderDomain, zone });

    this.identityArnExport = `${this.stackName}-identity-arn`;
    new CfnOutput(this, 'IdentityArn', {
      description: 'The SES identity the stages send through; each stage imports it',
      value: identity.identityArn,
      exportName: this.identityArnExport,
    });
    for (const [index, record] of identity.dkimRecordsToPublish.entries()) {
      new CfnOutput(this, `DkimRecord${index + 1}`, {
        description: `DKIM record ${index + 1} of 3 for ${senderDomain}: add it at the domain's DNS provider`,
        value: Fn.join(' ', [record.name, 'CNAME', record.value]),
      });
    }
  }
}
