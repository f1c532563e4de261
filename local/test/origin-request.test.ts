/**
 * What reaches the function locally, as in AWS: through the edge, CloudFront's origin
 * request (the API's CloudFront Function, the listed viewer headers, the origin secret, the
 * viewer's ip:port from the socket, nothing a viewer forges); through the API's own address,
 * the caller's request as sent. A recording handler stands in for the function: this is
 * about the edge, and its access log.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER, VIEWER_SCHEME_HEADER } from '@site/core/api-origin';
import { originRequestHeaders, postFromViewer, startApiGateway, startEdge } from '../src/edge';
import type { RunningServer } from '@site/emulators/servers';
import { cloudFrontOriginHeaders } from '@site/testing/api-events';

const SECRET = 'a-secret-only-the-edge-and-the-function-know-0123456789';
const received: APIGatewayProxyEventV2[] = [];
const accessLines: string[] = [];
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
  edge = await startEdge({ ...common, siteDir, originSecret: SECRET, accessLog: (line) => accessLines.push(line) });
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

  it('passes on where a browser says the post comes from, the Host the viewer asked for as X-Viewer-Host and its scheme, never forged ones', async () => {
    const browser = {
      'content-type': 'application/json',
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      referer: 'https://evil.example/x',
    };
    const { event } = await post(edge.url, { ...browser, [VIEWER_HOST_HEADER]: 'evil.example', [VIEWER_SCHEME_HEADER]: 'https' });
    expect(event.headers.origin).toBe('https://evil.example');
    expect(event.headers['sec-fetch-site']).toBe('cross-site');
    expect(event.headers.referer).toBe('https://evil.example/x');
    expect(event.headers[VIEWER_HOST_HEADER.toLowerCase()]).toBe(new URL(edge.url).host);
    // The edge serves plain HTTP.
    expect(event.headers[VIEWER_SCHEME_HEADER.toLowerCase()]).toBe('http');
  });

  it('reports a client on another loopback address as another visitor', async () => {
    const { event, clientPort } = await post(edge.url, { 'content-type': 'application/json' }, '127.0.0.7');
    expect(event.headers[VIEWER_ADDRESS_HEADER.toLowerCase()]).toBe(`127.0.0.7:${clientPort}`);
  });
});

describe('postFromViewer', () => {
  it('hands the handler what a POST on the edge’s port from that viewer would, for an address loopback cannot be', async () => {
    const options = { port: 0, handler, functionName: 'recorder', functionTimeoutMs: 5_000, siteDir: '.', originSecret: SECRET };
    const answer = await postFromViewer(
      options,
      { address: '2001:db8:4848:12::7', port: 40001 },
      { headers: { ...FORGED, host: 'www.example.nl', origin: 'https://www.example.nl' }, body: Buffer.from('{}') },
    );
    expect(answer.statusCode).toBe(200);
    const event = received.at(-1)!;
    expect(event.requestContext.http).toMatchObject({ method: 'POST', path: API_PATH, sourceIp: '2001:db8:4848:12::7' });
    expect(event.headers).toMatchObject({
      [ORIGIN_VERIFY_HEADER.toLowerCase()]: SECRET,
      [VIEWER_ADDRESS_HEADER.toLowerCase()]: '2001:db8:4848:12::7:40001',
      [VIEWER_HOST_HEADER.toLowerCase()]: 'www.example.nl',
      origin: 'https://www.example.nl',
    });
    expect(event.headers).not.toHaveProperty('cookie');
  });
});

describe('the access log', () => {
  /** One GET of `path` as written, on a connection of its own. */
  const get = (url: string, path: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${url}${path}`, { agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });

  it('writes one line per request, with control, separator and invisible characters of the path escaped', async () => {
    accessLines.length = 0;
    const forged = '/x%0A%7B%22level%22%3A%22info%22%2C%22msg%22%3A%22forged%22%7D%1B%5B2J%E2%80%AEgnp.exe%E2%80%A8%C2%9B';
    await get(edge.url, forged);
    await get(edge.url, `/api/send-contact-email%0d%0a%1b]0;title%07`);
    // The line is written once the answer is out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(accessLines).toHaveLength(2);
    expect(accessLines[0]).toMatch(/^GET \/x%0A\{"level":"info","msg":"forged"\}%1B\[2J%E2%80%AEgnp\.exe%E2%80%A8%C2%9B 404 \d+ms$/);
    expect(accessLines[1]).toMatch(/^GET \/api\/send-contact-email%0D%0A%1B\]0;title%07 404 \d+ms$/);
    // eslint-disable-next-line no-control-regex -- finds the control characters the line must not hold
    for (const line of accessLines) expect(line).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202E]/);
  });

  it('writes a literal % as %25, so an escape in the log always stands for the character itself', async () => {
    accessLines.length = 0;
    await get(edge.url, '/100%25');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(accessLines[0]).toMatch(/^GET \/100%25 404 \d+ms$/);
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
  it('runs the API behaviour’s CloudFront Function: Host goes on as X-Viewer-Host, over whatever the viewer sent under that name', () => {
    const headers = originRequestHeaders(
      { Host: 'www.example.nl', 'X-Viewer-Host': 'evil.example', Origin: 'https://www.example.nl' },
      { address: '127.0.0.3', port: 40000, scheme: 'https' },
      SECRET,
    );
    expect(headers).toMatchObject({ host: 'www.example.nl', 'x-viewer-host': 'www.example.nl', origin: 'https://www.example.nl' });
    expect(
      originRequestHeaders({ 'X-Viewer-Host': 'evil.example' }, { address: '127.0.0.3', port: 1, scheme: 'https' }, SECRET),
    ).not.toHaveProperty('x-viewer-host');
  });

  it('matches header names in any case, and writes the viewer address as ip:port and the scheme it used, over any the viewer sent', () => {
    const headers = originRequestHeaders(
      { 'Content-Type': 'text/plain', 'X-Other': 'x', 'CloudFront-Forwarded-Proto': 'http' },
      { address: '127.0.0.3', port: 40000, scheme: 'https' },
      SECRET,
    );
    expect(headers).toEqual({
      'content-type': 'text/plain',
      [ORIGIN_VERIFY_HEADER.toLowerCase()]: SECRET,
      [VIEWER_ADDRESS_HEADER.toLowerCase()]: '127.0.0.3:40000',
      [VIEWER_SCHEME_HEADER.toLowerCase()]: 'https',
    });
  });
});

describe("the origin request the function's tests build", () => {
  it('is the one the edge makes, for ordinary, forged and repeated headers alike', () => {
    const viewer = { address: '198.51.100.7', port: 40_123, scheme: 'https' } as const;
    const requests: IncomingHttpHeaders[] = [
      { host: 'www.example.nl', 'content-type': 'application/json', origin: 'https://www.example.nl', 'sec-fetch-site': 'same-origin' },
      { host: 'www.example.nl', 'Content-Type': 'application/x-www-form-urlencoded', referer: 'https://www.example.nl/#contact' },
      {
        host: 'www.example.nl',
        'x-viewer-host': 'attacker.example',
        'x-origin-verify': 'guess',
        'cloudfront-viewer-address': '203.0.113.9:1',
        'cloudfront-forwarded-proto': 'http',
        cookie: 'a=b',
        [IDEMPOTENCY_HEADER.toLowerCase()]: '3b241101-e2bb-4255-8caf-4136c566a962',
      },
      { 'content-type': 'application/json' },
    ];
    for (const headers of requests) {
      expect(cloudFrontOriginHeaders(headers, viewer, SECRET), JSON.stringify(headers)).toEqual(
        originRequestHeaders(headers, viewer, SECRET),
      );
    }
  });
});
