/**
 * The contact handler's latency against the local stack's stand-ins (without the IAM gate,
 * whose cost is measured on its own: run.ts): the shipped bundle,
 * built from its own parts and configured as the stack configures its function, called
 * directly with the API Gateway events CloudFront's requests become (no HTTP in front, so the
 * figures are the function's own), one visitor per request, each stored and e-mailed.
 *
 * Beside it, what it is judged against, in the same run, alternating in blocks so a slow spell
 * of a shared machine falls on both: the two round trips no handler can avoid (one PutItem of
 * the message, one SendEmail of its notification, with the handler's client options), or the
 * same handler on a second local stack without the IAM gate.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { marshall } from '@aws-sdk/util-dynamodb';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER, fieldNames, type ContactRequestBody } from '@site/core/contract';
import type { FieldKind } from '@site/core/field-spec';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';
import { emailKey, type IndexName, type MessageStatus, type StoredMessage } from '@site/core/table';
import { lambdaContext } from '@site/emulators/api-gateway';
import { emulatorClientConfig, emulatorConnections } from '@site/emulators/connections';
import { clearSentEmails } from '@site/emulators/servers';
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { buildNotification, mailRoute } from '@site/lambda/mail';
import type { LocalStack } from '@site/local/stack';
import { contactEvent, distinctText } from '@site/testing/api-events';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { percentile } from './stats';

/** What the bundle of handlers/send-contact-email.ts exports besides Lambda's `handler`: the parts it is built from. */
type BundleParts = Pick<
  typeof import('@site/lambda/handlers/send-contact-email'),
  'createContactHandler' | 'createAwsClients' | 'readContactConfig'
>;

/**
 * A message of a typical length (about 50 words) of its own: the same text, or a near-copy of
 * it, from many addresses is a wave's mark, and is held for the digest without an e-mail. A
 * numbered copy of one text was exactly that, so the part measured the held path.
 */
const ownText = (i: number) => [0, 1, 2].map((part) => distinctText(`bench-${i}-${part}`)).join(' ');

/** A typical value of each kind of field, numbered. */
const TYPICAL: Record<FieldKind, (i: number) => string> = {
  text: (i) => `Marieke van den Berg ${i}`,
  email: (i) => `marieke.vandenberg+${i}@voorbeeld-groothandel.nl`,
  phone: () => '+31 6 12345678',
  multiline: ownText,
};

/** Every field of the form filled with a typical value of its kind, cut to its limit, and the honeypot empty, as the page sends it. */
export function contactBody(i: number): ContactRequestBody {
  const fields = fieldNames(CONTACT_FIELDS).map((field) => [
    field,
    [...TYPICAL[CONTACT_FIELDS[field].kind](i)].slice(0, CONTACT_FIELDS[field].limit).join(''),
  ]);
  return { ...Object.fromEntries(fields), [HONEYPOT_FIELD]: '' } as ContactRequestBody;
}

/** The messages' numbers, one count for the whole run: a number used twice would be one text from two visitors, and held. */
let messages = 0;

/** A request as the page's form sends it (a browser's headers, an Idempotency-Key), through CloudFront, as an event; by default a new message as JSON. */
export function formRequest(
  request: { body: Buffer; contentType: string } = {
    body: Buffer.from(JSON.stringify(contactBody(messages++))),
    contentType: 'application/json',
  },
) {
  const site = 'www.example.nl';
  return contactEvent({
    headers: {
      host: site,
      'content-type': request.contentType,
      [IDEMPOTENCY_HEADER.toLowerCase()]: randomUUID(),
      origin: `https://${site}`,
      referer: `https://${site}/`,
      'sec-fetch-site': 'same-origin',
    },
    body: request.body,
  });
}

/** The bundled handler, configured from the stack's environment with the origin secret the events carry. */
export async function bundledHandler(bundlePath: string, stack: LocalStack) {
  const bundle = (await import(pathToFileURL(bundlePath).href)) as BundleParts;
  const config = bundle.readContactConfig({ ...stack.lambdaEnv, [ORIGIN_VERIFY_ENV.current]: TEST_ORIGIN_SECRET });
  const handler = bundle.createContactHandler({
    config,
    clients: bundle.createAwsClients(emulatorConnections(stack.urls, 'send-contact-email')),
  });
  const handle = (event: ReturnType<typeof formRequest>) =>
    handler(event, lambdaContext('send-contact-email', event.requestContext.requestId, Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000));
  /** One message, which must be stored and e-mailed. */
  const send = async () => {
    const { statusCode, body } = await handle(formRequest());
    if (statusCode !== 200) throw new Error(`the handler answered ${statusCode}: ${body}`);
  };
  return { handle, send, config };
}

/**
 * The handler logs a line per request to stdout (CloudWatch, in Lambda). Here the lines go to
 * a file: still written, so their cost is measured, without burying the bench's output. The
 * outcome of each is counted, so a part whose messages were held or refused, and so cost less,
 * shows it.
 */
export function captureHandlerLogs(logPath: string): () => Promise<Record<string, number>> {
  const file = createWriteStream(logPath, { flags: 'a' });
  const outcomes: Record<string, number> = {};
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const outcome = /"outcome":"(\w+)"/.exec(String(chunk))?.[1];
    if (outcome) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    return file.write(chunk, ...(rest as []));
  };
  return () => {
    process.stdout.write = original;
    return new Promise((resolve) => file.end(() => resolve(outcomes)));
  };
}

export interface Latency {
  concurrency: number;
  requests: number;
  p50: number;
  p99: number;
  /** Settled calls per second of wall time. */
  throughput: number;
  /** Calls that failed (a message not stored and e-mailed, a round trip refused): any fails the budget. */
  errors: number;
  firstError?: string;
}

type Sample = Pick<Latency, 'errors' | 'firstError'> & { durations: number[]; wallMs: number };

/**
 * `total` calls, `concurrency` at a time, each timed from its start to its settlement; a failed
 * call is counted and its time kept, as its visitor waited it. A warm-up's sample is dropped: it
 * absorbs the first calls' costs (a stack just started answers its first ones slowly under load).
 */
async function load(
  concurrency: number,
  total: number,
  call: () => Promise<void>,
  sample: Sample = { durations: [], wallMs: 0, errors: 0 },
) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next += 1;
      const started = performance.now();
      try {
        await call();
      } catch (error) {
        sample.errors += 1;
        sample.firstError ??= (error as Error).message;
      }
      sample.durations.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * `total` calls of each, `concurrency` at a time, alternating in `blocks` blocks after a short
 * untimed burst that opens the sockets this concurrency needs.
 */
export async function alternate(concurrency: number, total: number, calls: Record<string, () => Promise<void>>, blocks = 4) {
  const samples = Object.fromEntries(Object.keys(calls).map((name): [string, Sample] => [name, { durations: [], wallMs: 0, errors: 0 }]));
  for (const call of Object.values(calls)) await load(concurrency, concurrency * 2, call);
  for (let block = 0; block < blocks; block++) {
    for (const [name, call] of Object.entries(calls)) {
      const started = performance.now();
      await load(concurrency, Math.ceil(total / blocks), call, samples[name]);
      samples[name]!.wallMs += performance.now() - started;
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, { durations, wallMs, errors, firstError }]) => [
      name,
      {
        concurrency,
        requests: durations.length,
        p50: percentile(durations, 50),
        p99: percentile(durations, 99),
        throughput: (durations.length * 1000) / wallMs,
        errors,
        ...(firstError === undefined ? {} : { firstError }),
      } satisfies Latency,
    ]),
  );
}

/** The two round trips no handler can avoid, with the handler's client options. */
function bareCalls(stack: LocalStack, config: Awaited<ReturnType<typeof bundledHandler>>['config']) {
  const dynamo = new DynamoDBClient({ ...AWS_CLIENT_OPTIONS, ...emulatorClientConfig(stack.urls.dynamodb) });
  const ses = new SESClient({ ...AWS_CLIENT_OPTIONS, ...emulatorClientConfig(stack.urls.ses) });
  const call = async () => {
    const { [HONEYPOT_FIELD]: _honeypot, ...fields } = contactBody(messages++);
    const now = new Date();
    const message: StoredMessage = {
      ...fields,
      id: `bench-${randomUUID()}`,
      receivedAt: now.toISOString(),
      emailKey: emailKey(fields.email),
      status: 'received',
      attempts: 0,
      expiresAt: Math.floor(now.getTime() / 1000) + config.retentionDays * 86_400,
    };
    await dynamo.send(new PutItemCommand({ TableName: config.tableName, Item: marshall(message, { removeUndefinedValues: true }) }));
    await ses.send(new SendEmailCommand(buildNotification(message, mailRoute(config))));
  };
  return { call, dynamo, destroy: () => (dynamo.destroy(), ses.destroy()) };
}

export interface HandlerLatency {
  handler: Latency[];
  bare: Latency[];
}

/**
 * Fails when a message of the part was held (a near-copy, a spent budget): its answer waits
 * alike but skips SES, and would time another path. A send the SES stand-in failed (a
 * connection it reset under load) waited for SES as an e-mailed one does, and stays `received`
 * for the retry job: it counts as the e-mailed path.
 */
async function expectNoneHeld(dynamo: DynamoDBClient, tableName: string): Promise<void> {
  const { Count } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'byStatus' satisfies IndexName,
      KeyConditionExpression: '#status = :held',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':held': { S: 'held' satisfies MessageStatus } },
      Select: 'COUNT',
    }),
  );
  if (Count) throw new Error(`${Count} messages were held: the part timed messages that were not e-mailed`);
}

/** The handler against the bare round trips at each concurrency (budgets.ts, LATENCY_REQUESTS). */
export async function measureHandlerLatency(stack: LocalStack, bundlePath: string, requests: Record<number, number>, warmUp: number) {
  const { send, config } = await bundledHandler(bundlePath, stack);
  const bare = bareCalls(stack, config);
  const result: HandlerLatency = { handler: [], bare: [] };
  try {
    // JIT, the SDKs' lazy start, the emulators' first sockets.
    await load(10, warmUp, send);
    await load(10, warmUp, bare.call);
    for (const [concurrency, total] of Object.entries(requests)) {
      const level = await alternate(Number(concurrency), total, { handler: send, bare: bare.call });
      result.handler.push(level.handler!);
      result.bare.push(level.bare!);
      await expectNoneHeld(bare.dynamo, config.tableName);
      // The SES stand-in keeps every e-mail in memory; emptied so later levels don't pay for earlier ones.
      await clearSentEmails(stack.urls.ses);
    }
  } finally {
    bare.destroy();
  }
  return result;
}

export interface IamGateCost {
  gated: Latency;
  ungated: Latency;
  /** gated p99 ÷ ungated p99: the budget. */
  ratio: number;
}

/** The same bundled handler on a stack with the IAM gate and on one without, one call at a time, alternating in blocks. */
export async function measureIamGate(gated: LocalStack, ungated: LocalStack, bundlePath: string, total: number, warmUp: number) {
  const withGate = await bundledHandler(bundlePath, gated);
  // A module imported twice is one module: the second stack's handler comes from the same bundle, configured for its own stand-ins.
  const withoutGate = await bundledHandler(bundlePath, ungated);
  await load(1, warmUp, withGate.send);
  await load(1, warmUp, withoutGate.send);
  // Blocks of ten calls: on a shared host a busy spell of a few seconds would otherwise fall on one side's block of hundreds.
  const level = await alternate(1, total, { gated: withGate.send, ungated: withoutGate.send }, total / 10);
  await Promise.all([clearSentEmails(gated.urls.ses), clearSentEmails(ungated.urls.ses)]);
  return { gated: level.gated!, ungated: level.ungated!, ratio: level.gated!.p99 / level.ungated!.p99 } satisfies IamGateCost;
}
