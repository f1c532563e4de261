/**
 * Stamps as the site's script makes them: a challenge of the function's, given to the viewer's
 * network (as GET /api/challenge gives it), solved. Its puzzle is an easy one (newChallenge's
 * `counter`): the tests that use these send up to a thousand stamped messages, and at a visitor's
 * difficulty each stamp took about 65 ms to solve here, most of those tests' time. What they
 * prove is where and when a stamp was given; the stamp's own tests and the bench keep the
 * visitor's difficulty.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { newChallenge, type StampKeyring } from '../../src/spam/stamp';
import { budgetNetworks } from '../../src/spam/visitor-limit';

/** The puzzle's answer: found in a few hashes, and not always the same one. */
const EASY_COUNTERS = 16;

/** `viewer` as contactEvent's viewer (an address, no port); the challenge issued at `issuedAt`. */
export async function solvedStamp(keys: StampKeyring, viewer: string, issuedAt: Date): Promise<string> {
  const counter = Math.floor(Math.random() * EASY_COUNTERS);
  const challenge = await newChallenge(keys, budgetNetworks(`${viewer}:40000`)?.[0], issuedAt, counter);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution found');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
