/**
 * GET /api/challenge and the stamps made from it, as an attacker who has read the code would
 * try them: another site's page asking for challenges through its visitors' browsers, one
 * client asking for many, a stamp solved on another network, one kept past its minutes, and
 * stamps outstanding while the origin secret is rotated.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge } from 'altcha-lib/types';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_PATH, STAMP_FIELD } from '@site/core/contract';
import { STAMP_DIFFICULTY } from '@site/core/spam';
import { CHALLENGE_ROUTE_KEY, toApiGatewayEvent } from '@site/emulators/api-gateway';
import { answer, cloudFrontOriginHeaders, contactEvent, ownMessage } from '@site/testing/api-events';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import type { ContactConfig } from '../src/config';
import { createContactHandler } from '../src/contact/contact-handler';
import { CHALLENGES_PER_MESSAGE } from '../src/spam/challenge-limit';
import { stampKeyring } from '../src/spam/stamp';
import { useLocalAws, type LocalAwsStack } from './support/contact-stack';

const SITE = 'www.voorbeeld.nl';

/** The request the stamp worker's fetch makes from the site's page on `viewer`, or another site's (`fetchSite`). */
function challengeRequest(viewer: string, fetchSite = 'same-origin', originSecret = TEST_ORIGIN_SECRET) {
  const headers = cloudFrontOriginHeaders(
    { host: SITE, 'sec-fetch-site': fetchSite },
    { address: viewer, port: 40_000, scheme: 'https' },
    originSecret,
  );
  return toApiGatewayEvent(
    { method: 'GET', url: CHALLENGE_PATH, headers, body: Buffer.alloc(0), sourceIp: '203.0.113.7' },
    CHALLENGE_ROUTE_KEY,
  );
}

function handlerOf(stack: LocalAwsStack, clock: { now: Date }, config: Partial<ContactConfig> = {}) {
  return createContactHandler({ config: { ...stack.aws.config, ...config }, clients: stack.aws.clients, clock: () => clock.now });
}

/** What the page's script does with the challenge's answer: solve it, and put it in the form's body. */
async function solved(result: { statusCode?: number; body?: string }): Promise<string> {
  expect(result.statusCode).toBe(200);
  const { challenge } = JSON.parse(result.body!) as { challenge: Challenge };
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const MINUTE = 60_000;

describe('GET /api/challenge', () => {
  const stack = useLocalAws();

  it('answers the site’s own page, and refuses another site’s (an image or a script there) with 403 and no challenge', async () => {
    const handler = handlerOf(stack, { now: new Date() });
    expect((await handler(challengeRequest('192.0.2.1'))).statusCode).toBe(200);
    for (const fetchSite of ['cross-site', 'same-site', 'none']) {
      const refused = answer(await handler(challengeRequest('192.0.2.1', fetchSite)));
      expect(refused.statusCode).toBe(403);
      expect(refused.json).not.toHaveProperty('challenge');
      expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'challenge_refused', crossSite: 'sec-fetch-site' });
    }
  });

  it('gives one visitor a few challenges per message it may send, then 429 until the window ends; others and its posts unaffected', async () => {
    const clock = { now: new Date('2026-11-27T10:00:30Z') };
    const handler = handlerOf(stack, clock);
    const { messages, windowSeconds } = stack.aws.config.visitorLimit;
    const allowed = messages * CHALLENGES_PER_MESSAGE;
    const statuses = [];
    for (let i = 0; i < allowed + 3; i += 1) statuses.push((await handler(challengeRequest('192.0.2.2'))).statusCode);
    expect(statuses).toEqual([...Array<number>(allowed).fill(200), 429, 429, 429]);
    const refused = answer(await handler(challengeRequest('192.0.2.2')));
    expect(Number(refused.headers['Retry-After'])).toBe(windowSeconds - 30);
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'challenge_limited', status: 429 });
    // Another visitor, and the same visitor's messages, count apart.
    expect((await handler(challengeRequest('192.0.2.3'))).statusCode).toBe(200);
    expect((await handler(contactEvent({ body: ownMessage(), viewer: '192.0.2.2' }))).statusCode).toBe(200);
    // The next window counts afresh.
    clock.now = new Date(clock.now.getTime() + windowSeconds * 1000);
    expect((await handler(challengeRequest('192.0.2.2'))).statusCode).toBe(200);
  });
});

describe('a stamp', () => {
  const stack = useLocalAws();

  async function sent(handler: ReturnType<typeof handlerOf>, viewer: string, stamp: string) {
    const result = answer(await handler(contactEvent({ body: { ...ownMessage(), [STAMP_FIELD]: stamp }, viewer })));
    expect(result.statusCode).toBe(200);
    return stack.aws.message(result.json.id!);
  }

  it('is accepted from the network it was given to (another address of its /24 or IPv6 /48 too), and scores badStamp from any other', async () => {
    const clock = { now: new Date('2026-11-27T12:00:00Z') };
    const handler = handlerOf(stack, clock);
    const asked = async (viewer: string) => solved(await handler(challengeRequest(viewer)));
    const later = () => (clock.now = new Date(clock.now.getTime() + MINUTE));

    let stamp = await asked('192.0.2.40');
    later();
    expect(await sent(handler, '192.0.2.41', stamp)).toMatchObject({ score: 0, signals: [] });
    stamp = await asked('2a02:a450:1:2::1');
    later();
    expect(await sent(handler, '2a02:a450:1:ff::9', stamp)).toMatchObject({ score: 0, signals: [] });

    // Solved by a farm elsewhere and posted from the spammer's own network.
    stamp = await asked('203.0.113.50');
    later();
    expect(await sent(handler, '198.51.100.50', stamp)).toMatchObject({ signals: ['badStamp'], status: 'held' });
    stamp = await asked('2a02:a450:1:2::1');
    later();
    expect(await sent(handler, '2a02:a450:2:2::1', stamp)).toMatchObject({ signals: ['badStamp'], status: 'held' });
  });

  it(`expires ${STAMP_DIFFICULTY.expiresSeconds / 60} minutes after its challenge was given`, async () => {
    const clock = { now: new Date('2026-11-27T14:00:00Z') };
    const handler = handlerOf(stack, clock);
    const [fresh, old] = [
      await solved(await handler(challengeRequest('192.0.2.60'))),
      await solved(await handler(challengeRequest('192.0.2.61'))),
    ];
    clock.now = new Date(clock.now.getTime() + STAMP_DIFFICULTY.expiresSeconds * 1000 - 1000);
    expect(await sent(handler, '192.0.2.60', fresh)).toMatchObject({ score: 0 });
    clock.now = new Date(clock.now.getTime() + 1000);
    expect(await sent(handler, '192.0.2.61', old)).toMatchObject({ signals: ['badStamp'] });
  });

  it('given before a rotation of the origin secret is accepted while the previous secret is, and scores badStamp after', async () => {
    const clock = { now: new Date('2026-11-27T16:00:00Z') };
    const before = 'the-origin-secret-before-the-rotation-0123456789';
    const origin = stack.aws.config.origin;
    const old = handlerOf(stack, clock, { stampKeys: stampKeyring({ current: before }), origin: { current: before } });
    const stamps = [];
    for (const viewer of ['192.0.2.70', '192.0.2.71'])
      stamps.push(await solved(await old(challengeRequest(viewer, 'same-origin', before))));
    clock.now = new Date(clock.now.getTime() + 5 * MINUTE);

    const during = handlerOf(stack, clock, { stampKeys: stampKeyring({ current: origin.current, previous: before }) });
    expect(await sent(during, '192.0.2.70', stamps[0]!)).toMatchObject({ score: 0, status: 'emailed' });
    // And a stamp given now, under the new secret, of course.
    const now = await solved(await during(challengeRequest('192.0.2.72')));
    clock.now = new Date(clock.now.getTime() + MINUTE);
    expect(await sent(during, '192.0.2.72', now)).toMatchObject({ score: 0 });

    const after = handlerOf(stack, clock);
    expect(await sent(after, '192.0.2.71', stamps[1]!)).toMatchObject({ signals: ['badStamp'] });
  });
});
