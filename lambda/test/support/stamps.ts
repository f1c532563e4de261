/**
 * Stamps as the site's script makes them: a challenge of the function's, given to the viewer's
 * network (as GET /api/challenge gives it), solved.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { newChallenge, type StampKeyring } from '../../src/spam/stamp';
import { budgetNetworks } from '../../src/spam/visitor-limit';

/** `viewer` as contactEvent's viewer (an address, no port); the challenge issued at `issuedAt`. */
export async function solvedStamp(keys: StampKeyring, viewer: string, issuedAt: Date): Promise<string> {
  const challenge = await newChallenge(keys, budgetNetworks(`${viewer}:40000`)?.[0], issuedAt);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution found');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
