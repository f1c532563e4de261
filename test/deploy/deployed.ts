/**
 * What a deploy left in the account, as an operator reads it with the AWS CLI: a stack's status
 * and resources, the bootstrap's staging bucket, and a role's policies.
 */
import type { NamedPolicy, PolicyDocument } from '@site/core/node/deployed-roles';
import type { AwsCli } from './aws-cli';

export interface DeployedResource {
  logicalId: string;
  type: string;
  physicalId: string;
}

/** The stack's status, or undefined when CloudFormation no longer knows it. */
export async function stackStatus(aws: AwsCli, region: string, name: string): Promise<string | undefined> {
  try {
    return (await aws(region, 'cloudformation', 'describe-stacks', '--stack-name', name)).Stacks[0].StackStatus;
  } catch (error) {
    if (/does not exist/.test((error as Error).message)) return undefined;
    throw error;
  }
}

export async function stackResources(aws: AwsCli, region: string, name: string): Promise<DeployedResource[]> {
  const { StackResources } = await aws(region, 'cloudformation', 'describe-stack-resources', '--stack-name', name);
  return StackResources.map((resource: any) => ({
    logicalId: resource.LogicalResourceId,
    type: resource.ResourceType,
    physicalId: resource.PhysicalResourceId,
  }));
}

/** The bootstrap's bucket in a region, where the deploy put templates, function packages and the site build. */
export async function stagingBucket(aws: AwsCli, region: string): Promise<string> {
  const bucket = (await stackResources(aws, region, 'CDKToolkit')).find((resource) => resource.logicalId === 'StagingBucket');
  if (!bucket) throw new Error(`The CDKToolkit stack in ${region} has no StagingBucket.`);
  return bucket.physicalId;
}

/** A role's policies as IAM holds them in the account: its inline policies (a managed one fails: the app attaches none). */
export async function rolePolicies(aws: AwsCli, region: string, roleArn: string): Promise<NamedPolicy[]> {
  const roleName = roleArn.split('/').at(-1)!;
  const [attached, { PolicyNames }] = await Promise.all([
    aws(region, 'iam', 'list-attached-role-policies', '--role-name', roleName),
    aws(region, 'iam', 'list-role-policies', '--role-name', roleName),
  ]);
  if (attached.AttachedPolicies.length > 0) throw new Error(`${roleName} has managed policies, which the app never attaches.`);
  return Promise.all(
    (PolicyNames as string[]).map(async (name) => {
      const { PolicyDocument } = await aws(region, 'iam', 'get-role-policy', '--role-name', roleName, '--policy-name', name);
      const policy = (
        typeof PolicyDocument === 'string' ? JSON.parse(decodeURIComponent(PolicyDocument)) : PolicyDocument
      ) as PolicyDocument;
      return { name, policy };
    }),
  );
}
