/**
 * The Route 53 zone of the site's domain, for the site stack (alias records) and the
 * certificate stack (DNS validation).
 */
import { HostedZone, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct } from 'constructs';

export interface HostedZoneConfig {
  hostedZoneId?: string;
  hostedZoneName?: string;
}

/** Imported by id: a lookup by name would need credentials at synth. */
export function importHostedZone(scope: Construct, config: HostedZoneConfig): IHostedZone {
  if (!config.hostedZoneId || !config.hostedZoneName) throw new Error('importHostedZone needs hostedZoneId and hostedZoneName.');
  return HostedZone.fromHostedZoneAttributes(scope, 'Zone', {
    hostedZoneId: config.hostedZoneId,
    zoneName: config.hostedZoneName,
  });
}
