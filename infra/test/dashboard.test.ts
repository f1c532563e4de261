/**
 * The stage's dashboard and saved queries, as on call opens them: every alarm of both stacks on
 * it; every series the functions write drawn for this stage, the names read from the functions'
 * own metric lines as the local stack counts them after taking every path (not from a copy of
 * the table); the services under the path, CloudFront's read in us-east-1; and the saved Logs
 * Insights queries over the right log groups, showing the error fields.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_REQUEST_LOG, DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import { METRIC_NAMESPACE, PATH_METRICS, STAGE_DIMENSION, type MetricName } from '@site/core/metric-names';
import { emailKey, type StoredMessage } from '@site/core/table';
import type { SesDetailType } from '@site/core/ses-events';
import { createDocumentClient } from '@site/lambda/aws';
import { sesEvent } from '@site/lambda/test/ses-events';
import { emulatorClientConfig } from '@site/local/defaults';
import type { MetricSeries } from '@site/local/metric-counts';
import { startLocalStack, type LocalStack } from '@site/local/stack';
import { LOG_QUERIES, type LogQueryName } from '../lib/log-queries';
import { makeSiteDir, synth, TEST_DOMAIN, type Synthesized } from './synth';

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
  it('of the site stack is in the dashboard’s alarm status list', () => {
    const listed = widgets.flatMap((widget) => (widget.type === 'alarm' ? (widget.properties.alarms ?? []) : []));
    const alarms = Object.keys(s.template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(10);
    expect(listed.sort()).toEqual(alarms.map((id) => `@att(${id}.Arn)`).sort());
  });

  it('of the us-east-1 stack is drawn with its threshold, read in us-east-1', () => {
    const names = Object.values<any>(Template.fromStack(s.edgeAlarms).findResources('AWS::CloudWatch::Alarm')).map(
      (alarm) => alarm.Properties.AlarmName as string,
    );
    expect(names).toHaveLength(2);
    for (const name of names) {
      const drawn = widgets.filter((widget) =>
        widget.properties.annotations?.alarms?.some((arn) => arn.endsWith(`:cloudwatch:us-east-1:@ref(AWS::AccountId):alarm:${name}`)),
      );
      expect(drawn, name).toHaveLength(1);
      expect(drawn[0]!.properties.region).toBe('us-east-1');
    }
  });
});

describe('the path', () => {
  let stack: LocalStack;
  let written: MetricSeries[];

  beforeAll(async () => {
    stack = await startLocalStack({
      port: 0,
      dynamoPort: 0,
      sesPort: 0,
      dataDir: null,
      retryIntervalMs: 0,
      quiet: true,
      siteDir: makeSiteDir(),
      visitorLimit: 1,
    });
    await takeEveryPath(stack);
    const response = await fetch(`${stack.urls.metrics}/counts.json`);
    written = (await response.json()) as MetricSeries[];
  });
  afterAll(() => stack?.close());

  it('is every series the local functions wrote, each a row of the table (so the checks below cover the table)', () => {
    const rows = written.map((series) => [series.metric, series.dimension?.value].filter(Boolean).join(' '));
    const defined = (Object.keys(PATH_METRICS) as MetricName[]).flatMap((name) => {
      const spec = PATH_METRICS[name];
      return 'dimension' in spec ? spec.dimension.values.map((value) => `${name} ${value}`) : [name];
    });
    expect(rows.sort()).toEqual(defined.sort());
  });

  it('draws every series the functions write, for this stage, in the graph its row names', () => {
    const titles = { path: 'The path', off: 'Left the path', retry: 'Retry job' };
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

  it('the API’s 4xx and 5xx, its latency p99, and each function’s errors, duration p99 and throttles', () => {
    expect(drawn('AWS/ApiGateway', '4xx')).toHaveLength(1);
    expect(drawn('AWS/ApiGateway', '5xx')).toHaveLength(1);
    expect(JSON.stringify(drawn('AWS/ApiGateway', 'Latency'))).toContain('"stat":"p99"');
    for (const fn of ['send-contact-email', 'retry-undelivered', 'record-delivery-event']) {
      for (const metric of ['Errors', 'Duration', 'Throttles']) {
        const rows = drawn('AWS/Lambda', metric).filter(({ row }) => row.includes(`@ref(${functionId(fn)})`));
        expect(rows, `${fn} ${metric}`).toHaveLength(1);
      }
    }
  });

  it('the table’s throttles and SES’s reputation, with the alarms’ levels', () => {
    expect(drawn('AWS/DynamoDB', 'ReadThrottleEvents')).toHaveLength(1);
    expect(drawn('AWS/DynamoDB', 'WriteThrottleEvents')).toHaveLength(1);
    expect(drawn('AWS/SES', 'Reputation.BounceRate')).toHaveLength(1);
    expect(drawn('AWS/SES', 'Reputation.ComplaintRate')).toHaveLength(1);
  });

  it('CloudFront’s requests and 5xx rate of this distribution, read in us-east-1 where CloudFront publishes them', () => {
    const distribution = Object.keys(s.template.findResources('AWS::CloudFront::Distribution'))[0]!;
    for (const metric of ['Requests', '5xxErrorRate']) {
      const rows = drawn('AWS/CloudFront', metric);
      expect(rows, metric).toHaveLength(1);
      expect(rows[0]!.row).toContain(`@ref(${distribution})`);
      expect(rows[0]!.region).toBe('us-east-1');
    }
  });

  it('within the 50 metrics of a dashboard AWS’s always-free tier covers', () => {
    const alarmGraphs = widgets.filter((widget) => widget.properties.annotations?.alarms).length;
    expect(metricRows().length + alarmGraphs).toBeLessThanOrEqual(50);
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

  it('look for the lines the functions write, and show the error fields with the whole line (a stack location among them)', () => {
    expect(query('not-stored').QueryString).toContain(
      `filter msg = '${CONTACT_REQUEST_LOG.msg}' and outcome in ['store_failed', 'config_error', 'unexpected_error']`,
    );
    expect(query('delivery-problems').QueryString).toContain(
      `filter msg = '${DELIVERY_EVENT_LOG.msg}' and reports in ['bounced', 'complained', 'rejected']`,
    );
    for (const name of ['server-errors', 'contact-errors', 'not-stored', 'retry-runs', 'delivery-event-errors'] as const) {
      const fields = /^fields (.*)$/m.exec(query(name).QueryString)![1]!.split(', ');
      expect(fields, name).toEqual(expect.arrayContaining(['@timestamp', 'error', 'errorType', 'errorMessage', '@message']));
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

/**
 * Every way through the path on the local stack, so each function writes every metric it can:
 * stored and e-mailed, each refusal, not stored, a retry that succeeds and one given up, each
 * delivery outcome. The visitor limit is 1, so each post that must pass comes from an address
 * of its own.
 */
async function takeEveryPath(stack: LocalStack): Promise<void> {
  let visitor = 0;
  const post = async (body: string, headers: Record<string, string> = {}, address = `198.18.0.${(visitor += 1)}`) => {
    const answer = await stack.postFromViewer(
      { address, port: 40_000 },
      { headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body) },
    );
    return { status: answer.statusCode, json: JSON.parse(answer.body.toString('utf8') || 'null') as { id?: string } };
  };
  const message = JSON.stringify({ name: 'Jan de Vries', email: 'jan@voorbeeld.nl', message: 'Graag een offerte.' });
  const documents = createDocumentClient(emulatorClientConfig(stack.urls.dynamodb));
  const stored = async (id: string) =>
    (await documents.send(new GetCommand({ TableName: stack.tableName, Key: { id }, ConsistentRead: true }))).Item as StoredMessage;

  const first = await post(message);
  expect(first.status).toBe(200);
  const second = await post(message);
  expect((await post('{}')).status).toBe(400);
  expect((await post(JSON.stringify({ message: 'x'.repeat(40 * 1024) }))).status).toBe(413);
  expect((await post(message, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  // The first message's address again, over its limit of one.
  expect((await post(message, {}, '198.18.0.1')).status).toBe(429);

  // Delivery events: four outcomes on one message, a reject on another.
  const event = async (detailType: SesDetailType, id: string) => {
    const { attempts, sesMessageId } = await stored(id);
    await stack.deliveryEvent(sesEvent(detailType, { messageId: id, attempt: attempts, sesMessageId: sesMessageId! }));
  };
  for (const detailType of ['Email Delivery Delayed', 'Email Delivered', 'Email Complaint Received', 'Email Bounced'] as const) {
    await event(detailType, first.json.id!);
  }
  await event('Email Rejected', second.json.id!);

  // The retry job: one message given up after its last attempt while SES is away, one e-mailed once SES is back.
  const waiting = (attempts: number): StoredMessage => {
    const receivedAt = new Date(Date.now() - 12 * 3600_000).toISOString();
    return {
      name: 'Jan de Vries',
      email: 'jan@voorbeeld.nl',
      message: 'Graag een offerte.',
      emailKey: emailKey('jan@voorbeeld.nl'),
      id: `01JD${randomUUID().replace(/-/g, '').slice(0, 22).toUpperCase()}`,
      receivedAt,
      ...(attempts > 0 && { lastAttemptAt: receivedAt }),
      status: 'received',
      attempts,
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    };
  };
  await documents.send(new PutCommand({ TableName: stack.tableName, Item: waiting(7) }));
  await stack.stopSes();
  await stack.runRetryJob();
  await stack.startSes();
  await documents.send(new PutCommand({ TableName: stack.tableName, Item: waiting(0) }));
  await stack.runRetryJob();

  // Last: a stopped DynamoDB comes back empty.
  await stack.stopDynamoDb();
  expect((await post(message)).status).toBe(503);
  await stack.startDynamoDb();
  documents.destroy();
}
