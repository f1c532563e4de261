/**
 * The per-visitor limit as the contact function applies it: a valid message is counted
 * against every network its viewer counts against (visitor-limit.ts), or refused when one of
 * them is full, giving back what it counted. The viewer address can be trusted only because
 * the origin check before this proved the request came through CloudFront, which sets it
 * from the connection.
 */
import { describeError } from '../shared/log';
import type { MessageTable } from '../store/store';
import { countMessage, releaseMessage, type Reservation } from './visitor-counter';
import { countedNetworks, limitOf, secondsLeft, visitorCounterId, visitorHash, windowAt, type VisitorLimit } from './visitor-limit';

export type VisitorCheck =
  /** Counted; `network` is the visitor's own (an IPv4 address or an IPv6 /64), as repeatedText counts senders. */
  | { kind: 'counted'; reservations: Reservation[]; network?: string }
  /** No viewer address to count against (a CloudFront misconfiguration): let through, and said so in the log. */
  | { kind: 'uncounted' }
  | { kind: 'over'; retryAfterSeconds: number }
  /** The count could not be made; `releaseError` when giving back what was counted failed too (it settles later). */
  | { kind: 'failed'; error: unknown; releaseError?: string };

/** A release gets this long: the visitor is waiting for the 503, and settling (visitor-counter.ts) takes over when it fails. */
const RELEASE_TIMEOUT_MS = 1_000;

/** Gives the message's places back; the error's name when that failed (the counters then settle it later). */
export async function releaseVisitor(table: MessageTable, reservations: readonly Reservation[]): Promise<string | undefined> {
  try {
    await Promise.all(reservations.map((reservation) => releaseMessage(table, reservation, AbortSignal.timeout(RELEASE_TIMEOUT_MS))));
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

export async function checkVisitor(
  table: MessageTable,
  visitor: { address: string | undefined; limit: VisitorLimit; hashKey: Buffer },
  messageId: string,
  now: Date,
): Promise<VisitorCheck> {
  const networks = countedNetworks(visitor.address);
  const network = networks?.[0]?.network;
  if (visitor.limit.messages === 0) return { kind: 'counted', reservations: [], network };
  // Refusing everyone for a missing header would be worse than the stage throttle alone.
  if (networks === undefined) return { kind: 'uncounted' };
  const window = windowAt(now, visitor.limit.windowSeconds);
  const reservations: Reservation[] = [];
  for (const { network: counted, kind } of networks) {
    const counter = { id: visitorCounterId(visitorHash(visitor.hashKey, counted), window), messageId, limit: limitOf(visitor.limit, kind) };
    let answer;
    try {
      answer = await countMessage(table, { ...counter, expiresAt: window.endsAt, now });
    } catch (error) {
      // No answer is not no write: a count that timed out may have been applied (or be applied
      // yet). Take back what this request may have written, conditional on its own time; a
      // count that lands after this release is settled later (visitor-counter.ts).
      const unanswered: Reservation = { counterId: counter.id, messageId, at: now.getTime(), added: true };
      return { kind: 'failed', error, releaseError: await releaseVisitor(table, [...reservations, unanswered]) };
    }
    if (answer.outcome === 'over') {
      await releaseVisitor(table, reservations);
      const settles = answer.retryAt === undefined ? Infinity : Math.ceil((answer.retryAt - now.getTime()) / 1000);
      return { kind: 'over', retryAfterSeconds: Math.max(1, Math.min(secondsLeft(window, now), settles)) };
    }
    reservations.push(answer.reservation);
  }
  return { kind: 'counted', reservations, network };
}
