/**
 * How many proof-of-work challenges one visitor is given: counted per visitor (and IPv6 /48)
 * and window as the visitor limit counts messages (visitor-limit.ts), in counters of their
 * own, up to CHALLENGES_PER_MESSAGE for each message the limit lets through. A count of its
 * own, higher: a visitor is given a challenge on the form's first use, after a failed send and
 * each time the stamp grows old, and reloads the page, and none of that may cost a message's
 * place. Without it, one client could ask for challenges as fast as the stage throttle lets
 * it, and hold the throttle for everyone (decision 0043).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from '../store/conditional-write';
import type { MessageTable } from '../store/store';
import { countedNetworks, limitOf, secondsLeft, visitorHash, windowAt, type VisitorLimit } from './visitor-limit';

/** Challenges a visitor may be given for each message the visitor limit lets it send. */
export const CHALLENGES_PER_MESSAGE = 4;

/** Every challenge counter's item id starts so; like visitor counters it holds a keyed hash, never an address. */
export const CHALLENGE_PREFIX = 'challenge#';

export type ChallengeCount = { kind: 'given' } | { kind: 'over'; retryAfterSeconds: number };

/**
 * Counts a challenge given to the viewer at `address` (CloudFront's `ip:port`). Without an
 * address (a CloudFront misconfiguration) or with the visitor limit off, nothing is counted.
 */
export async function countChallenge(
  table: MessageTable,
  visitor: { address: string | undefined; limit: VisitorLimit; hashKey: Buffer },
  now: Date,
): Promise<ChallengeCount> {
  const networks = countedNetworks(visitor.address);
  if (visitor.limit.messages === 0 || networks === undefined) return { kind: 'given' };
  const window = windowAt(now, visitor.limit.windowSeconds);
  for (const { network, kind } of networks) {
    const write = await conditionalWrite(() =>
      table.client.send(
        new UpdateCommand({
          TableName: table.name,
          Key: { id: `${CHALLENGE_PREFIX}${visitorHash(visitor.hashKey, network)}#${window.index}` },
          UpdateExpression: 'ADD issued :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(issued) OR issued < :limit',
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': limitOf(visitor.limit, kind) * CHALLENGES_PER_MESSAGE,
            ':expiresAt': window.endsAt,
          },
        }),
      ),
    );
    if (!write.applied) return { kind: 'over', retryAfterSeconds: secondsLeft(window, now) };
  }
  return { kind: 'given' };
}
