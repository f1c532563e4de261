/**
 * CloudWatch's and EventBridge's reads on one machine, for what `npm run smoke`'s health asks a
 * stage: CloudWatch's DescribeAlarms (JSON 1.0) and EventBridge's DescribeRule (JSON 1.1),
 * answered from what the local stack says of itself: its alarms (the outside check's, in the
 * stack's region; none in any other) and its schedules (the retry job's, the outside check's).
 * One server for both, told apart by X-Amz-Target, as the IAM gate in front reads them
 * (aws-requests.ts). Nothing else of either service.
 */
import { buffer } from 'node:stream/consumers';
import { createServer, type ServerResponse } from 'node:http';
import { signedRegion } from './aws-requests';
import { EMULATOR_REGION, loopbackUrl } from './connections';
import { closeServer, listen, type RunningServer } from './servers';

export interface LocalAlarm {
  name: string;
  state: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';
  reason: string;
  /** When it last changed state. */
  since: Date;
}

export interface LocalRule {
  name: string;
  state: 'ENABLED' | 'DISABLED';
  schedule: string;
}

export interface LocalMonitoringOptions {
  port: number;
  /** The alarms in EMULATOR_REGION, as they stand when asked. */
  alarms: () => LocalAlarm[];
  rules: () => LocalRule[];
}

const ACCOUNT = '000000000000';

function json(response: ServerResponse, status: number, body: unknown, type = 'application/x-amz-json-1.0'): void {
  response.writeHead(status, { 'content-type': type });
  response.end(JSON.stringify(body));
}

export async function startLocalMonitoring(options: LocalMonitoringOptions): Promise<RunningServer> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse((await buffer(request)).toString('utf8') || '{}') as { AlarmNamePrefix?: string; Name?: string };
      const target = String(request.headers['x-amz-target'] ?? '');
      if (target === 'GraniteServiceVersion20100801.DescribeAlarms') {
        const region = signedRegion(request.headers.authorization) ?? EMULATOR_REGION;
        const alarms = region === EMULATOR_REGION ? options.alarms() : [];
        return json(response, 200, {
          MetricAlarms: alarms
            .filter((alarm) => alarm.name.startsWith(body.AlarmNamePrefix ?? ''))
            .map((alarm) => ({
              AlarmName: alarm.name,
              AlarmArn: `arn:aws:cloudwatch:${region}:${ACCOUNT}:alarm:${alarm.name}`,
              StateValue: alarm.state,
              StateReason: alarm.reason,
              StateUpdatedTimestamp: alarm.since.getTime() / 1000,
            })),
          CompositeAlarms: [],
        });
      }
      if (target === 'AWSEvents.DescribeRule') {
        const rule = options.rules().find((found) => found.name === body.Name);
        if (!rule) {
          return json(
            response,
            400,
            { __type: 'ResourceNotFoundException', message: `Rule ${body.Name} does not exist.` },
            'application/x-amz-json-1.1',
          );
        }
        return json(
          response,
          200,
          {
            Name: rule.name,
            Arn: `arn:aws:events:${EMULATOR_REGION}:${ACCOUNT}:rule/${rule.name}`,
            State: rule.state,
            ScheduleExpression: rule.schedule,
            EventBusName: 'default',
          },
          'application/x-amz-json-1.1',
        );
      }
      json(response, 400, { __type: 'UnknownOperationException', message: `The local stack answers no ${target}.` });
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  const port = await listen(server, options.port);
  return { url: loopbackUrl(port), port, close: () => closeServer(server) };
}
