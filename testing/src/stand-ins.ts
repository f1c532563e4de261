/**
 * What the run's global setup (test/setup/stand-ins.ts) started and read once for every test
 * file: DynamoDB's and SES's stand-ins, and the roles the IAM gates in front of them enforce
 * (emulators/src/iam-gate.ts), with the run's record of every call the gates evaluated.
 */
import { inject } from 'vitest';
import type { DeployedRoles } from '@site/core/node/deployed-roles';
import type { EmulatorUrls } from '@site/emulators/connections';
import { callLog, type GateCall } from '@site/emulators/iam-gate';
import { DEPLOYED_ROLES, IAM_CALL_LOG, STAND_INS } from './provided';

/** IAM as the local stack and the test stand-ins enforce it: the stage's roles, and where each call is recorded. */
export interface RunIam {
  roles: DeployedRoles;
  /** Where each evaluated call is written down; none for a test of roles of its own. */
  record?: (call: GateCall) => void;
}

function provided<T>(key: typeof STAND_INS | typeof DEPLOYED_ROLES | typeof IAM_CALL_LOG): T {
  const value = inject(key) as T | undefined;
  if (value === undefined)
    throw new Error(`No ${key} for this run: the root vitest.config.ts's globalSetup (test/setup/stand-ins.ts) provides it.`);
  return value;
}

let record: ((call: GateCall) => void) | undefined;

/** The stage's roles and the run's record of calls, for a gate or a local stack of a test file's own. */
export function runIam(): RunIam {
  record ??= callLog(provided<string>(IAM_CALL_LOG));
  return { roles: provided<DeployedRoles>(DEPLOYED_ROLES), record };
}

/** What a local stack on the run's stand-ins takes: `startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns() })`. */
export function runStandIns(): { standIns: EmulatorUrls; iam: RunIam } {
  return { standIns: provided<EmulatorUrls>(STAND_INS), iam: runIam() };
}
