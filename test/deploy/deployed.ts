/**
 * What a deploy left in the account, as an operator reads it with the AWS CLI: a stack's status
 * and resources, and the bootstrap's staging bucket.
 */
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
