/**
 * Held and e-mailed answer alike in time (decision 0042): an e-mailed message's answer waits
 * for SES, a held one's would not, and the difference would tell a spammer the moment the
 * budget was spent. So a held message's answer waits as long as a recent delivery took, drawn
 * at random from the last ones this container made. Storing still comes first for both
 * (decision 0004), so nothing is lost to the wait. The clock, the wait and the draw are
 * injected, so a test proves the two distributions alike on virtual time.
 */

/** What the timing reads and waits with: the system's, unless a test gives its own. */
export interface TimingClock {
  /** Milliseconds on a monotonic clock. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** A number from 0 (inclusive) to 1 (exclusive). */
  random: () => number;
}

export const systemTiming: TimingClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Deliveries remembered: enough for a distribution, few enough to follow SES's latency as it changes. */
const REMEMBERED = 64;

/**
 * Before the container's first delivery, a held answer waits this long: about what one
 * SES send and its record take from a Lambda function in the same region.
 */
export const FIRST_DELIVERY_MS = 120;

export interface AnswerTiming {
  /** Runs one delivery, remembering how long it took. */
  timed<T>(deliver: () => Promise<T>): Promise<T>;
  /** Waits as long as a delivery drawn from the remembered ones. */
  pad(): Promise<void>;
}

export function answerTiming(clock: TimingClock): AnswerTiming {
  const took: number[] = [];
  let next = 0;
  return {
    async timed(deliver) {
      const started = clock.now();
      try {
        return await deliver();
      } finally {
        took[next] = clock.now() - started;
        next = (next + 1) % REMEMBERED;
      }
    },
    pad() {
      const ms = took.length === 0 ? FIRST_DELIVERY_MS : took[Math.floor(clock.random() * took.length)]!;
      return clock.sleep(ms);
    },
  };
}
