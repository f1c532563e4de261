/**
 * Who may do what, as IAM decides it for the deployed stage: each function's role as the CDK
 * app synthesizes it (infra/lib/deployed-roles.ts reads them from the template), and the
 * operators' policies the guides document. The stand-ins evaluate every call against these
 * before they serve it (emulators/src/iam-gate.ts), so a call that AWS would refuse is refused
 * on this machine too, with the same error.
 *
 * What differs between a stage and a local stack or a test file (the table's name, the
 * sender, the configuration set) is a placeholder in the policies; `rolesFor` puts in the
 * names of the stack at hand. Plain data, so a test run's global setup hands it to every file.
 */

export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface NamedPolicy {
  name: string;
  policy: PolicyDocument;
}

export interface DeployedRoles {
  account: string;
  region: string;
  /**
   * Each principal's identity policies, by the name its calls are signed with on this machine
   * (the access key id): a function's name (FUNCTION_NAMES), or an operator policy's.
   */
  principals: Record<string, NamedPolicy[]>;
  /**
   * Grants of a function's role that no call of its own code makes, with the construct's reason
   * for keeping them (the Lambda runtime writes the function's log, say): the check of unused
   * grants (test/grants) passes these and fails any other grant no test's call used.
   */
  keptGrants: Record<string, KeptGrant[]>;
}

/** A grant kept without a call of the function's code to use it: the construct says why (infra/lib/kept-grants.ts). */
export interface KeptGrant {
  actions: string[];
  reason: string;
}

/** The names a stack gives its resources, which the policies hold as placeholders. */
export interface StageNames {
  table: string;
  senderAddress: string;
  configurationSet: string;
}

export const NAME_PLACEHOLDERS: StageNames = {
  table: '${Table}',
  senderAddress: '${SenderAddress}',
  configurationSet: '${ConfigurationSet}',
};

/** The roles with this stack's names in place of the placeholders. */
export function rolesFor(roles: DeployedRoles, names: StageNames): DeployedRoles {
  let json = JSON.stringify(roles.principals);
  for (const key of Object.keys(NAME_PLACEHOLDERS) as (keyof StageNames)[]) {
    json = json.replaceAll(NAME_PLACEHOLDERS[key], JSON.stringify(names[key]).slice(1, -1));
  }
  return { ...roles, principals: JSON.parse(json) as DeployedRoles['principals'] };
}
