/**
 * A grant that no call of the function's own code makes, kept on purpose: the construct that
 * grants it says why here, as metadata on the function. The check of unused grants (test/grants)
 * reads it (deployed-roles.ts) and passes these grants; any other grant no test's call used fails
 * that check, by name.
 */
import type { Construct } from 'constructs';
import type { KeptGrant } from '@site/core/node/deployed-roles';

export const KEPT_GRANT_METADATA = 'site:kept-grant';

export interface KeptGrantMetadata extends KeptGrant {
  functionName: string;
}

export function keepGrant(fn: Construct, functionName: string, grant: KeptGrant): void {
  fn.node.addMetadata(KEPT_GRANT_METADATA, { functionName, ...grant } satisfies KeptGrantMetadata);
}
