/**
 * Each function's role as this app deploys it, read from the synthesized site stack: the
 * identity policies attached to it, with CloudFormation's intrinsics resolved to what they are
 * in an account, and the stage's own names (table, sender, configuration set) as placeholders
 * (core/node/deployed-roles.ts). Not deployed: the local stack and the tests hand these to the
 * stand-ins, which evaluate every call a function makes against them as IAM would
 * (emulators/src/iam-gate.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import type { Config } from '@site/core/node/deploy-config';
import { NAME_PLACEHOLDERS, type DeployedRoles, type NamedPolicy, type PolicyDocument } from '@site/core/node/deployed-roles';
import { configurationSetName, FUNCTION_NAMES, stagePrefix } from '@site/core/names';
import { buildApp, type SiteApp } from './app';
import { KEPT_GRANT_METADATA, type KeptGrantMetadata } from './kept-grants';

/** The account and region the intrinsics resolve to: any will do, as long as the requests' ARNs say the same. */
export const ROLES_ACCOUNT = '123456789012';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Resources = Record<string, { Type: string; Properties?: Record<string, Json> }>;

/** CloudFormation intrinsics turned into the values they have in the account, the table's name a placeholder. */
function resolver(resources: Resources, region: string) {
  const pseudo: Record<string, string> = {
    'AWS::AccountId': ROLES_ACCOUNT,
    'AWS::Region': region,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const arnOf = (id: string): string => {
    const resource = resources[id];
    switch (resource?.Type) {
      case 'AWS::DynamoDB::Table':
        return `arn:aws:dynamodb:${region}:${ROLES_ACCOUNT}:table/${NAME_PLACEHOLDERS.table}`;
      case 'AWS::Logs::LogGroup':
        return `arn:aws:logs:${region}:${ROLES_ACCOUNT}:log-group:${resource.Properties!.LogGroupName as string}:*`;
      default:
        throw new Error(
          `A function's policy names ${id} (${resource?.Type}), whose ARN deployed-roles.ts cannot resolve: add its type there.`,
        );
    }
  };
  const resolve = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const [key, argument] = Object.entries(value)[0] ?? [];
    if (Object.keys(value).length === 1 && (key === 'Ref' || key?.startsWith('Fn::'))) {
      if (key === 'Ref') {
        const resource = resources[argument as string];
        // A configuration set's Ref is its name.
        if (resource?.Type === 'AWS::SES::ConfigurationSet') return resource.Properties!.Name as string;
        if ((argument as string) in pseudo) return pseudo[argument as string]!;
      }
      if (key === 'Fn::GetAtt' && (argument as string[])[1] === 'Arn') return arnOf((argument as string[])[0]!);
      if (key === 'Fn::Join') {
        const [separator, parts] = argument as [string, Json[]];
        return parts.map((part) => resolve(part) as string).join(separator);
      }
      throw new Error(`A function's policy holds ${JSON.stringify(value)}, which deployed-roles.ts cannot resolve.`);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  };
  return resolve;
}

/** What deployedRoles reads: a site stack's template, and the stage's settings it was made with. */
export interface SiteTemplate {
  template: { Resources: Resources };
  region: string;
  config: Pick<Config, 'stage' | 'senderAddress'>;
}

/** The functions' roles in a synthesized site stack: every policy attached to each function's role. */
export function deployedRoles({ template, region, config }: SiteTemplate): DeployedRoles {
  const resources = template.Resources;
  const resolve = resolver(resources, region);
  const principals: DeployedRoles['principals'] = {};
  for (const fn of FUNCTION_NAMES) {
    const functionName = `${stagePrefix(config.stage)}-${fn}`;
    const found = Object.values(resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.FunctionName === functionName);
    if (!found) throw new Error(`No function ${functionName} in the site stack.`);
    const roleId = (found.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const role = resources[roleId]!.Properties ?? {};
    // A managed policy's statements are not in the template: a role must not depend on one.
    if (role.ManagedPolicyArns) throw new Error(`${functionName}'s role has managed policies, which deployed-roles.ts cannot read.`);
    const inline: NamedPolicy[] = ((role.Policies ?? []) as { PolicyName: string; PolicyDocument: Json }[]).map((p) => ({
      name: p.PolicyName,
      policy: resolve(p.PolicyDocument) as unknown as PolicyDocument,
    }));
    const attached: NamedPolicy[] = Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as { Ref?: string }[]).some((ref) => ref.Ref === roleId))
      .map(([id, r]) => ({ name: id, policy: resolve(r.Properties!.PolicyDocument as Json) as unknown as PolicyDocument }));
    principals[fn] = [...inline, ...attached];
  }
  // The stage's own names become placeholders, for rolesFor to put in another stack's.
  const json = JSON.stringify(principals)
    .replaceAll(JSON.stringify(config.senderAddress), JSON.stringify(NAME_PLACEHOLDERS.senderAddress))
    .replaceAll(`:configuration-set/${configurationSetName(config.stage)}"`, `:configuration-set/${NAME_PLACEHOLDERS.configurationSet}"`);
  return { account: ROLES_ACCOUNT, region, principals: JSON.parse(json) as DeployedRoles['principals'], keptGrants: {} };
}

/** The roles of an app built in this process (buildApp), as its synth makes them. */
export function deployedRolesOf(built: SiteApp): DeployedRoles {
  const app = built.site.node.root as App;
  const template = app.synth().getStackByName(built.site.stackName).template as SiteTemplate['template'];
  const roles = deployedRoles({ template, region: built.site.region, config: built.config });
  const prefix = `${stagePrefix(built.config.stage)}-`;
  for (const construct of built.site.node.findAll()) {
    for (const { type, data } of construct.node.metadata) {
      if (type !== KEPT_GRANT_METADATA) continue;
      const { functionName, actions, reason } = data as KeptGrantMetadata;
      (roles.keptGrants[functionName.slice(prefix.length)] ??= []).push({ actions, reason });
    }
  }
  return roles;
}

/**
 * Addresses for a synth that only reads the roles, when cdk.json has none: the policies hold
 * the sender only as a placeholder, so any address the settings accept will do.
 */
const ADDRESSES_FOR_ROLES = { contactRecipient: 'kantoor@rollen-lezen.nl', senderAddress: 'website@rollen-lezen.nl' };

/**
 * Synthesizes the app with cdk.json's settings, as `cdk synth` would, and reads the functions'
 * roles. No bundling and no site: neither changes a role.
 */
export function synthesizeDeployedRoles(context: Record<string, unknown> = {}): DeployedRoles {
  const dir = mkdtempSync(join(tmpdir(), 'deployed-roles-'));
  try {
    const siteDir = join(dir, 'site');
    mkdirSync(siteDir);
    for (const page of ['index.html', '404.html']) writeFileSync(join(siteDir, page), '<!doctype html><title>roles</title>');
    const app = new App({
      context: { ...ADDRESSES_FOR_ROLES, ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context },
      outdir: join(dir, 'cdk.out'),
    });
    return deployedRolesOf(buildApp(app, { siteDir }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
