/**
 * The local edge: what CloudFront does for the site, on one port. It runs the stack's own
 * CloudFront Functions on every site request (clean URLs, the 404 page with status 404),
 * serves the prerendered build with the same security and cache headers, and hands the API
 * path to the Lambda handler as API Gateway would, with what CloudFront's origin request
 * adds and leaves out, and the API's answer through the stack's Lambda@Edge origin-response
 * function (a form post that API Gateway answers itself goes on to its page). startApiGateway
 * is the API's own address beside it: the handler without CloudFront in front, as a direct
 * call to execute-api reaches it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { API_PATH } from '@site/core/contract';
import {
  API_QUERY_PARAMETERS,
  API_VIEWER_HEADERS,
  ORIGIN_VERIFY_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_SCHEME_HEADER,
} from '@site/core/api-origin';
import { securityHeaders } from '@site/core/node/security-headers';
import { cacheControlFor } from '@site/core/cache-control';
import { contentTypeFor } from '@site/core/node/content-types';
import { API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS, API_GATEWAY_MAX_PAYLOAD_BYTES } from '@site/core/function-limits';
import { listSiteFiles } from '@site/core/node/site-files';
import type { ApiRateLimit } from '@site/core/node/deploy-config';
import { apiFunctionCode, apiOriginResponseCode, edgeFunctionCode } from '@site/infra/edge-functions';
import { forLogLine } from '@site/lambda/characters';
import { logLine } from '@site/lambda/log';
import {
  CONTACT_ROUTE_KEY,
  fromHandlerResult,
  gatewayError,
  lambdaContext,
  routeKeyOf,
  toApiGatewayEvent,
  unanswered,
  type ApiResponse,
} from '@site/emulators/api-gateway';
import { LOOPBACK } from '@site/emulators/connections';
import { closeServer, listen, type RunningServer } from '@site/emulators/servers';
import { compressedCopies } from './compressed-copies';

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export interface ApiOptions {
  port: number;
  handler: ApiHandler;
  functionName: string;
  /** The function's timeout (FUNCTION_TIMEOUT_SECONDS in the stack). */
  functionTimeoutMs: number;
  /** API Gateway's integration timeout; API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS unless a test sets one. */
  integrationTimeoutMs?: number;
  /** One line per request, without personal data: method, path (escaped, see forLogLine), status, duration. */
  accessLog?: (line: string) => void;
  /**
   * The stage's throttle (stageThrottle(apiRateLimit)), one for the edge and the API's own
   * address, as they are one stage: past it, API Gateway's own 429 before the function runs.
   * None unless a test sets one: the local product serves one machine, and the robustness
   * suite's loads would hit it.
   */
  stageThrottle?: StageThrottle;
}

export interface EdgeOptions extends ApiOptions {
  siteDir: string;
  /** What CloudFront sends the API in the origin header; the function is given the same value. */
  originSecret: string;
}

/** CloudFront compresses these types between 1 KB and 10 MB when the viewer accepts it. */
const COMPRESSIBLE = /^(text\/|image\/svg|application\/(json|xml|manifest))/;
const MIN_COMPRESS_BYTES = 1024;

interface SiteFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
}

/** Reads the whole build once: it is small, and serving from memory keeps benchmarks about the page. */
function loadSite(siteDir: string): Map<string, SiteFile> {
  const files = new Map<string, SiteFile>();
  for (const urlPath of listSiteFiles(siteDir)) {
    const body = readFileSync(join(siteDir, ...urlPath.split('/')));
    const contentType = contentTypeFor(urlPath);
    const hash = createHash('sha1').update(body).digest('base64url');
    const compress = COMPRESSIBLE.test(contentType) && body.length >= MIN_COMPRESS_BYTES;
    files.set(urlPath, {
      body,
      contentType,
      cacheControl: cacheControlFor(urlPath),
      etag: `"${hash}"`,
      ...(compress ? compressedCopies(body, hash) : {}),
    });
  }
  return files;
}

interface CloudFrontRequest {
  method: string;
  uri: string;
  querystring: Record<string, unknown>;
  headers: Record<string, { value: string }>;
  cookies: Record<string, unknown>;
}

interface CloudFrontResponse {
  statusCode: number;
  statusDescription?: string;
  headers: Record<string, { value: string }>;
  cookies?: Record<string, unknown>;
}

type EdgeFunction = (event: object) => CloudFrontRequest | CloudFrontResponse;

/** A CloudFront Function's code, compiled as CloudFront runs it: strict mode, a context of its own. */
const compile = (code: string) => runInNewContext(`'use strict';\n${code}\n;handler`, {}) as EdgeFunction;

/**
 * The site behaviour's CloudFront Functions the stack deploys, with the same file list
 * written in, compiled once and run for every request.
 */
function loadEdgeFunctions(siteDir: string): Record<'viewerRequest' | 'viewerResponse', EdgeFunction> {
  const siteFiles = listSiteFiles(siteDir);
  return {
    viewerRequest: compile(edgeFunctionCode('viewer-request', siteFiles)),
    viewerResponse: compile(edgeFunctionCode('viewer-response', siteFiles)),
  };
}

/** The /api/* behaviour's CloudFront Function, which the stack deploys too. */
const apiViewerRequest = compile(apiFunctionCode()) as (event: object) => CloudFrontRequest;

/** Headers as Lambda@Edge sees them: lower-case names, each with its values and their spelling. */
type LambdaEdgeHeaders = Record<string, { key?: string; value: string }[]>;
interface LambdaEdgeResponse {
  status: string;
  statusDescription?: string;
  headers: LambdaEdgeHeaders;
  body?: string;
}
type OriginResponseHandler = (event: object) => Promise<LambdaEdgeResponse>;

/** A Lambda@Edge function's code (a CommonJS module), loaded as Lambda would, in a context of its own. */
function loadLambdaEdge(code: string): OriginResponseHandler {
  const module = { exports: {} as { handler?: OriginResponseHandler } };
  runInNewContext(code, { module, exports: module.exports });
  return module.exports.handler!;
}

/** The /api/* behaviour's Lambda@Edge function on the origin's response, which the stack deploys too. */
const apiOriginResponse = loadLambdaEdge(apiOriginResponseCode());

const lambdaEdgeHeaders = (headers: IncomingHttpHeaders | Record<string, string>): LambdaEdgeHeaders =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined
        ? []
        : [[name.toLowerCase(), (Array.isArray(value) ? value : [value]).map((v) => ({ key: name, value: String(v) }))]],
    ),
  );

/**
 * The API's answer as CloudFront passes it on: through the origin-response function, with the
 * origin request it answered, in Lambda@Edge's event shape. A body the function sets replaces
 * the API's.
 */
async function afterOriginResponse(arrival: Arrival, headers: IncomingHttpHeaders, response: ApiResponse): Promise<ApiResponse> {
  const event = {
    Records: [
      {
        cf: {
          config: {
            distributionDomainName: 'd111111abcdef8.cloudfront.net',
            distributionId: 'ELOCALEDGE',
            eventType: 'origin-response',
            requestId: randomUUID(),
          },
          request: {
            clientIp: arrival.sourceIp,
            headers: lambdaEdgeHeaders(headers),
            method: arrival.method,
            querystring: arrival.url.split('?')[1] ?? '',
            uri: pathOf(arrival.url),
          },
          response: { status: String(response.statusCode), statusDescription: '', headers: lambdaEdgeHeaders(response.headers) },
        },
      },
    ],
  };
  const answered = await apiOriginResponse(event);
  return {
    statusCode: Number(answered.status),
    headers: Object.fromEntries(Object.entries(answered.headers).map(([name, values]) => [name, values.map((v) => v.value).join(', ')])),
    body: answered.body === undefined ? response.body : Buffer.from(answered.body),
  };
}

/** A Node request's headers as a CloudFront Function sees them: lower-case names, one value each. */
function cloudFrontHeaders(headers: IncomingHttpHeaders): CloudFrontRequest['headers'] {
  const result: CloudFrontRequest['headers'] = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = { value: Array.isArray(value) ? value.join(',') : value };
  }
  return result;
}

function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer, headOnly = false): void {
  res.writeHead(status, { ...headers, 'content-length': String(body.length) });
  res.end(headOnly ? undefined : body);
}

/** What S3 answers a reader that may list the bucket, for a key that is not there. */
const NO_SUCH_KEY = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
);

/** The site behaviour: viewer-request function, S3 (the build in memory), viewer-response function. */
function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  site: Map<string, SiteFile>,
  edge: ReturnType<typeof loadEdgeFunctions>,
): number {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, Buffer.from('Method Not Allowed'));
    return 405;
  }
  const viewer = { ip: req.socket.remoteAddress ?? LOOPBACK };
  const asked: CloudFrontRequest = {
    method: req.method,
    uri: pathOf(req.url),
    querystring: {},
    headers: cloudFrontHeaders(req.headers),
    cookies: {},
  };
  const forwarded = edge.viewerRequest({ version: '1.0', context: { eventType: 'viewer-request' }, viewer, request: asked });
  if ('statusCode' in forwarded) {
    const generated = Object.fromEntries(Object.entries(forwarded.headers).map(([name, { value }]) => [name, value]));
    send(res, forwarded.statusCode, generated, Buffer.alloc(0));
    return forwarded.statusCode;
  }

  const file = site.get(forwarded.uri);
  const revalidated = file !== undefined && req.headers['if-none-match'] === file.etag;
  const origin: CloudFrontResponse = { statusCode: file ? (revalidated ? 304 : 200) : 404, headers: {}, cookies: {} };
  const { statusCode } = edge.viewerResponse({
    version: '1.0',
    context: { eventType: 'viewer-response' },
    viewer,
    request: forwarded,
    response: origin,
  }) as CloudFrontResponse;

  if (!file) {
    send(res, statusCode, { 'content-type': 'application/xml' }, NO_SUCH_KEY, req.method === 'HEAD');
    return statusCode;
  }
  const responseHeaders: Record<string, string> = {
    'content-type': file.contentType,
    'cache-control': file.cacheControl,
    etag: file.etag,
    vary: 'Accept-Encoding',
  };
  if (revalidated) {
    send(res, statusCode, responseHeaders, Buffer.alloc(0));
    return statusCode;
  }
  const accepts = String(req.headers['accept-encoding'] ?? '');
  let body = file.body;
  if (file.br && /\bbr\b/.test(accepts)) [body, responseHeaders['content-encoding']] = [file.br, 'br'];
  else if (file.gzip && /\bgzip\b/.test(accepts)) [body, responseHeaders['content-encoding']] = [file.gzip, 'gzip'];
  send(res, statusCode, responseHeaders, body, req.method === 'HEAD');
  return statusCode;
}

/** Reads the body up to API Gateway's own limit; past it, API Gateway answers 413 itself. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > API_GATEWAY_MAX_PAYLOAD_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Besides the listed viewer headers, what CloudFront's origin request always carries and the translation reads. */
const ALWAYS_FORWARDED = ['host', 'content-length'];
const FORWARDED_VIEWER_HEADERS = new Set([...ALWAYS_FORWARDED, ...API_VIEWER_HEADERS.map((name) => name.toLowerCase())]);

/** The edge serves plain HTTP: the scheme its viewers use, as CloudFront reports HTTPS for its own. */
const EDGE_SCHEME = 'http';

/** Who sent a request to CloudFront: the address and port of the connection, and the scheme it used. */
export interface Viewer {
  address: string;
  port: number;
  scheme: 'http' | 'https';
}

/**
 * The headers of CloudFront's request to the API for one viewer request: the /api/*
 * behaviour's CloudFront Function runs on the viewer's (it passes Host on as X-Viewer-Host);
 * of the result, only those the origin request policy lists (so a forged origin header,
 * viewer address or scheme never gets through), then the origin secret, the viewer's
 * `ip:port` and its scheme, as CloudFront adds them.
 */
export function originRequestHeaders(viewerHeaders: IncomingHttpHeaders, viewer: Viewer, originSecret: string): IncomingHttpHeaders {
  const { headers: seen } = apiViewerRequest({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: viewer.address },
    request: { method: 'POST', uri: API_PATH, querystring: {}, headers: cloudFrontHeaders(viewerHeaders), cookies: {} },
  });
  const headers: IncomingHttpHeaders = {};
  for (const [name, { value }] of Object.entries(seen)) {
    // The function's answer keeps the viewer's spelling of a repeated header as one value, as CloudFront does.
    if (FORWARDED_VIEWER_HEADERS.has(name)) headers[name] = value;
  }
  headers[ORIGIN_VERIFY_HEADER.toLowerCase()] = originSecret;
  headers[VIEWER_ADDRESS_HEADER.toLowerCase()] = `${viewer.address}:${viewer.port}`;
  headers[VIEWER_SCHEME_HEADER.toLowerCase()] = viewer.scheme;
  return headers;
}

export interface StageThrottle {
  /** Whether a request may go on now; each one that may takes a token. */
  take(): boolean;
}

/** API Gateway's throttle: a token bucket of `burst` tokens, refilled at `rate` a second. */
export function stageThrottle({ rate, burst }: ApiRateLimit): StageThrottle {
  let tokens = burst;
  let at = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(burst, tokens + ((now - at) / 1000) * rate);
      at = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** The request line and the connection's address, as API Gateway sees them. */
interface Arrival {
  method: string;
  url: string;
  sourceIp: string;
}

const arrivalOf = (req: IncomingMessage): Arrival => ({
  method: req.method ?? 'GET',
  url: req.url ?? '/',
  sourceIp: req.socket.remoteAddress ?? LOOPBACK,
});

/** The URL as CloudFront's origin request policy passes it on: of the query string, only API_QUERY_PARAMETERS. */
function throughOriginPolicy(url: string): string {
  const [path = '/', query = ''] = url.split('?', 2);
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(query)) {
    if ((API_QUERY_PARAMETERS as readonly string[]).includes(name)) kept.append(name, value);
  }
  const rest = kept.toString();
  return rest ? `${path}?${rest}` : path;
}

/**
 * One invocation, with the two clocks AWS runs: Lambda ends the function at its timeout (a
 * function error: API Gateway answers 500), and API Gateway stops waiting at the
 * integration's (it answers 503). Whichever comes first decides the answer. A handler in a
 * sandbox (function-sandbox.ts) is ended at its deadline however busy its code is; one
 * called in this thread can only be answered for once it lets the thread go.
 */
async function invoke(
  options: ApiOptions,
  arrival: Arrival,
  headers: IncomingHttpHeaders,
  body: Buffer,
  routeKey = CONTACT_ROUTE_KEY,
): Promise<ApiResponse> {
  if (options.stageThrottle && !options.stageThrottle.take()) return gatewayError(429, 'Too Many Requests');
  const event = toApiGatewayEvent({ ...arrival, headers, body }, routeKey);
  const context = lambdaContext(options.functionName, event.requestContext.requestId, Date.now() + options.functionTimeoutMs);
  const integrationTimeoutMs = options.integrationTimeoutMs ?? API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS * 1000;
  const gatewayGivesUp = integrationTimeoutMs < options.functionTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), Math.min(options.functionTimeoutMs, integrationTimeoutMs));
  });
  try {
    const result = await Promise.race([options.handler(event, context), timedOut]);
    if (result !== 'timed out') return fromHandlerResult(result);
    if (gatewayGivesUp) return unanswered('integration timed out');
    functionError(options, `Task timed out after ${options.functionTimeoutMs / 1000} seconds`);
  } catch (error) {
    functionError(options, (error as Error).message);
  } finally {
    clearTimeout(timer);
  }
  return unanswered('function failed');
}

function functionError(options: ApiOptions, error: string): void {
  console.error(logLine({ level: 'error', msg: 'function error', function: options.functionName, error }));
}

/**
 * API Gateway in front of the handler; `headers` are what reach it (CloudFront's, or the
 * caller's own). Through the edge, its answer goes through the origin-response function.
 */
async function serveApi(
  req: IncomingMessage,
  res: ServerResponse,
  options: ApiOptions,
  headers: IncomingHttpHeaders,
  { throughEdge }: { throughEdge: boolean },
): Promise<number> {
  const body = await readBody(req);
  const asSent = arrivalOf(req);
  const arrival = throughEdge ? { ...asSent, url: throughOriginPolicy(asSent.url) } : asSent;
  const routeKey = routeKeyOf(arrival.method, pathOf(req.url));
  let response: ApiResponse;
  if (body === undefined) response = gatewayError(413, 'Request Entity Too Large');
  else if (routeKey === undefined) response = gatewayError(404, 'Not Found');
  else response = await invoke(options, arrival, headers, body, routeKey);
  if (throughEdge) response = await afterOriginResponse(arrival, headers, response);
  send(res, response.statusCode, response.headers, response.body, req.method === 'HEAD');
  return response.statusCode;
}

/**
 * What the edge answers a POST to the API from `viewer`, without a socket: for viewers this
 * machine cannot be, such as addresses of other IPv6 networks (loopback has only ::1). The
 * same origin request (the API's CloudFront Function, the policy, the secret, the viewer's
 * `ip:port`) into the same API stand-in and function as a request on the edge's port.
 */
export function postFromViewer(
  options: EdgeOptions,
  viewer: { address: string; port: number },
  request: { headers: IncomingHttpHeaders; body: Buffer },
): Promise<ApiResponse> {
  const headers = originRequestHeaders(request.headers, { ...viewer, scheme: EDGE_SCHEME }, options.originSecret);
  const arrival = { method: 'POST', url: API_PATH, sourceIp: viewer.address };
  return invoke(options, arrival, headers, request.body).then((response) => afterOriginResponse(arrival, headers, response));
}

/**
 * One access log line per request once it is answered. The path is the viewer's, decoded and
 * then escaped (forLogLine), so a request for `/x%0a{"level":…}%1b[2J` is one line that shows
 * those escapes, never a second line or a terminal control sequence.
 */
function logged(options: ApiOptions, req: IncomingMessage, res: ServerResponse, handled: Promise<number>): void {
  const started = performance.now();
  handled
    .then((status) =>
      options.accessLog?.(
        `${forLogLine(req.method ?? '')} ${forLogLine(pathOf(req.url).slice(0, 200))} ${status} ${Math.round(performance.now() - started)}ms`,
      ),
    )
    .catch((error: Error) => {
      if (!res.headersSent) send(res, 500, { 'content-type': 'text/plain' }, Buffer.from('Internal Server Error'));
      console.error(logLine({ level: 'error', msg: 'edge error', error: error.message }));
    });
}

export async function startEdge(options: EdgeOptions): Promise<RunningServer> {
  const files = loadSite(options.siteDir);
  const edge = loadEdgeFunctions(options.siteDir);
  // As CloudFront's response headers policy: on every answer, with this build's CSP hashes.
  const security = Object.entries(securityHeaders(options.siteDir));
  const server = createServer((req, res) => {
    for (const [name, value] of security) res.setHeader(name, value);
    const isApi = pathOf(req.url).startsWith('/api/');
    const viewer: Viewer = { address: req.socket.remoteAddress ?? LOOPBACK, port: req.socket.remotePort ?? 0, scheme: EDGE_SCHEME };
    const handled = isApi
      ? serveApi(req, res, options, originRequestHeaders(req.headers, viewer, options.originSecret), { throughEdge: true })
      : Promise.resolve(serveStatic(req, res, files, edge));
    logged(options, req, res, handled);
  });
  // Keep-alive like CloudFront, but never let an idle socket hold a shutdown.
  server.keepAliveTimeout = 5000;
  const port = await listen(server, options.port);
  return { url: `http://${LOOPBACK}:${port}`, port, close: () => closeServer(server) };
}

/** The API's own address (execute-api): every request goes to API Gateway as the caller sent it. */
export async function startApiGateway(options: ApiOptions): Promise<RunningServer> {
  const server = createServer((req, res) => logged(options, req, res, serveApi(req, res, options, req.headers, { throughEdge: false })));
  server.keepAliveTimeout = 5000;
  const port = await listen(server, options.port);
  return { url: `http://${LOOPBACK}:${port}`, port, close: () => closeServer(server) };
}
