/**
 * How long the contact form's proof-of-work stamp takes on a phone's CPU. The built site is
 * served as CloudFront serves it (the local edge, the site's headers), and the browser's
 * requests for a challenge are answered with fresh ones made as the function makes them:
 * altcha-lib's createChallenge with STAMP_DIFFICULTY and a counter at random up to its
 * maxCounter, signed (the page's route, so the part needs no function). In a Chromium page
 * slowed as Lighthouse's mobile profile slows the CPU (CDP Emulation.setCPUThrottlingRate),
 * the site's own stamp worker is started again and again, one at a time, and each is timed
 * from its start to the stamp it posts: the request, the solve, and the worker's own start,
 * which is what the visitor's form waits on.
 *
 * Caveat, measured: this Chromium refuses the rate on a worker target ("only supported for
 * pages"), and the page's rate slows its workers only about 1.5× (42,000 derivations a second
 * unslowed, 27,000 slowed 4×, same run). So the worker figures here are those of a phone about
 * 1.5× slower than this machine, not 4× (docs/decisions/0030-proof-of-work-stamp.md).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Payload } from 'altcha-lib/types';
import * as chromeLauncher from 'chrome-launcher';
import { CHALLENGE_PATH } from '@site/core/contract';
import { STAMP_DIFFICULTY } from '@site/core/spam';
import { CHROMIUM_FLAGS, findChromium } from '@site/testing/chromium';
import { startStaticSite } from './static-site';
import { median, percentile } from './stats';

/** Lighthouse's mobile CPU slowdown, the phone the budgets describe. */
export const PHONE_CPU_SLOWDOWN = 4;

/**
 * Solves per run: the counter is drawn at random, so a p95 needs enough of them to rest on
 * more than the one slowest; 60 put two to three above it. About a minute on this machine.
 */
export const STAMP_SOLVES = 60;

export interface StampSolve {
  /** From the worker's start to its stamp, ms as it ran in the slowed page. */
  readyMs: number;
  /** The solve alone, as altcha-lib timed it in the worker, ms. */
  solveMs: number;
  /** Key derivations the solve took (the counter it found, from 0). */
  counter: number;
}

export interface StampSolveResult {
  cpuSlowdown: number;
  difficulty: typeof STAMP_DIFFICULTY;
  solves: StampSolve[];
  ready: { p50: number; p95: number; max: number };
  solve: { p50: number; p95: number };
  /** Derivations per second of solving, slowed: what a difficulty costs here. */
  derivationsPerSecond: number;
}

/** The built worker's address: the build names it by its content's hash. */
export function stampWorkerPath(siteDir: string): string {
  const workers = readdirSync(join(siteDir, 'assets')).filter((name) => /^stamp-worker-[\w-]+\.js$/.test(name));
  if (workers.length !== 1)
    throw new Error(`Expected one stamp worker in ${siteDir}/assets, found ${workers.length}: run \`npm run build\`.`);
  return `/assets/${workers[0]}`;
}

const SECRET = 'bench: challenges signed as the function signs them';

/** A fresh challenge as the function signs it, in the answer's JSON. */
async function challengeAnswer(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const challenge = await createChallenge({
    algorithm: STAMP_DIFFICULTY.algorithm,
    cost: STAMP_DIFFICULTY.cost,
    counter: randomInt(STAMP_DIFFICULTY.maxCounter, 0),
    deriveKey,
    expiresAt: now + STAMP_DIFFICULTY.expiresSeconds,
    data: { issuedAt: now },
    hmacSignatureSecret: SECRET,
    hmacKeySignatureSecret: `${SECRET} (key)`,
  });
  return JSON.stringify({ challenge });
}

/** A DevTools Protocol connection in flat mode: one socket, each target's commands by its session. */
class Devtools {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners: ((method: string, params: Record<string, unknown>, sessionId?: string) => void)[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', ({ data }) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: Record<string, unknown>;
        sessionId?: string;
      };
      if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(message.error.message));
        else waiting?.resolve(message.result);
      } else if (message.method) {
        for (const listener of this.listeners) listener(message.method, message.params ?? {}, message.sessionId);
      }
    });
  }

  static async connect(port: number): Promise<Devtools> {
    const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
      webSocketDebuggerUrl: string;
    };
    const socket = new WebSocket(webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', reject, { once: true });
    });
    return new Devtools(socket);
  }

  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    const id = ++this.nextId;
    this.socket.send(JSON.stringify({ id, method, params, sessionId }));
    return new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject }));
  }

  on(listener: (method: string, params: Record<string, unknown>, sessionId?: string) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.socket.close();
  }
}

export async function measureStampSolves(options: { siteDir: string; solves: number; cpuSlowdown?: number }): Promise<StampSolveResult> {
  const { siteDir, solves, cpuSlowdown = PHONE_CPU_SLOWDOWN } = options;
  const workerPath = stampWorkerPath(siteDir);
  const edge = await startStaticSite(siteDir);
  const chrome = await chromeLauncher.launch({ chromePath: findChromium(), chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'silent' });
  let devtools: Devtools | undefined;
  try {
    devtools = await Devtools.connect(chrome.port);
    const cdp = devtools;
    const failures: string[] = [];
    cdp.on((method, params, sessionId) => {
      // Each stamp worker is held at its start until it is attached, then let go.
      if (method === 'Target.attachedToTarget' && (params.targetInfo as { type?: string }).type === 'worker') {
        const worker = params.sessionId as string;
        void (async () => {
          await cdp.send('Runtime.runIfWaitingForDebugger', {}, worker);
        })().catch((error: Error) => failures.push(`worker: ${error.message}`));
      }
      if (method === 'Fetch.requestPaused') {
        void challengeAnswer()
          .then((body) =>
            cdp.send(
              'Fetch.fulfillRequest',
              {
                requestId: params.requestId,
                responseCode: 200,
                responseHeaders: [
                  { name: 'Content-Type', value: 'application/json' },
                  { name: 'Cache-Control', value: 'no-store' },
                ],
                body: Buffer.from(body).toString('base64'),
              },
              sessionId,
            ),
          )
          .catch((error: Error) => failures.push(`challenge: ${error.message}`));
      }
    });
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId: page } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await cdp.send('Page.enable', {}, page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown }, page);
    // A dedicated worker's requests go out through its page, so they are caught there.
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `*${CHALLENGE_PATH}` }] }, page);
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, page);
    const loaded = new Promise<void>((resolve) =>
      cdp.on((method, _, sessionId) => method === 'Page.loadEventFired' && sessionId === page && resolve()),
    );
    // The privacy page: the site's headers and CSP, and no form to start a worker of its own.
    await cdp.send('Page.navigate', { url: `${edge.url}/privacy` }, page);
    await loaded;

    const measured: StampSolve[] = [];
    for (let i = 0; i < solves; i++) {
      const { result, exceptionDetails } = await cdp.send<{
        result: { value: { readyMs: number; stamp: string | null } };
        exceptionDetails?: unknown;
      }>(
        'Runtime.evaluate',
        {
          expression: `new Promise((resolve, reject) => {
            const start = performance.now();
            const worker = new Worker(${JSON.stringify(workerPath)}, { type: 'module' });
            worker.onmessage = ({ data }) => { worker.terminate(); resolve({ readyMs: performance.now() - start, stamp: data.stamp ?? null }); };
            worker.onerror = () => reject(new Error('the stamp worker failed'));
          })`,
          awaitPromise: true,
          returnByValue: true,
        },
        page,
      );
      if (exceptionDetails || failures.length)
        throw new Error(`Solve ${i + 1} of ${solves} failed: ${failures.join('; ') || JSON.stringify(exceptionDetails)}`);
      const { readyMs, stamp } = result.value;
      if (stamp === null) throw new Error(`Solve ${i + 1} of ${solves} posted no stamp.`);
      const { solution } = JSON.parse(Buffer.from(stamp, 'base64').toString('utf8')) as Payload;
      measured.push({ readyMs, solveMs: solution.time ?? Number.NaN, counter: solution.counter });
    }
    return summarise(measured, cpuSlowdown);
  } finally {
    devtools?.close();
    chrome.kill();
    await edge.close();
  }
}

export function summarise(solves: StampSolve[], cpuSlowdown: number): StampSolveResult {
  const ready = solves.map((solve) => solve.readyMs);
  const solving = solves.map((solve) => solve.solveMs);
  const derivations = solves.reduce((sum, solve) => sum + solve.counter + 1, 0);
  const solvingMs = solving.reduce((sum, ms) => sum + ms, 0);
  return {
    cpuSlowdown,
    difficulty: STAMP_DIFFICULTY,
    solves,
    ready: { p50: median(ready), p95: percentile(ready, 95), max: Math.max(...ready) },
    solve: { p50: median(solving), p95: percentile(solving, 95) },
    derivationsPerSecond: derivations / (solvingMs / 1000),
  };
}
