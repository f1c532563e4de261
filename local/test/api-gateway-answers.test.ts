/**
 * What a visitor gets when API Gateway answers instead of the function: the stage throttle
 * (a token bucket, one for the stage, whichever address is asked) and a function that failed.
 * Through the edge, the stack's Lambda@Edge origin-response function sends such an answer to
 * a form post on to the page that says it; a script's request, and the API's own address,
 * get API Gateway's JSON as it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { API_PATH, FORM_CONTENT_TYPE, FORM_RESULT_PAGES } from '@site/core/contract';
import type { RunningServer } from '@site/emulators/servers';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { stageThrottle, startApiGateway, startEdge, type ApiHandler, type StageThrottle } from '../src/edge';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A function that answers a form post as the contact function does when it sends: 303 to the thanks page. */
const sends: ApiHandler = () => Promise.resolve({ statusCode: 303, headers: { location: FORM_RESULT_PAGES.sent }, body: '' });
const fails: ApiHandler = () => Promise.reject(new Error('no table'));

async function frontDoors(handler: ApiHandler, throttle?: StageThrottle) {
  const common = { port: 0, handler, functionName: 'contact', functionTimeoutMs: 5_000, stageThrottle: throttle };
  const edge = await startEdge({
    ...common,
    siteDir: makeSiteDir(),
    originSecret: 'a-secret-only-the-edge-and-the-function-know-0123456789',
  });
  const api = await startApiGateway(common);
  running.push(edge, api);
  return { edge: edge.url, api: api.url };
}

const formPost = (base: string) =>
  fetch(base + API_PATH, { method: 'POST', redirect: 'manual', headers: { 'content-type': FORM_CONTENT_TYPE }, body: 'naam=Marieke' });
const scriptPost = (base: string) =>
  fetch(base + API_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"naam":"Marieke"}' });

describe('at the stage throttle', () => {
  it('lets the burst through, then answers 429 before the function runs, on the edge and the API’s own address alike', async () => {
    let calls = 0;
    const counting: ApiHandler = async (event, context) => {
      calls++;
      return sends(event, context);
    };
    // A rate so low that no token comes back within the test.
    const doors = await frontDoors(counting, stageThrottle({ rate: 0.001, burst: 2 }));
    expect((await formPost(doors.edge)).status).toBe(303);
    expect((await formPost(doors.api)).status).toBe(303);
    const throttled = await scriptPost(doors.api);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({ message: 'Too Many Requests' });
    expect(throttled.headers.get('retry-after')).toBeNull();
    expect(calls).toBe(2);
  });

  it('sends a form post through the edge on to the busy page, and leaves the script its JSON', async () => {
    const doors = await frontDoors(sends, stageThrottle({ rate: 0.001, burst: 0 }));
    const post = await formPost(doors.edge);
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe(FORM_RESULT_PAGES.busy);
    expect(post.headers.get('content-type')).toBeNull();
    expect(await post.text()).toBe('');

    const script = await scriptPost(doors.edge);
    expect(script.status).toBe(429);
    expect(await script.json()).toEqual({ message: 'Too Many Requests' });
  });

  it('fills the bucket again at its rate', async () => {
    const doors = await frontDoors(sends, stageThrottle({ rate: 20, burst: 1 }));
    expect((await formPost(doors.api)).status).toBe(303);
    expect((await formPost(doors.api)).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await formPost(doors.api)).status).toBe(303);
  });
});

describe('when the function fails', () => {
  it('sends a form post through the edge on to the failure page; the API’s own address answers 500 in API Gateway’s words', async () => {
    const doors = await frontDoors(fails);
    const post = await formPost(doors.edge);
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe(FORM_RESULT_PAGES.failed);
    const direct = await formPost(doors.api);
    expect(direct.status).toBe(500);
    expect(await direct.json()).toEqual({ message: 'Internal Server Error' });
    const script = await scriptPost(doors.edge);
    expect(script.status).toBe(500);
    expect(await script.json()).toEqual({ message: 'Internal Server Error' });
  });
});
