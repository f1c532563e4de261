// The page's side of the stamp, with a stand-in for the browser's Worker: what each worker
// would post is given by the test, on fake timers, so hours of an open form take no time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StampMessage } from './stamp-worker';

class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage?: (event: { data: StampMessage }) => void;
  onerror?: (event: Event) => void;
  terminated = false;
  constructor() {
    FakeWorker.made.push(this);
  }
  post(data: StampMessage) {
    this.onmessage?.({ data });
  }
  terminate() {
    this.terminated = true;
  }
}

const MINUTE = 60_000;
/** What the worker posts: its stamp, sendable for ten minutes from now (a 15-minute challenge less five). */
const solved = (stamp: string): StampMessage => ({ stamp, sendBefore: Date.now() + 10 * MINUTE });

async function solving() {
  vi.resetModules();
  return import('./stamp-solving');
}

beforeEach(() => {
  FakeWorker.made = [];
  vi.useFakeTimers({ now: Date.parse('2026-12-07T09:00:00Z') });
  vi.stubGlobal('Worker', FakeWorker);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the stamp while the form stays open', () => {
  it('is asked for afresh a minute before it may no longer be sent; a send takes the older while it is fresh, then the newer', async () => {
    const { start, take, REFRESH_AHEAD_MS } = await solving();
    start();
    FakeWorker.made[0]!.post(solved('first'));
    vi.advanceTimersByTime(10 * MINUTE - REFRESH_AHEAD_MS - 1);
    expect(FakeWorker.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWorker.made).toHaveLength(2);
    FakeWorker.made[1]!.post(solved('second'));
    // Thirty seconds before the first may no longer go: it is the one taken.
    vi.advanceTimersByTime(REFRESH_AHEAD_MS / 2);
    expect(take()).toBe('first');
    expect(FakeWorker.made.every((worker) => worker.terminated)).toBe(true);
  });

  it('takes the newer once the older is too old, never a stale one', async () => {
    const { start, take } = await solving();
    start();
    FakeWorker.made[0]!.post(solved('first'));
    vi.advanceTimersByTime(9 * MINUTE);
    FakeWorker.made[1]!.post(solved('second'));
    vi.advanceTimersByTime(MINUTE);
    expect(take()).toBe('second');
  });

  it(`stops after a form left open for ${12} refreshes: no stamp then, rather than challenges for hours`, async () => {
    const { start, take, MAX_REFRESHES } = await solving();
    start();
    for (let i = 0; i <= MAX_REFRESHES; i += 1) {
      FakeWorker.made[i]!.post(solved(`stamp ${i}`));
      vi.advanceTimersByTime(10 * MINUTE);
    }
    expect(FakeWorker.made).toHaveLength(MAX_REFRESHES + 1);
    vi.advanceTimersByTime(60 * MINUTE);
    expect(FakeWorker.made).toHaveLength(MAX_REFRESHES + 1);
    expect(take()).toBeUndefined();
    // A send starts it again, as after a failed send.
    start();
    expect(FakeWorker.made).toHaveLength(MAX_REFRESHES + 2);
  });

  it('asks for no other after a worker that got no stamp (the API refused, or the solve failed)', async () => {
    const { start, take } = await solving();
    start();
    FakeWorker.made[0]!.post({ sendBefore: Date.now() + 10 * MINUTE });
    vi.advanceTimersByTime(30 * MINUTE);
    expect(FakeWorker.made).toHaveLength(1);
    expect(take()).toBeUndefined();
  });
});
