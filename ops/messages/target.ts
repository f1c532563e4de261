/**
 * Which table `npm run messages` works on, and where. With nothing configured, the local
 * stack as `npm start` runs it; with AWS_REGION (or AWS_PROFILE), AWS, where the table is
 * the one the stage's stack names in its outputs. TABLE_NAME names a table outright.
 */
import { CDK_JSON_CONTEXT } from '@site/core/cdk-context';
import { siteStackName, TABLE_NAME_OUTPUT } from '@site/core/names';
import { EMULATOR_ENV, LOCAL_MAIL, LOCAL_PORTS, loopbackUrl, type PortSetting } from '@site/local/defaults';
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { DEFAULT_TABLE_NAME } from '@site/core/table';

export interface Target {
  tableName: string;
  /** Where DynamoDB is, for messages: "at <endpoint URL>" or "in <region>". */
  where: string;
  /** Where SES is, likewise. */
  sesWhere: string;
}

/** A failure with a sentence of its own, shown as it is. */
export class TargetError extends Error {}

const AWS_SETTINGS = ['AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE'];

export function usesLocalStack(env: NodeJS.ProcessEnv): boolean {
  return AWS_SETTINGS.every((name) => !env[name]);
}

function localPort(env: NodeJS.ProcessEnv, setting: PortSetting): number {
  const raw = env[setting.variable];
  if (!raw) return setting.port;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new TargetError(`${setting.variable}=${raw} is not a port number.`);
  return port;
}

/** Sets the SDK's own variables to the local stack's emulators, so the store and mail modules need no local branch. */
function pointAtLocalStack(env: NodeJS.ProcessEnv): void {
  Object.assign(env, {
    AWS_ENDPOINT_URL_DYNAMODB: loopbackUrl(localPort(env, LOCAL_PORTS.dynamodb)),
    AWS_ENDPOINT_URL_SES: env.AWS_ENDPOINT_URL_SES || loopbackUrl(localPort(env, LOCAL_PORTS.ses)),
    MAIL_FROM: env.MAIL_FROM || LOCAL_MAIL.from,
    MAIL_TO: env.MAIL_TO || LOCAL_MAIL.to,
    AWS_REGION: EMULATOR_ENV.AWS_REGION,
    AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID || EMULATOR_ENV.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY || EMULATOR_ENV.AWS_SECRET_ACCESS_KEY,
  });
}

/** The region the SDK will use, as words for a message. */
export function regionText(env: NodeJS.ProcessEnv): string {
  return env.AWS_REGION || env.AWS_DEFAULT_REGION || 'the profile’s region';
}

function defaultStage(): string {
  const stage = CDK_JSON_CONTEXT.stage;
  if (typeof stage !== 'string' || stage === '') throw new TargetError('cdk.json names no stage: pass --stage <stage> or set TABLE_NAME.');
  return stage;
}

/** The table the stage's stack created, from its CloudFormation outputs. */
async function tableOfStack(stackName: string, region: string): Promise<string> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient(AWS_CLIENT_OPTIONS);
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const tableName = Stacks[0]?.Outputs?.find((output) => output.OutputKey === TABLE_NAME_OUTPUT)?.OutputValue;
    if (!tableName) throw new TargetError(`Stack ${stackName} in ${region} has no ${TABLE_NAME_OUTPUT} output; set TABLE_NAME.`);
    return tableName;
  } catch (error) {
    // CloudFormation answers a stack it does not know with a ValidationError.
    if ((error as { name?: string }).name === 'ValidationError') {
      throw new TargetError(
        `Stack ${stackName} does not exist in ${region}. Pass --stage <stage>, set AWS_REGION to its region, or set TABLE_NAME.`,
      );
    }
    throw error;
  } finally {
    client.destroy();
  }
}

/** Settles the environment the SDK clients read and names the table. Call before the store is first used. */
export async function resolveTarget(env: NodeJS.ProcessEnv, stage: string | undefined): Promise<Target> {
  const local = usesLocalStack(env) && stage === undefined;
  if (local) pointAtLocalStack(env);
  const place = (endpoint: string | undefined) => (endpoint ? `at ${endpoint}` : `in ${regionText(env)}`);
  const where = place(env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL);
  const sesWhere = place(env.AWS_ENDPOINT_URL_SES || env.AWS_ENDPOINT_URL);
  if (env.TABLE_NAME) return { tableName: env.TABLE_NAME, where, sesWhere };
  // An endpoint without a stage is an emulator, which has the local stack's table.
  if (local || (stage === undefined && (env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL))) {
    return { tableName: DEFAULT_TABLE_NAME, where, sesWhere };
  }
  return { tableName: await tableOfStack(siteStackName(stage ?? defaultStage()), regionText(env)), where, sesWhere };
}
