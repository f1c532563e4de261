/**
 * What reaches the function locally, as in AWS: through the edge, CloudFront's origin
 * request (the listed viewer headers, the origin secret, the viewer's ip:port from the
 * socket, nothing a viewer forges); through the API's own address, the caller's request as
 * sent. A recording handler stands in for the function: this is about the edge.
 */
import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { ORIGIN_VERIFY_HEADER } from '@site/core/api-origin';
import { VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { originRequestHeaders, startApiGateway, startEdge } from '../src/edge';
import type { RunningServer } from '../src/emulators';

const SECRET = 'a-secret-only-the-edge-and-the-function-know-0123456789';
const received: APIGatewayProxyEventV2[] = [];
const handler = (event: APIGatewayProxyEventV2) => {
  received.push(event);
  return Promise.resolve({ statusCode: 200, body: '{}' });
};

let edge: RunningServer;
let api: RunningServer;

beforeAll(async () => {
  const siteDir = mkdtempSync(join(tmpdir(), 'origin-site-'));
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Home</title>');
  writeFileSync(join(siteDir, '404.html'), '<!doctype html><title>404</title>');
  const common = { port: 0, handler, functionName: 'recorder', functionTimeoutMs: 5_000 };
  edge = await startEdge({ ...common, siteDir, originSecret: SECRET });
  api = await startApiGateway(common);
});
afterAll(async () => {
  await edge?.close();
  await api?.close();
});

/** One POST from `localAddress` (another loopback address is another visitor); the event the handler got and the client's port. */
function post(url: string, headers: Record<string, string>, localAddress = '127.0.0.1') {
  return new Promise<{ event: APIGatewayProxyEventV2; clientPort: number }>((resolve, reject) => {
    const req = request(`${url}${API_PATH}`, { method: 'POST', headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ event: received.at(-1)!, clientPort }));
    });
    let clientPort = 0;
    req.on('socket', (socket) => socket.on('connect', () => (clientPort = socket.localPort!)));
    req.on('error', reject);
    req.end('{}');
  });
}

const FORGED = {
  'content-type': 'application/json',
  [IDEMPOTENCY_HEADER]: '0b4f1a7e-3c2d-4e5f-8a9b-1c2d3e4f5a6b',
  [ORIGIN_VERIFY_HEADER]: 'guessed',
  [VIEWER_ADDRESS_HEADER]: '203.0.113.99:1234',
  cookie: 'session=1',
  authorization: 'Basic eDp5',
  'x-forwarded-for': '203.0.113.98',
};

describe('through the edge', () => {
  it('passes the listed viewer headers, adds the origin secret and the viewer ip:port, and drops everything else', async () => {
    const { event, clientPort } = await post(edge.url, FORGED);
    expect(event.headers[ORIGIN_VERIFY_HEADER.toLowerCase()]).toBe(SECRET);
    expect(event.headers[VIEWER_ADDRESS_HEADER.toLowerCase()]).toBe(`127.0.0.1:${clientPort}`);
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers[IDEMPOTENCY_HEADER.toLowerCase()]).toBe(FORGED[IDEMPOTENCY_HEADER]);
    for (const dropped of ['cookie', 'authorization', 'x-forwarded-for', 'user-agent']) expect(event.headers).not.toHaveProperty(dropped);
  });

  it('reports a client on another loopback address as another visitor', async () => {
    const { event, clientPort } = await post(edge.url, { 'content-type': 'application/json' }, '127.0.0.7');
    expect(event.headers[VIEWER_ADDRESS_HEADER.toLowerCase()]).toBe(`127.0.0.7:${clientPort}`);
  });
});

describe("through the API's own address", () => {
  it('hands the handler the request as the caller sent it: no origin secret, forged headers and all', async () => {
    const { event } = await post(api.url, FORGED);
    expect(event.headers[ORIGIN_VERIFY_HEADER.toLowerCase()]).toBe('guessed');
    expect(event.headers[VIEWER_ADDRESS_HEADER.toLowerCase()]).toBe('203.0.113.99:1234');
    expect(event.headers.cookie).toBe('session=1');
  });

  it('answers other paths itself, as API Gateway does', async () => {
    const response = await fetch(`${api.url}/api/other`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});

describe('originRequestHeaders', () => {
  it('matches header names in any case, and writes the viewer address as ip:port', () => {
    const headers = originRequestHeaders({ 'Content-Type': 'text/plain', 'X-Other': 'x' }, { address: '127.0.0.3', port: 40000 }, SECRET);
    expect(headers).toEqual({
      'content-type': 'text/plain',
      [ORIGIN_VERIFY_HEADER.toLowerCase()]: SECRET,
      [VIEWER_ADDRESS_HEADER.toLowerCase()]: '127.0.0.3:40000',
    });
  });
});
