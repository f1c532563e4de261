/**
 * How long the contact form's proof-of-work stamp takes on a phone's CPU: in a Chromium page of
 * the site on the local stack (its headers and CSP; the privacy page, which starts no worker of
 * its own), its CPU slowed as Lighthouse's mobile profile slows it, the site's own stamp worker
 * is started again and again, one at a time, and timed from its start to the stamp it posts:
 * its own load, the challenge the function makes, the solve.
 *
 * Measured caveat: Chromium slows a page's workers only about 1.5× at the page's 4×, and
 * refuses a rate on a worker itself, so these are a phone about 1.5× slower than this machine
 * (decision 0030).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '@site/testing/chromium';
import { median, percentile } from './stats';

/** Lighthouse's mobile CPU slowdown, the phone the budgets describe. */
const PHONE_CPU_SLOWDOWN = 4;

export interface StampSolves {
  solves: number;
  /** From the worker's start to its stamp, ms as it ran in the slowed page. */
  ready: { p50: number; p95: number; max: number };
  /** The solve alone, as altcha-lib timed it in the worker, ms. */
  solveP50: number;
}

/** `solves`: the counter is drawn at random, so a p95 needs enough to rest on more than the slowest; 60 put two or three above it. */
export async function measureStampSolves(siteUrl: string, siteDir: string, solves = 60): Promise<StampSolves> {
  const workers = readdirSync(join(siteDir, 'assets')).filter((name) => /^stamp-worker-[\w-]+\.js$/.test(name));
  if (workers.length !== 1) throw new Error(`Expected one stamp worker in ${siteDir}/assets, found ${workers.length}.`);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_CPU_SLOWDOWN });
    await page.goto(`${siteUrl}/privacy`);
    const ready: number[] = [];
    const solving: number[] = [];
    for (let i = 0; i < solves; i++) {
      const { readyMs, stamp } = await page.evaluate(
        (path) =>
          new Promise<{ readyMs: number; stamp: string | null }>((resolve, reject) => {
            const start = performance.now();
            const worker = new Worker(path, { type: 'module' });
            worker.onmessage = ({ data }: MessageEvent<{ stamp?: string }>) => {
              worker.terminate();
              resolve({ readyMs: performance.now() - start, stamp: data.stamp ?? null });
            };
            worker.onerror = () => reject(new Error('the stamp worker failed'));
          }),
        `/assets/${workers[0]}`,
      );
      if (stamp === null) throw new Error(`Solve ${i + 1} of ${solves} posted no stamp.`);
      const { solution } = JSON.parse(Buffer.from(stamp, 'base64').toString('utf8')) as { solution: { time?: number } };
      ready.push(readyMs);
      solving.push(solution.time ?? Number.NaN);
    }
    return { solves, ready: { p50: median(ready), p95: percentile(ready, 95), max: Math.max(...ready) }, solveP50: median(solving) };
  } finally {
    await browser.close();
  }
}
