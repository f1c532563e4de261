/**
 * Which stage's health the smoke check reads, and its section of the report: the local stack's
 * (its table, its SES, its alarm and schedules) for a site on this machine without AWS settings,
 * the stage's in AWS with them, and otherwise one line saying why not and what would allow it.
 * Each read needs only what HEALTH_PERMISSIONS names; a refusal says so on its line, and never
 * fails the smoke check.
 */
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { deliveryAlarmHoursFrom } from '@site/core/node/deploy-config';
import { UNDELIVERED_ALARM_MINUTES } from '@site/infra/alarm-catalogue';
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { emulatorClientConfig, loopbackUrl } from '@site/emulators/connections';
import { LOCAL_PORTS, LOCAL_STAGE } from '@site/local/defaults';
import { explain } from '../messages/explain';
import { regionText, resolveTarget, TargetError, usesLocalStack } from '../messages/target';
import { formatHealth, healthReport, readAccountHealth, readHealth, type AccountClients } from './health';

/** What the operator's credentials need for the health lines: read-only, as docs/on-call.md's policy gives them. */
export const HEALTH_PERMISSIONS =
  "dynamodb:Query on the table's byStatus index, cloudformation:DescribeStacks on the stage's stack to find the table, " +
  'cloudwatch:DescribeAlarms, ses:GetAccount, and events:DescribeRule on the stage’s two schedules (docs/on-call.md#smoke-checks)';

const REFUSED = new Set(['AccessDeniedException', 'AccessDenied', 'UnrecognizedClientException', 'ExpiredTokenException', 'ExpiredToken']);

const isThisMachine = (site: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(site).hostname);

/** CloudFront's, the certificate's and the WAF's alarms are in us-east-1 whatever the stage's region. */
const EDGE_REGION = 'us-east-1';

/** Where the health of `site` is read from, or why it is not. */
export function healthSource(
  env: NodeJS.ProcessEnv,
  site: string,
  stage: string | undefined,
): { from: 'local' | 'aws' } | { skip: string } {
  if (!usesLocalStack(env) || stage !== undefined) return { from: 'aws' };
  if (isThisMachine(site)) return { from: 'local' };
  return {
    skip:
      'no AWS settings in this shell. With AWS_PROFILE and AWS_REGION set for the stage, the smoke check also reads its alarms, ' +
      `SES's account, its schedules, its last delivery event, its oldest undelivered messages and its retry backlog; that takes ${HEALTH_PERMISSIONS}.`,
  };
}

/** The account's clients: the local stack's stand-ins as their administrator, or AWS as the SDK finds it in the environment. */
function accountClients(env: NodeJS.ProcessEnv, local: boolean): AccountClients {
  if (local) {
    const port = (setting: { variable: string; port: number }) => Number(env[setting.variable] || setting.port);
    const monitoring = emulatorClientConfig(loopbackUrl(port(LOCAL_PORTS.monitoring)));
    return {
      cloudWatch: [new CloudWatchClient({ ...AWS_CLIENT_OPTIONS, ...monitoring })],
      sesv2: new SESv2Client({
        ...AWS_CLIENT_OPTIONS,
        ...emulatorClientConfig(env.AWS_ENDPOINT_URL_SES || loopbackUrl(port(LOCAL_PORTS.ses))),
      }),
      events: new EventBridgeClient({ ...AWS_CLIENT_OPTIONS, ...monitoring }),
    };
  }
  return {
    cloudWatch: [new CloudWatchClient(AWS_CLIENT_OPTIONS), new CloudWatchClient({ ...AWS_CLIENT_OPTIONS, region: EDGE_REGION })],
    sesv2: new SESv2Client(AWS_CLIENT_OPTIONS),
    events: new EventBridgeClient(AWS_CLIENT_OPTIONS),
  };
}

/** The stage whose alarms and schedules are read: --stage, else cdk.json's; the local stack's for it. */
function stageOf(stage: string | undefined, local: boolean): string | undefined {
  if (local) return LOCAL_STAGE;
  const fromContext = CDK_JSON_CONTEXT.stage;
  return stage ?? (typeof fromContext === 'string' && fromContext !== '' ? fromContext : undefined);
}

/** The health section, or the one line that says why it could not be read. */
export async function readStageHealth(env: NodeJS.ProcessEnv, stage: string | undefined, now = new Date()): Promise<string> {
  let target;
  try {
    target = await resolveTarget(env, stage);
  } catch (error) {
    const why =
      error instanceof TargetError ? error.message : explain(error, { service: 'CloudFormation', where: `in ${regionText(env)}` });
    return `Health not read: ${why}`;
  }
  const local = usesLocalStack(env) && stage === undefined;
  const named = stageOf(stage, local);
  const where = local ? 'on this machine' : `in ${regionText(env)} and ${EDGE_REGION}`;
  const why = (error: unknown, service: string) =>
    `${explain(error, { service, where })}${REFUSED.has((error as { name?: string } | null)?.name ?? '') ? ` This line needs ${HEALTH_PERMISSIONS}.` : ''}`;
  const clients = accountClients(env, local);
  try {
    const [health, account] = await Promise.all([
      readHealth(target.table, now),
      named === undefined ? undefined : readAccountHealth(clients, named, why),
    ]);
    const limits = { waitingMinutes: UNDELIVERED_ALARM_MINUTES, deliveryAlarmHours: deliveryAlarmHoursFrom(CDK_JSON_CONTEXT) };
    const lines = healthReport(health, now, limits, account && named ? { stage: named, health: account } : undefined);
    const unnamed = named === undefined ? '\n  (alarms, SES and schedules not read: cdk.json names no stage; pass --stage <stage>)' : '';
    return `${formatHealth(`table ${target.table.name} ${target.where}`, lines)}${unnamed}`;
  } catch (error) {
    const said = explain(error, { service: 'DynamoDB', where: target.where, tableName: target.table.name });
    const refused = REFUSED.has((error as { name?: string } | null)?.name ?? '');
    return `Health not read: ${said}${refused ? ` The health lines need ${HEALTH_PERMISSIONS}.` : ''}`;
  } finally {
    for (const client of [...clients.cloudWatch, clients.sesv2, clients.events]) client.destroy();
  }
}
