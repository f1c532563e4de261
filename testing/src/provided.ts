/** What the run's global setup (test/setup/stand-ins.ts) hands every test file, by name. */
import type { DeployedRoles } from '@site/core/node/deployed-roles';
import type { EmulatorUrls } from '@site/emulators/connections';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB's and SES's stand-ins, shared by every file (each makes a table and an outbox of its own). */
    standIns: EmulatorUrls;
    /** Each function's role as the CDK app synthesizes it, and the operators' documented policies. */
    deployedRoles: DeployedRoles;
    /** Where the IAM gates write down every call they evaluated, for the check of unused grants. */
    iamCallLog: string;
  }
}

export const STAND_INS = 'standIns';
export const DEPLOYED_ROLES = 'deployedRoles';
export const IAM_CALL_LOG = 'iamCallLog';
