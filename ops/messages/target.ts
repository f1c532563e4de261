/**
 * Which table `npm run messages` works on, where, and the clients that reach it. With
 * nothing configured, the local stack as `npm start` runs it; with AWS_REGION (or
 * AWS_PROFILE), AWS, where the table is the one the stage's stack names in its outputs.
 * TABLE_NAME names a table outright.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { configurationSetName, siteStackName, TABLE_NAME_OUTPUT } from '@site/core/names';
import { DEFAULT_TABLE_NAME } from '@site/core/table';
import { SES_CLIENT_OPTIONS, type Connection } from '@site/lambda/aws';
import type { MessageTable } from '@site/lambda/store';
import { CONTACT_RECIPIENT_VARIABLE, LOCAL_CONFIGURATION_SET, LOCAL_MAIL, LOCAL_PORTS, type PortSetting } from '@site/local/defaults';
import { emulatorClientConfig, loopbackUrl, type EmulatorUrls } from '@site/emulators/connections';

export interface Target {
  /** The table, and the client that reaches it. */
  table: MessageTable;
  ses: SESClient;
  /** Where DynamoDB is, for messages: "at <endpoint URL>" or "in <region>". */
  where: string;
  /** Where SES is, likewise. */
  sesWhere: string;
  /**
   * Who resend mails from and to when MAIL_FROM and MAIL_TO are not set, and the
   * configuration set it sends through when SES_CONFIGURATION_SET is not: the stage's.
   */
  mailFallback: { from?: string; to?: string; configurationSet?: string };
}

/**
 * The operator's clients of DynamoDB and CloudFormation. The functions' are made for a visitor
 * waiting (two attempts, 2 s a request); a command here may take its time, and must finish
 * against a busy table in AWS: the SDK's adaptive retry mode, which backs off a throttled
 * request and slows the client's own rate while DynamoDB throttles, more attempts, and more time
 * for each request. A write retried after a timeout may have been applied already: every write
 * of these commands is conditional, so it changes an item once. Few enough attempts that an
 * endpoint that is not there is said so within seconds.
 */
export const OPERATOR_CLIENT_OPTIONS = {
  retryMode: 'adaptive',
  maxAttempts: 6,
  requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000, throwOnRequestTimeout: true },
} satisfies DynamoDBClientConfig;

/**
 * The table's client with the operator's options, and SES's with the functions' own: one attempt
 * (a resend SES took but did not answer in time would otherwise go out twice).
 */
function operatorClients(connections: { dynamodb?: Connection; ses?: Connection }): { documents: DynamoDBDocumentClient; ses: SESClient } {
  return {
    documents: DynamoDBDocumentClient.from(new DynamoDBClient({ ...OPERATOR_CLIENT_OPTIONS, ...connections.dynamodb })),
    ses: new SESClient({ ...SES_CLIENT_OPTIONS, ...connections.ses }),
  };
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

/** The local stack's emulators, on the ports `npm start` reads. */
function localStackUrls(env: NodeJS.ProcessEnv): EmulatorUrls {
  return {
    dynamodb: loopbackUrl(localPort(env, LOCAL_PORTS.dynamodb)),
    ses: env.AWS_ENDPOINT_URL_SES || loopbackUrl(localPort(env, LOCAL_PORTS.ses)),
  };
}

/** cdk.json's sender and recipient, when the operator keeps them there. */
function contextMail(): Target['mailFallback'] {
  const fromContext = (key: string) => {
    const value = CDK_JSON_CONTEXT[key];
    return typeof value === 'string' ? value : undefined;
  };
  return { from: fromContext('senderAddress'), to: fromContext('contactRecipient') };
}

/** The region the SDK will use, as words for a message. */
export function regionText(env: NodeJS.ProcessEnv): string {
  return env.AWS_REGION || env.AWS_DEFAULT_REGION || 'the profile’s region';
}

/** cdk.json's stage, if it names one. */
function contextStage(): string | undefined {
  const stage = CDK_JSON_CONTEXT.stage;
  return typeof stage === 'string' && stage !== '' ? stage : undefined;
}

function defaultStage(): string {
  const stage = contextStage();
  if (stage === undefined) throw new TargetError('cdk.json names no stage: pass --stage <stage> or set TABLE_NAME.');
  return stage;
}

/** The table the stage's stack created, from its CloudFormation outputs. */
async function tableOfStack(stackName: string, region: string): Promise<string> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient(OPERATOR_CLIENT_OPTIONS);
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

/** An endpoint without a stage is an emulator, which has the local stack's table and configuration set. */
const isEmulator = (env: NodeJS.ProcessEnv, stage: string | undefined) =>
  stage === undefined && Boolean(env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL);

async function tableNameFor(env: NodeJS.ProcessEnv, stage: string | undefined, local: boolean): Promise<string> {
  if (env.TABLE_NAME) return env.TABLE_NAME;
  if (local || isEmulator(env, stage)) return DEFAULT_TABLE_NAME;
  return tableOfStack(siteStackName(stage ?? defaultStage()), regionText(env));
}

/** The configuration set the stage's functions send through, when the stage is known. */
function configurationSetFor(stage: string | undefined, local: boolean, env: NodeJS.ProcessEnv): string | undefined {
  if (local || isEmulator(env, stage)) return LOCAL_CONFIGURATION_SET;
  const known = stage ?? contextStage();
  return known === undefined ? undefined : configurationSetName(known);
}

/**
 * The table and the clients for it: the local stack's emulators, or AWS as the SDK finds it
 * in the environment (region, profile, endpoints). The environment is read, never changed.
 */
export async function resolveTarget(env: NodeJS.ProcessEnv, stage: string | undefined): Promise<Target> {
  const local = usesLocalStack(env) && stage === undefined;
  const urls = local ? localStackUrls(env) : undefined;
  // The local stack's stand-ins as their administrator, as an operator works on a stage with the account's rights.
  const clients = operatorClients(urls ? { dynamodb: emulatorClientConfig(urls.dynamodb), ses: emulatorClientConfig(urls.ses) } : {});
  const place = (endpoint: string | undefined) => (endpoint ? `at ${endpoint}` : `in ${regionText(env)}`);
  return {
    table: { name: await tableNameFor(env, stage, local), client: clients.documents },
    ses: clients.ses,
    where: place(urls?.dynamodb ?? (env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL)),
    sesWhere: place(urls?.ses ?? (env.AWS_ENDPOINT_URL_SES || env.AWS_ENDPOINT_URL)),
    mailFallback: {
      ...(local ? { from: LOCAL_MAIL.from, to: env[CONTACT_RECIPIENT_VARIABLE] || LOCAL_MAIL.to } : contextMail()),
      configurationSet: configurationSetFor(stage, local, env),
    },
  };
}
