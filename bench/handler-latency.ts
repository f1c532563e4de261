/**
 * Latency and throughput of the send-contact-email handler against the local emulators
 * (dynalite and aws-ses-v2-local, in this process, started by startLocalStack exactly as
 * `npm start` starts them), calling the bundled handler directly with the API Gateway v2
 * events the local edge builds — no HTTP in front, so the figures are the function's own.
 * The handler is built from the bundle's own parts, configured from the environment the
 * stack gives its function and with clients pointed at the emulators.
 *
 * Beside it, the bare round trips no handler can avoid — one DynamoDB PutItem of the
 * message and one SES SendEmail of its notification — with the same client options, the
 * same emulators and the same concurrency. handler ÷ bare is the handler's overhead:
 * validation, idempotency, the status update, logging, and the SDK layers it uses.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { API_PATH, HONEYPOT_FIELD, IDEMPOTENCY_HEADER, fieldNames, type ContactRequestBody } from '@site/core/contract';
import { type FieldKind } from '@site/core/field-spec';
import { emailKey, type StoredMessage } from '@site/core/table';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { buildNotification, mailRoute } from '@site/lambda/mail';
import { CONTACT_ROUTE_KEY, lambdaContext, toApiGatewayEvent } from '@site/emulators/api-gateway';
import { emulatorClientConfig, emulatorConnections } from '@site/emulators/connections';
import { originRequestHeaders } from '@site/local/edge';
import { clearSentEmails } from '@site/emulators/servers';
import type { LocalStack } from '@site/local/stack';
import { percentile } from './stats';

const BLOCKS = 4;

/** What the bundle of handlers/send-contact-email.ts exports besides Lambda's `handler`: the parts it is built from. */
type BundleParts = Pick<
  typeof import('@site/lambda/handlers/send-contact-email'),
  'createContactHandler' | 'createAwsClients' | 'readContactConfig'
>;

export interface LatencyStats {
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Completed calls per second of wall time. */
  throughput: number;
  errors: number;
  firstError?: string;
}

export interface HandlerLatency {
  handler: LatencyStats[];
  bare: LatencyStats[];
  /** Outcomes the handler logged, warm-up included (all should be stored_and_emailed). */
  outcomes: Record<string, number>;
  requestsPerLevel: Record<number, number>;
  bundle: string;
}

/** A visitor's message of typical length: a few sentences. */
const MESSAGE_TEXT =
  'Goedemiddag, wij zijn een middelgrote groothandel en zoeken per 1 maart tijdelijke ondersteuning op de ' +
  'afdeling control: onze controller gaat met zwangerschapsverlof en de jaarafsluiting moet nog worden ' +
  'afgerond. Daarnaast willen we graag eens praten over het inrichten van een maandelijkse managementrapportage ' +
  'met een beperkt aantal KPI’s. Kunt u mij laten weten of u hiervoor beschikbaar bent en wat uw tarieven zijn? ' +
  'Ik ben bereikbaar op het onderstaande nummer, het liefst tussen 9 en 12 uur. Met vriendelijke groet.';

/** A typical value of each kind of field, numbered so no two messages are alike. */
const TYPICAL: Record<FieldKind, (i: number) => string> = {
  text: (i) => `Marieke van den Berg ${i}`,
  email: (i) => `marieke.vandenberg+${i}@voorbeeld-groothandel.nl`,
  phone: () => '+31 6 12345678',
  // Numbered too: the same text from many addresses is a wave's mark (repeatedText), and a held message sends no e-mail.
  multiline: (i) => `${MESSAGE_TEXT} Kenmerk ${i}.`,
};

/** Every field of the table filled with a typical value of its kind, cut to its limit. */
export function contactBody(i: number): ContactRequestBody {
  const fields = fieldNames(CONTACT_FIELDS).map((field) => {
    const { kind, limit } = CONTACT_FIELDS[field];
    return [field, [...TYPICAL[kind](i)].slice(0, limit).join('')];
  });
  // The page always sends the honeypot, empty.
  return { ...Object.fromEntries(fields), [HONEYPOT_FIELD]: '' } as ContactRequestBody;
}

/**
 * A request as the page's form sends it, through CloudFront (its origin request, as the edge
 * makes it: the listed headers, the origin secret, the viewer address) and API Gateway (the
 * headers it adds), as an event: by default message `i` as JSON; `request` for another body.
 * Every request comes from a visitor of its own, so each is counted against the visitor limit
 * and none is refused by it.
 */
export function contactEvent(
  i: number,
  siteHost: string,
  originSecret: string,
  request: { body: Buffer; contentType: string } = { body: Buffer.from(JSON.stringify(contactBody(i))), contentType: 'application/json' },
): APIGatewayProxyEventV2 {
  const viewer = {
    address: `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`,
    port: 40_000 + (i % 20_000),
    scheme: 'https' as const,
  };
  return toApiGatewayEvent(
    {
      method: 'POST',
      url: API_PATH,
      headers: {
        ...originRequestHeaders(viewerHeaders(siteHost, request), viewer, originSecret),
        'user-agent': 'Amazon CloudFront',
        via: '2.0 0123456789abcdef0123456789abcdef.cloudfront.net (CloudFront)',
        'x-amz-cf-id': randomUUID(),
        'x-forwarded-for': `${viewer.address}, 130.176.0.1`,
        'x-forwarded-proto': 'https',
        'x-amzn-trace-id': `Root=1-${Date.now().toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      },
      body: request.body,
      sourceIp: '130.176.0.1',
    },
    CONTACT_ROUTE_KEY,
  );
}

/** What a phone's browser sends with the form's fetch. */
function viewerHeaders(siteHost: string, request: { body: Buffer; contentType: string }): Record<string, string> {
  return {
    host: siteHost,
    'content-type': request.contentType,
    'content-length': String(request.body.length),
    [IDEMPOTENCY_HEADER.toLowerCase()]: randomUUID(),
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br, zstd',
    'accept-language': 'nl-NL,nl;q=0.9,en;q=0.8',
    origin: `https://${siteHost}`,
    referer: `https://${siteHost}/`,
    'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
    'sec-fetch-mode': 'cors',
    'sec-fetch-site': 'same-origin',
  };
}

export interface Sample {
  durations: number[];
  wallMs: number;
  errors: number;
  firstError?: string;
}

/** `total` calls, `concurrency` at a time, each timed from its start to its settlement. */
export async function load(concurrency: number, total: number, call: (i: number) => Promise<void>): Promise<Sample> {
  const sample: Sample = { durations: [], wallMs: 0, errors: 0 };
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const started = performance.now();
      try {
        await call(i);
      } catch (error) {
        sample.errors++;
        sample.firstError ??= (error as Error).message;
      }
      sample.durations.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  sample.wallMs = performance.now() - started;
  return sample;
}

function statsOf(concurrency: number, samples: Sample[]): LatencyStats {
  const durations = samples.flatMap((sample) => sample.durations);
  const wallMs = samples.reduce((total, sample) => total + sample.wallMs, 0);
  return {
    concurrency,
    requests: durations.length,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    p99: percentile(durations, 99),
    max: Math.max(...durations),
    throughput: (durations.length * 1000) / wallMs,
    errors: samples.reduce((total, sample) => total + sample.errors, 0),
    firstError: samples.find((sample) => sample.firstError)?.firstError,
  };
}

/**
 * The handler logs one JSON line per request to stdout (CloudWatch, in Lambda). Here the
 * lines go to a file: they are still written, so their cost is measured, but thousands of
 * them would bury the report. The outcome of each is counted so a benchmark of failing
 * requests cannot pass unnoticed.
 */
export function captureHandlerLogs(logPath: string, outcomes: Record<string, number>): () => Promise<void> {
  const file = createWriteStream(logPath);
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const outcome = /"outcome":"([a-z_]+)"/.exec(text)?.[1];
    if (outcome) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    return file.write(chunk, ...(rest as []));
  };
  return () => {
    process.stdout.write = original;
    return new Promise((resolve) => file.end(resolve));
  };
}

type ContactConfig = ReturnType<BundleParts['readContactConfig']>;

/** The bundled handler, built from the bundle's own parts as the stack configures its function. */
export async function bundledHandler(bundlePath: string, stack: LocalStack) {
  const bundle = (await import(pathToFileURL(bundlePath).href)) as BundleParts;
  const settings = bundle.readContactConfig(stack.lambdaEnv);
  const handler = bundle.createContactHandler({
    config: settings,
    clients: bundle.createAwsClients(emulatorConnections(stack.urls, 'send-contact-email')),
  });
  const siteHost = new URL(stack.urls.site).host;
  const handle = (event: APIGatewayProxyEventV2) =>
    handler(event, lambdaContext('send-contact-email', event.requestContext.requestId, Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000));
  return { handle, settings, siteHost };
}

/** The bundled handler, one request per call. */
async function handlerCalls(bundlePath: string, stack: LocalStack, next: () => number) {
  const { handle, settings, siteHost } = await bundledHandler(bundlePath, stack);
  const call = async () => {
    const result = await handle(contactEvent(next(), siteHost, settings.origin.current));
    if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
  };
  return { call, settings };
}

/** The two round trips no handler can avoid, with the handler's client options, one message per call. */
function bareCalls(stack: LocalStack, settings: ContactConfig, next: () => number) {
  const dynamo = new DynamoDBClient({ ...AWS_CLIENT_OPTIONS, ...emulatorClientConfig(stack.urls.dynamodb) });
  const ses = new SESClient({ ...AWS_CLIENT_OPTIONS, ...emulatorClientConfig(stack.urls.ses) });
  const call = async () => {
    const now = new Date();
    const { [HONEYPOT_FIELD]: _honeypot, ...fields } = contactBody(next());
    const message: StoredMessage = {
      ...fields,
      id: `bench-${randomUUID()}`,
      receivedAt: now.toISOString(),
      emailKey: emailKey(fields.email),
      status: 'received',
      attempts: 0,
      expiresAt: Math.floor(now.getTime() / 1000) + settings.retentionDays * 86_400,
    };
    await dynamo.send(new PutItemCommand({ TableName: settings.tableName, Item: marshall(message, { removeUndefinedValues: true }) }));
    await ses.send(new SendEmailCommand(buildNotification(message, mailRoute(settings))));
  };
  const destroy = () => {
    dynamo.destroy();
    ses.destroy();
  };
  return { call, destroy };
}

/** One concurrency level: handler and bare alternate in blocks. */
async function measureLevel(concurrency: number, total: number, callHandler: () => Promise<void>, callBare: () => Promise<void>) {
  // A short untimed burst at this concurrency opens the sockets it needs first.
  await load(concurrency, concurrency * 2, callHandler);
  await load(concurrency, concurrency * 2, callBare);
  // Handler and bare alternate in blocks, so a slow spell on a shared machine lands on
  // both and the overhead ratio stays about the handler.
  const handlerSamples: Sample[] = [];
  const bareSamples: Sample[] = [];
  for (let block = 0; block < BLOCKS; block++) {
    const size = Math.ceil(total / BLOCKS);
    handlerSamples.push(await load(concurrency, size, callHandler));
    bareSamples.push(await load(concurrency, size, callBare));
  }
  return { handler: statsOf(concurrency, handlerSamples), bare: statsOf(concurrency, bareSamples) };
}

export async function measureHandlerLatency(options: {
  stack: LocalStack;
  bundlePath: string;
  logPath: string;
  concurrency: readonly number[];
  requests: Record<number, number>;
  warmup: number;
}): Promise<HandlerLatency> {
  let sequence = 0;
  const next = () => sequence++;
  const handler = await handlerCalls(options.bundlePath, options.stack, next);
  const bare = bareCalls(options.stack, handler.settings, next);

  const outcomes: Record<string, number> = {};
  const result: HandlerLatency = { handler: [], bare: [], outcomes, requestsPerLevel: options.requests, bundle: options.bundlePath };
  const restore = captureHandlerLogs(options.logPath, outcomes);
  try {
    // Warm-up: JIT, the SDKs' lazy initialisation, the emulators' first tables and sockets.
    for (const call of [handler.call, bare.call]) {
      const warm = await load(10, options.warmup, call);
      if (warm.errors) throw new Error(`warm-up failed: ${warm.firstError}`);
    }
    for (const concurrency of options.concurrency) {
      const level = await measureLevel(concurrency, options.requests[concurrency] ?? 1000, handler.call, bare.call);
      result.handler.push(level.handler);
      result.bare.push(level.bare);
      // The SES stand-in keeps every e-mail in memory; emptied so later levels don't pay for earlier ones.
      await clearSentEmails(options.stack.urls.ses);
    }
  } finally {
    await restore();
    bare.destroy();
  }
  return result;
}
