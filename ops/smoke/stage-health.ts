/**
 * Which stage's health the smoke check reads, and its section of the report: the local
 * stack's table for a site on this machine without AWS settings, the stage's table in AWS with
 * them, and otherwise one line saying why not and what would allow it. Reading the table needs
 * only what HEALTH_PERMISSIONS names; a refusal says so, and never fails the smoke check.
 */
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { deliveryAlarmHoursFrom } from '@site/core/node/deploy-config';
import { UNDELIVERED_ALARM_MINUTES } from '@site/infra/alarm-catalogue';
import { explain } from '../messages/explain';
import { regionText, resolveTarget, TargetError, usesLocalStack } from '../messages/target';
import { formatHealth, healthReport, readHealth } from './health';

/** What the operator's credentials need for the health lines: read-only, the table's status index alone. */
export const HEALTH_PERMISSIONS =
  "dynamodb:Query on the table's byStatus index, and cloudformation:DescribeStacks on the stage's stack to find the table (docs/on-call.md#smoke-checks)";

const REFUSED = new Set(['AccessDeniedException', 'AccessDenied', 'UnrecognizedClientException', 'ExpiredTokenException', 'ExpiredToken']);

const isThisMachine = (site: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(site).hostname);

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
      'no AWS settings in this shell. With AWS_PROFILE and AWS_REGION set for the stage, the smoke check also reads its last delivery event, ' +
      `its oldest undelivered message and its retry backlog; that takes ${HEALTH_PERMISSIONS}.`,
  };
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
  try {
    const health = await readHealth(target.table, now);
    const limits = { waitingMinutes: UNDELIVERED_ALARM_MINUTES, deliveryAlarmHours: deliveryAlarmHoursFrom(CDK_JSON_CONTEXT) };
    return formatHealth(`table ${target.table.name} ${target.where}`, healthReport(health, now, limits));
  } catch (error) {
    const why = explain(error, { service: 'DynamoDB', where: target.where, tableName: target.table.name });
    const refused = REFUSED.has((error as { name?: string } | null)?.name ?? '');
    return `Health not read: ${why}${refused ? ` The health lines need ${HEALTH_PERMISSIONS}.` : ''}`;
  }
}
