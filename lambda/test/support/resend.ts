/**
 * Sends the same request again when the answer is 503 (not stored: a stand-in slower than the
 * function's timeouts on a busy machine), as a visitor sends again after the form's error; it is
 * stored once. For the tests whose subject is what the function decides (a budget, a hold), not
 * the stand-in's speed.
 */
export async function sendUntilStored<E, R extends { statusCode?: number }>(handler: (event: E) => Promise<R>, event: E): Promise<R> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await handler(event);
    if (result.statusCode !== 503 || attempt === 3) return result;
  }
}
