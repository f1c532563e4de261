/**
 * The local edge ends a call as AWS does: Lambda ends the function at its timeout and API
 * Gateway answers 500; API Gateway stops waiting at its integration timeout and answers 503.
 * The function runs in an environment of its own (function-sandbox.ts), so a call whose code
 * never lets go of its thread is ended too, and the site goes on being served meanwhile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { API_PATH } from '@site/core/contract';
import { API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS, FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { startApiGateway, startEdge } from '../src/edge';
import type { RunningServer } from '@site/emulators/servers';
import { startFunctionSandbox, type FunctionSandbox } from '../src/function-sandbox';
import { makeSiteDir } from '@site/testing/fixtures/site';

const BUSY_FUNCTION = new URL('./support/busy-function.ts', import.meta.url).href;

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function sandbox(): Promise<FunctionSandbox> {
  const started = await startFunctionSandbox({ entry: BUSY_FUNCTION, functionName: 'busy', env: { ENVIRONMENT_NAME: 'its own' } });
  running.push(started);
  return started;
}

async function edgeFor(handler: FunctionSandbox['handler'], timeouts: { functionTimeoutMs: number; integrationTimeoutMs?: number }) {
  const edge: RunningServer = await startEdge({
    port: 0,
    handler,
    functionName: 'busy',
    ...timeouts,
    siteDir: makeSiteDir(),
    originSecret: 'a-secret-only-the-edge-and-the-function-know-0123456789',
  });
  running.push(edge);
  return edge;
}

const post = (edge: RunningServer, body: string) =>
  fetch(`${edge.url}${API_PATH}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body }).then(async (response) => ({
    status: response.status,
    body: await response.json(),
  }));

describe('a function that runs past its timeout', () => {
  it('is ended, even while its code holds its thread, and API Gateway answers 500 in its own words', async () => {
    const edge = await edgeFor((await sandbox()).handler, { functionTimeoutMs: 500, integrationTimeoutMs: 5_000 });
    const stuck = post(edge, 'spin');
    // The site is served meanwhile: the function's thread is not the edge's.
    const page = await fetch(`${edge.url}/`);
    expect(page.status).toBe(200);
    expect(await stuck).toEqual({ status: 500, body: { message: 'Internal Server Error' } });
  });

  it('leaves the next call a fresh environment, with the function environment it was given', async () => {
    // Time enough for the fresh environment to load on a busy machine, inside the call's own time as in API Gateway's.
    const edge = await edgeFor((await sandbox()).handler, { functionTimeoutMs: 5_000 });
    expect(await post(edge, 'hallo')).toEqual({ status: 200, body: { calls: 1, environment: 'its own' } });
    expect((await post(edge, 'spin')).status).toBe(500);
    // The environment that counted the first call is gone.
    expect(await post(edge, 'hallo')).toEqual({ status: 200, body: { calls: 1, environment: 'its own' } });
  });
});

describe('a function that only waits past its timeout', () => {
  it('is answered 500, while a call beside it in the same environment still gets its answer, and the next a fresh environment', async () => {
    // The slow call is in flight (from 1 s to 2 s) when the waiting one times out (at 1.5 s), and is answered before its own deadline.
    const edge = await edgeFor((await sandbox()).handler, { functionTimeoutMs: 1_500 });
    const waiting = post(edge, 'wait');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const slow = post(edge, 'slow');
    expect(await waiting).toEqual({ status: 500, body: { message: 'Internal Server Error' } });
    expect(await slow).toEqual({ status: 200, body: { calls: 2 } });
    expect(await post(edge, 'hallo')).toEqual({ status: 200, body: { calls: 1, environment: 'its own' } });
  });
});

describe('API Gateway that stops waiting first', () => {
  it('answers 503 in its own words when its integration timeout is the shorter one', async () => {
    const edge = await edgeFor((await sandbox()).handler, { functionTimeoutMs: 5_000, integrationTimeoutMs: 300 });
    expect(await post(edge, 'wait')).toEqual({ status: 503, body: { message: 'Service Unavailable' } });
  });
});

describe("the API's own address", () => {
  it('ends a call the same way; with the deployed timeouts the function is ended before API Gateway stops waiting', async () => {
    expect(FUNCTION_TIMEOUT_SECONDS).toBeLessThan(API_GATEWAY_INTEGRATION_TIMEOUT_SECONDS);
    const api = await startApiGateway({ port: 0, handler: (await sandbox()).handler, functionName: 'busy', functionTimeoutMs: 400 });
    running.push(api);
    expect((await post(api, 'spin')).body).toEqual({ message: 'Internal Server Error' });
  });
});
