/**
 * Translates between a Node HTTP request and the API Gateway HTTP API payload format 2.0,
 * so the local edge invokes the Lambda handler exactly as AWS would.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { API_PATH, CHALLENGE_PATH, HELD_PATH } from '@site/core/contract';

/** The stack's route to the contact function: ANY method, so the handler itself answers the others with 405. */
export const CONTACT_ROUTE_KEY = `ANY ${API_PATH}`;

/** The page's proof-of-work challenge, from the same function: GET only, as the page asks for it. */
export const CHALLENGE_ROUTE_KEY = `GET ${CHALLENGE_PATH}`;

/** The firm's page of held messages, from the same function: ANY method, as the contact route. */
export const HELD_ROUTE_KEY = `ANY ${HELD_PATH}`;

/** The route a request matches, as API Gateway picks it; none is its 404 `Not Found`. */
export function routeKeyOf(method: string, path: string): string | undefined {
  if (path === API_PATH) return CONTACT_ROUTE_KEY;
  if (path === CHALLENGE_PATH && method === 'GET') return CHALLENGE_ROUTE_KEY;
  if (path === HELD_PATH) return HELD_ROUTE_KEY;
  return undefined;
}

export interface ApiRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
}

export interface ApiResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Content types API Gateway passes as text; everything else, and any non-UTF-8 body, arrives base64. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeText(body: Buffer): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined;
  }
}

export function toApiGatewayEvent(request: ApiRequest, routeKey: string, now = new Date()): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = request.url.split('?', 2) as [string, string?];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    // HTTP API joins repeated headers with commas and lower-cases names.
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const queryStringParameters = rawQueryString ? Object.fromEntries(new URLSearchParams(rawQueryString)) : undefined;
  const text = request.body.length > 0 && TEXT_TYPES.test(headers['content-type'] ?? '') ? decodeText(request.body) : undefined;
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    queryStringParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  if (request.body.length > 0) {
    if (text !== undefined) event.body = text;
    else {
      event.body = request.body.toString('base64');
      event.isBase64Encoded = true;
    }
  }
  return event;
}

/** Applies API Gateway's rules for a handler's result (a bare object or string is a 200 JSON body). */
export function fromHandlerResult(result: APIGatewayProxyResultV2): ApiResponse {
  if (typeof result === 'string' || result === null || typeof result !== 'object' || !('statusCode' in result)) {
    const body = typeof result === 'string' ? result : JSON.stringify(result);
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: result.statusCode ?? 200, headers, body };
}

/** The parts of the Lambda context a handler may read. */
export function lambdaContext(functionName: string, requestId: string, deadline: number): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** What API Gateway answers itself, as JSON in its own shape. */
export function gatewayError(statusCode: number, message: string): ApiResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ message })) };
}

/**
 * What API Gateway (HTTP API) answers when the function does not: 500 when the invocation
 * failed (the function threw, or Lambda ended it at its timeout: "Task timed out"), and 503
 * when API Gateway itself stopped waiting at the integration's timeout, the function maybe
 * still running. Both in API Gateway's own shape, with nothing of the function's.
 */
export function unanswered(why: 'function failed' | 'integration timed out'): ApiResponse {
  return why === 'function failed' ? gatewayError(500, 'Internal Server Error') : gatewayError(503, 'Service Unavailable');
}
