/** Bounded concurrency for the suite's clients, and the latency figures of what they sent. */

/**
 * Runs `worker` over `items` with at most `concurrency` in flight. `stopAt` (epoch ms)
 * bounds the whole pool: items not started by then are reported as not run.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  stopAt = Number.POSITIVE_INFINITY,
): Promise<{ results: (R | undefined)[]; notRun: number }> {
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  let notRun = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      if (Date.now() > stopAt) {
        notRun += 1;
        continue;
      }
      results[index] = await worker(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return { results, notRun };
}

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencyStats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0);
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}
