/**
 * The stage's dashboard and saved queries, as on call opens them: every alarm of both stacks on
 * it; every series the functions write drawn for this stage, the names read from the functions'
 * own metric lines after they took every path against the test stand-ins (dynalite and the
 * SES stand-in), not from a copy of the table; the services under the path, CloudFront's read
 * in us-east-1; and the saved Logs Insights queries over the right log groups, showing the
 * error fields.
 */
import type { FunctionName } from '@site/core/names';
import { HONEYPOT_FIELD } from '@site/core/contract';
import { randomUUID } from 'node:crypto';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_REQUEST_LOG, DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import { METRIC_NAMESPACE, PATH_METRICS, STAGE_DIMENSION, type MetricName } from '@site/core/metric-names';
import { emailKey, type StoredMessage } from '@site/core/table';
import type { SesDetailType } from '@site/core/ses-events';
import { createAwsClients } from '@site/lambda/aws';
import { readContactConfig, readDeliveryEventConfig, readRetryConfig } from '@site/lambda/config';
import { createContactHandler } from '@site/lambda/contact-handler';
import { createDeliveryEventHandler } from '@site/lambda/delivery-event-handler';
import { createRetryHandler } from '@site/lambda/retry';
import { checkMarker, checkMarkerKey } from '@site/lambda/check-marker';
import { createOutsideCheckHandler } from '@site/lambda/outside-check-handler';
import { OUTSIDE_CHECK_HEADER } from '@site/core/outside-check';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { answer, contactEvent, VALID_BODY, type EventParts } from '@site/testing/api-events';
import { readEmfLine } from '@site/testing/emf';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';
import { sesEvent } from '@site/testing/ses-events';
import { LOG_QUERIES, type LogQueryName } from '../lib/log-queries';
import { synth, TEST_DOMAIN, type Synthesized } from './synth';

const PREFIX = 'consultancy-site-test';

/** A template value as text: references as `@ref(Id)` and `@att(Id.Attribute)`, so the JSON they sit in still parses. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  const token = value as Record<string, any>;
  if (token['Fn::Join']) return (token['Fn::Join'][1] as unknown[]).map(asText).join(token['Fn::Join'][0]);
  if (token.Ref) return `@ref(${token.Ref})`;
  if (token['Fn::GetAtt']) return `@att(${token['Fn::GetAtt'].join('.')})`;
  return '@token';
}

interface Widget {
  type: string;
  properties: {
    title?: string;
    region?: string;
    metrics?: unknown[][];
    alarms?: string[];
    annotations?: { alarms?: string[] };
    markdown?: string;
  };
}

let s: Synthesized;
let widgets: Widget[];
let resources: Record<string, any>;

beforeAll(() => {
  s = synth({ alarmEmail: `ops@${TEST_DOMAIN}`, wafRateLimit: 500 });
  resources = s.template.toJSON().Resources;
  const dashboard = Object.values<any>(s.template.findResources('AWS::CloudWatch::Dashboard'));
  expect(dashboard).toHaveLength(1);
  expect(dashboard[0].Properties.DashboardName).toBe(PREFIX);
  widgets = (JSON.parse(asText(dashboard[0].Properties.DashboardBody)) as { widgets: Widget[] }).widgets;
});

/** Every metric row of every graph, with its widget's region. */
const metricRows = () =>
  widgets.flatMap((widget) =>
    (widget.properties.metrics ?? []).map((row) => ({
      row,
      region: widget.properties.region,
      title: widget.properties.title,
    })),
  );

/** The graph rows of one of the stage's path series: namespace, metric, the stage, and the dimension if any. */
function pathRows(metric: string, dimension?: { name: string; value: string }) {
  return metricRows().filter(({ row }) => {
    const [namespace, name, ...rest] = row;
    const dimensions = Object.fromEntries(
      rest
        .filter((part) => typeof part === 'string')
        .reduce<string[][]>((pairs, part, i) => (i % 2 ? (pairs.at(-1)!.push(part), pairs) : [...pairs, [part]]), []),
    );
    return (
      namespace === METRIC_NAMESPACE &&
      name === metric &&
      dimensions[STAGE_DIMENSION] === 'test' &&
      Object.keys(dimensions).length === (dimension ? 2 : 1) &&
      (!dimension || dimensions[dimension.name] === dimension.value)
    );
  });
}

describe('every alarm', () => {
  it('of the site stack, the composite ones with the rest, is in the dashboard’s alarm status list, those in ALARM first', () => {
    const statusLists = widgets.filter((widget) => widget.type === 'alarm');
    expect(statusLists).toHaveLength(1);
    const listed = statusLists[0]!.properties.alarms ?? [];
    const alarms = [
      ...Object.keys(s.template.findResources('AWS::CloudWatch::Alarm')),
      ...Object.keys(s.template.findResources('AWS::CloudWatch::CompositeAlarm')),
    ];
    expect(alarms.length).toBeGreaterThan(20);
    expect(listed.sort()).toEqual(alarms.map((id) => `@att(${id}.Arn)`).sort());
    // CloudWatch's order for ALARM first, then INSUFFICIENT_DATA, then OK, the latest change first within each.
    expect((statusLists[0]!.properties as { sortBy?: string }).sortBy).toBe('stateUpdatedTimestamp');
  });

  it('of the us-east-1 stack is drawn with its threshold, read in us-east-1', () => {
    const names = Object.values<any>(Template.fromStack(s.edgeAlarms).findResources('AWS::CloudWatch::Alarm')).map(
      (alarm) => alarm.Properties.AlarmName as string,
    );
    // With the WAF: CloudFront's two rates, the edge function's errors and the WAF's blocks.
    expect(names).toHaveLength(4);
    for (const name of names) {
      const drawn = widgets.filter((widget) =>
        widget.properties.annotations?.alarms?.some((arn) => arn.endsWith(`:cloudwatch:us-east-1:@ref(AWS::AccountId):alarm:${name}`)),
      );
      expect(drawn, name).toHaveLength(1);
      expect(drawn[0]!.properties.region).toBe('us-east-1');
    }
  });
});

/** One series a function wrote: a metric, and the value of its row's dimension if it has one. */
interface WrittenSeries {
  metric: string;
  dimension?: { name: string; value: string };
}

describe('the path', () => {
  let aws: LocalAws;
  let logs: CapturedLogs;
  let written: WrittenSeries[];

  beforeAll(async () => {
    logs = captureLogs();
    aws = await startLocalAws();
    await takeEveryPath(aws);
    written = seriesOf(logs.metricLines());
  });
  afterAll(async () => {
    logs?.restore();
    await aws?.close();
  });

  it('is every series the functions wrote, each a row of the table (so the checks below cover the table)', () => {
    const rows = written.map((series) => [series.metric, series.dimension?.value].filter(Boolean).join(' '));
    const defined = (Object.keys(PATH_METRICS) as MetricName[]).flatMap((name) => {
      const spec = PATH_METRICS[name];
      return 'dimension' in spec ? spec.dimension.values.map((value) => `${name} ${value}`) : [name];
    });
    expect(rows.sort()).toEqual(defined.sort());
  });

  it('draws every series the functions write, for this stage, in the graph its row names', () => {
    const titles = { path: 'The path', off: 'Left the path', retry: 'Retry job', check: 'Outside check' };
    for (const series of written) {
      const drawn = pathRows(series.metric, series.dimension);
      expect(drawn, `${series.metric} ${series.dimension?.value ?? ''}`).toHaveLength(1);
      expect(drawn[0]!.title).toMatch(new RegExp(`^${titles[PATH_METRICS[series.metric as MetricName].graph]}`));
    }
  });

  it('draws nothing of the path that no function writes', () => {
    const drawn = metricRows().filter(({ row }) => row[0] === METRIC_NAMESPACE);
    expect(drawn).toHaveLength(written.length);
  });
});

describe('the services under the path', () => {
  const drawn = (namespace: string, metric: string) => metricRows().filter(({ row }) => row[0] === namespace && row[1] === metric);
  const functionId = (name: string) =>
    Object.entries(resources).find(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === `${PREFIX}-${name}`)![0];

  it('the API’s 4xx and 5xx, its latency p99, each function’s errors, the duration p99 of those that serve the path, the contact function’s throttles', () => {
    expect(drawn('AWS/ApiGateway', '4xx')).toHaveLength(1);
    expect(drawn('AWS/ApiGateway', '5xx')).toHaveLength(1);
    expect(JSON.stringify(drawn('AWS/ApiGateway', 'Latency'))).toContain('"stat":"p99"');
    const of = (metric: string, fn: string) => drawn('AWS/Lambda', metric).filter(({ row }) => row.includes(`@ref(${functionId(fn)})`));
    for (const fn of ['send-contact-email', 'retry-undelivered', 'record-delivery-event', 'outside-check']) {
      expect(of('Errors', fn), `${fn} Errors`).toHaveLength(1);
    }
    for (const fn of ['send-contact-email', 'retry-undelivered', 'record-delivery-event']) {
      expect(of('Duration', fn), `${fn} Duration`).toHaveLength(1);
    }
    // The one function with reserved concurrency of its own; the others share the account's.
    expect(drawn('AWS/Lambda', 'Throttles').map(({ row }) => row.includes(`@ref(${functionId('send-contact-email')})`))).toEqual([true]);
  });

  it('the table’s throttles and SES’s reputation, with the alarms’ levels', () => {
    expect(drawn('AWS/DynamoDB', 'ReadThrottleEvents')).toHaveLength(1);
    expect(drawn('AWS/DynamoDB', 'WriteThrottleEvents')).toHaveLength(1);
    expect(drawn('AWS/SES', 'Reputation.BounceRate')).toHaveLength(1);
    expect(drawn('AWS/SES', 'Reputation.ComplaintRate')).toHaveLength(1);
  });

  it('within the 50 metrics of a dashboard AWS’s always-free tier covers, each us-east-1 alarm’s graph counting its metrics', () => {
    expect(dashboardMetrics(widgets, s)).toBeLessThanOrEqual(50);
  });
});

describe('the saved queries', () => {
  const queries = () =>
    Object.values<any>(s.template.findResources('AWS::Logs::QueryDefinition')).map(
      (query) => query.Properties as { Name: string; QueryString: string; LogGroupNames: unknown[] },
    );
  const query = (name: LogQueryName) => queries().find((q) => q.Name === `${PREFIX}/${name}`)!;
  const logGroupOf = (fn: string) =>
    Object.values<any>(resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === `${PREFIX}-${fn}`)!
      .Properties.LoggingConfig.LogGroup;
  const accessLog = () => ({
    Ref: Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::Logs::LogGroup' && r.Properties.LogGroupName === `/aws/apigateway/${PREFIX}-api`,
    )![0],
  });

  it('are one per entry of the catalogue, named under the stage, each over its own log groups', () => {
    expect(
      queries()
        .map((q) => q.Name)
        .sort(),
    ).toEqual(
      Object.keys(LOG_QUERIES)
        .map((name) => `${PREFIX}/${name}`)
        .sort(),
    );
    expect(query('server-errors').LogGroupNames).toEqual([logGroupOf('send-contact-email'), accessLog()]);
    expect(query('not-stored').LogGroupNames).toEqual([logGroupOf('send-contact-email')]);
    expect(query('retry-runs').LogGroupNames).toEqual([logGroupOf('retry-undelivered')]);
    expect(query('delivery-problems').LogGroupNames).toEqual([logGroupOf('record-delivery-event')]);
    expect(query('api-answers').LogGroupNames).toEqual([accessLog()]);
  });

  it('look for the lines the functions write, and show the error fields, where it was thrown, and the whole line', () => {
    expect(query('not-stored').QueryString).toContain(
      `filter msg = '${CONTACT_REQUEST_LOG.msg}' and outcome in ['store_failed', 'config_error', 'unexpected_error']`,
    );
    expect(query('delivery-problems').QueryString).toContain(
      `filter msg = '${DELIVERY_EVENT_LOG.msg}' and reports in ['bounced', 'complained', 'rejected']`,
    );
    for (const name of ['server-errors', 'contact-errors', 'not-stored', 'retry-runs', 'delivery-event-errors'] as const) {
      const fields = /^fields (.*)$/m.exec(query(name).QueryString)![1]!.split(', ');
      expect(fields, name).toEqual(expect.arrayContaining(['@timestamp', 'error', '`where`', 'errorType', 'errorMessage', '@message']));
      expect(query(name).QueryString, name).toMatch(/\| sort @timestamp desc\n\| limit 200$/);
    }
  });

  it('are each linked from the dashboard’s text', () => {
    const text = widgets.find((widget) => widget.type === 'text')!.properties.markdown!;
    for (const [id, resource] of Object.entries(s.template.findResources('AWS::Logs::QueryDefinition'))) {
      expect(text).toContain(
        `[${resource.Properties.Name}](https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#logsV2:logs-insights$3FqueryDetail$3D~(queryId~'@att(${id}.QueryDefinitionId)))`,
      );
    }
  });
});

/** The metrics the dashboard draws: its graphs' rows, and each us-east-1 alarm graph's metrics (a metric-math alarm's each). */
function dashboardMetrics(drawnWidgets: Widget[], synthesized: Synthesized): number {
  const edgeAlarms = Object.values<any>(Template.fromStack(synthesized.edgeAlarms).findResources('AWS::CloudWatch::Alarm'));
  const metricsOfAlarm = (arn: string) => {
    const found = edgeAlarms.find((alarm) => arn.endsWith(`:alarm:${alarm.Properties.AlarmName}`))!;
    return found.Properties.Metrics ? found.Properties.Metrics.filter((m: any) => m.MetricStat).length : 1;
  };
  const alarmGraphs = drawnWidgets.flatMap((widget) => widget.properties.annotations?.alarms ?? []).map(metricsOfAlarm);
  return metricRows().length + alarmGraphs.reduce((sum, n) => sum + n, 0);
}

/** The series in the functions' metric lines, each once, read by the Embedded Metric Format's rules. */
function seriesOf(lines: Record<string, unknown>[]): WrittenSeries[] {
  const series = new Map<string, WrittenSeries>();
  for (const point of lines.flatMap(readEmfLine)) {
    const [other] = Object.keys(point.dimensions).filter((name) => name !== STAGE_DIMENSION);
    const dimension = other === undefined ? undefined : { name: other, value: point.dimensions[other]! };
    series.set(`${point.metric} ${dimension?.value ?? ''}`, { metric: point.metric, ...(dimension && { dimension }) });
  }
  return [...series.values()];
}

/**
 * Every way through the path, with the functions built by their own factories from the
 * environment Lambda would give them on the stand-ins, so each writes every metric it can:
 * stored and e-mailed, each refusal, not stored, a retry that succeeds and one given up, each
 * delivery outcome. The visitor limit is 1, so a second post from one address is refused.
 */
async function takeEveryPath(aws: LocalAws): Promise<void> {
  const clientsOf = (fn: FunctionName) => createAwsClients(aws.connectionsFor(fn));
  const config = { ...readContactConfig(aws.lambdaEnv), ...readRetryConfig(aws.lambdaEnv) };
  // A mail budget of two an hour: the third message is held for it, the honeypot's as suspect.
  const contact = createContactHandler({
    config: {
      ...config,
      visitorLimit: { ...config.visitorLimit, messages: 1 },
      mailBudgets: { ordinary: { perHour: 2, perDay: 2 }, site: { perHour: 2, perDay: 2 } },
    },
    clients: clientsOf('send-contact-email'),
  });
  const retry = createRetryHandler({ config, clients: clientsOf('retry-undelivered') });
  const deliveryEvent = createDeliveryEventHandler({
    config: readDeliveryEventConfig(aws.lambdaEnv),
    clients: clientsOf('record-delivery-event'),
  });
  const post = async (parts: EventParts) => {
    const answered = answer(await contact(contactEvent(parts)));
    return { status: answered.statusCode, id: answered.json.id };
  };

  const first = await post({ body: VALID_BODY, viewer: '203.0.113.7' });
  expect(first.status).toBe(200);
  const second = await post({ body: { ...VALID_BODY, message: 'Een tweede vraag.' } });
  expect(second.status).toBe(200);
  expect((await post({ body: {} })).status).toBe(400);
  expect((await post({ body: { ...VALID_BODY, message: 'x'.repeat(40 * 1024) } })).status).toBe(413);
  const otherSite = { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
  expect((await post({ headers: otherSite, body: VALID_BODY })).status).toBe(403);
  // The first message's address again, over its limit of one.
  expect((await post({ body: VALID_BODY, viewer: '203.0.113.7' })).status).toBe(429);
  // Held: past the hour's budget of two, and a bot's post the honeypot caught.
  expect((await post({ body: { ...VALID_BODY, message: 'Een derde vraag.' } })).status).toBe(200);
  expect((await post({ body: { ...VALID_BODY, message: 'Een vierde vraag.', [HONEYPOT_FIELD]: 'https://spam.example' } })).status).toBe(
    200,
  );

  // Delivery events: four outcomes on one message, a reject on another.
  const event = async (detailType: SesDetailType, id: string) => {
    const { attempts, sesMessageId } = (await aws.message(id))!;
    await deliveryEvent(sesEvent(detailType, { messageId: id, attempt: attempts, sesMessageId: sesMessageId! }));
  };
  for (const detailType of ['Email Delivery Delayed', 'Email Delivered', 'Email Complaint Received', 'Email Bounced'] as const) {
    await event(detailType, first.id!);
  }
  await event('Email Rejected', second.id!);

  // The retry job: one message given up after its last attempt while SES is away, one e-mailed once SES is back.
  const waiting = (attempts: number): StoredMessage => {
    const receivedAt = new Date(Date.now() - 12 * 3600_000).toISOString();
    return {
      ...VALID_BODY,
      emailKey: emailKey(VALID_BODY.email),
      id: `01JD${randomUUID().replace(/-/g, '').slice(0, 22).toUpperCase()}`,
      receivedAt,
      ...(attempts > 0 && { lastAttemptAt: receivedAt }),
      status: 'received',
      attempts,
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    };
  };
  await aws.put({ ...waiting(7) });
  await aws.stopSes();
  await retry();
  await aws.startSes();
  await aws.put({ ...waiting(0) });
  await retry();

  // Around CloudFront, and the outside check's marked post.
  expect((await post({ body: VALID_BODY, direct: true })).status).toBe(403);
  const marker = checkMarker(checkMarkerKey(TEST_ORIGIN_SECRET), new Date());
  expect((await post({ headers: { 'content-type': 'application/json', [OUTSIDE_CHECK_HEADER]: marker }, body: VALID_BODY })).status).toBe(
    200,
  );
  // A run of the check against a site that does not answer: it counts a failed run.
  const run = createOutsideCheckHandler({
    config: { siteUrl: 'http://127.0.0.1:9', stage: config.stage, markerKey: checkMarkerKey(TEST_ORIGIN_SECRET) },
    timeoutMs: 2_000,
  });
  expect((await run()).passed).toBe(false);

  // Last: a stopped DynamoDB comes back empty.
  await aws.stopDynamoDb();
  expect((await post({ body: VALID_BODY })).status).toBe(503);
  await aws.startDynamoDb();
}
