/**
 * GET /api/challenge: a fresh proof-of-work challenge for the page's script (spam/stamp.ts),
 * never cached, given only to the site's own pages (the same headers a form post needs:
 * cross-site.ts), counted against the visitor (spam/challenge-limit.ts) and bound to the
 * visitor's network. Another site's page cannot make its visitors' browsers ask for
 * challenges, and one client cannot ask for them faster than its visitor limit.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import type { ContactConfig } from '../config';
import { countChallenge } from '../spam/challenge-limit';
import { newChallenge } from '../spam/stamp';
import { budgetNetworks } from '../spam/visitor-limit';
import type { MessageTable } from '../store/store';
import type { Handled } from './contact-answer';
import { crossSiteOf } from './cross-site';
import { errorResponse, headerValue } from './http';

export async function answerChallenge(
  event: APIGatewayProxyEventV2,
  service: { config: ContactConfig; table: MessageTable; clock: () => Date },
): Promise<Handled> {
  const crossSite = crossSiteOf(event);
  if (crossSite) return { response: errorResponse(403, ERROR_TEXT.notThroughSite), outcome: 'challenge_refused', attempts: 0, crossSite };
  const now = service.clock();
  const address = headerValue(event.headers, VIEWER_ADDRESS_HEADER);
  const count = await countChallenge(
    service.table,
    { address, limit: service.config.visitorLimit, hashKey: service.config.visitorHashKey },
    now,
  );
  if (count.kind === 'over') {
    const refused = errorResponse(429, ERROR_TEXT.tooManyMessages);
    return {
      response: { ...refused, headers: { ...refused.headers, 'Retry-After': String(count.retryAfterSeconds) } },
      outcome: 'challenge_limited',
      attempts: 0,
    };
  }
  const body = JSON.stringify({ challenge: await newChallenge(service.config.stampKeys, budgetNetworks(address)?.[0], now) });
  return {
    response: { statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, body },
    outcome: 'challenge',
    attempts: 0,
  };
}
