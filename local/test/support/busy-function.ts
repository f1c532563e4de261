/**
 * A Lambda entry for the tests of the function's timeout: it answers at once, or, when the
 * body says so, keeps its thread busy for good (`spin`), waits for good without it (`wait`),
 * or answers after a second (`slow`).
 * The environment's ENVIRONMENT_NAME comes back in the answer, to show the function sees its
 * own environment.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

let calls = 0;

export function handler(event: APIGatewayProxyEventV2) {
  calls += 1;
  if (event.body === 'spin') for (;;);
  if (event.body === 'wait') return new Promise(() => {});
  if (event.body === 'slow')
    return new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: JSON.stringify({ calls }) }), 1_000));
  return Promise.resolve({ statusCode: 200, body: JSON.stringify({ calls, environment: process.env.ENVIRONMENT_NAME ?? null }) });
}
