/** API Gateway HTTP API (payload 2.0) events, as the gateway builds them for this route. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { API_PATH } from '../../src/contract';

export interface EventParts {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string. */
  body?: unknown;
  isBase64Encoded?: boolean;
}

let sequence = 0;

export function contactEvent(parts: EventParts = {}): APIGatewayProxyEventV2 {
  sequence += 1;
  const method = parts.method ?? 'POST';
  const body = parts.body === undefined ? undefined : typeof parts.body === 'string' ? parts.body : JSON.stringify(parts.body);
  return {
    version: '2.0',
    routeKey: `POST ${API_PATH}`,
    rawPath: API_PATH,
    rawQueryString: '',
    headers: parts.headers ?? { 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: API_PATH, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: `request-${sequence}`,
      routeKey: `POST ${API_PATH}`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: parts.isBase64Encoded ?? false,
  };
}

export const VALID_BODY = {
  name: 'Jan de Vries',
  email: 'jan@voorbeeld.nl',
  phone: '055 123 4567',
  company: 'De Vries B.V.',
  message: 'Graag een afspraak over interim management.',
} as const;

export interface JsonAnswer {
  statusCode: number;
  headers: Record<string, string>;
  json: { id?: string; error?: string; fields?: Record<string, string> };
}

/** The handler's answer with its body parsed; fails the test if the body is not JSON. */
export function answer(result: { statusCode?: number; headers?: Record<string, unknown>; body?: string }): JsonAnswer {
  return {
    statusCode: result.statusCode ?? 0,
    headers: (result.headers ?? {}) as Record<string, string>,
    json: JSON.parse(result.body ?? ''),
  };
}
