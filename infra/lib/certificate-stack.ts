/**
 * CloudFront only uses certificates from us-east-1, so the site's certificate lives in a
 * small stack of its own there; the site stack reads its ARN across regions.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import type { Construct } from 'constructs';
import type { Config } from '@site/core/node/deploy-config';
import { importHostedZone } from './hosted-zone';

export interface CertificateStackProps extends StackProps {
  config: Config & { domainName: string };
}

export class CertificateStack extends Stack {
  readonly certificate: Certificate;

  constructor(scope: Construct, id: string, props: CertificateStackProps) {
    super(scope, id, props);
    // DNS validation in the site's own zone: issued and renewed without anyone clicking a mail.
    this.certificate = new Certificate(this, 'Certificate', {
      domainName: props.config.domainName,
      validation: CertificateValidation.fromDns(importHostedZone(this, props.config)),
    });
  }
}
