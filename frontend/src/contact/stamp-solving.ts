/**
 * The page's side of the stamp: starts the stamp worker (stamp-worker.ts) and keeps what it
 * posts until a send takes it. A chunk of its own, loaded when the form is first used
 * (stamp-loader.ts). A challenge lives minutes (core/src/spam.ts), so while the form stays
 * open a fresh stamp is made a minute before the last one may no longer be sent: a send takes
 * the older while it is fresh, so the one it takes was never asked for seconds before (which
 * would read as a form filled in too fast). After MAX_REFRESHES in a row without a send it
 * stops: a form left open for hours needs no stamp, and costs the visitor's limit nothing.
 */
import type { StampMessage } from './stamp-worker';

/** A stamp worker, and what it posted once it is done (it closes itself then). */
type Solving = Worker & { done?: StampMessage };

/** How long before a stamp may no longer be sent its successor is asked for. */
export const REFRESH_AHEAD_MS = 60_000;

/** Fresh stamps made in a row without a send: about two hours of an open form. */
export const MAX_REFRESHES = 12;

/** The stamps in the making or ready, oldest first. */
let stamps: Solving[] = [];
let refresh: ReturnType<typeof setTimeout> | undefined;
let refreshes = 0;

const fresh = (worker: Solving, now: number) => worker.done === undefined || now < worker.done.sendBefore;

/** Starts a stamp worker; without module workers there is simply no stamp. */
function launch(): void {
  try {
    const worker: Solving = new Worker(new URL('./stamp-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<StampMessage>) => {
      worker.done = data;
      refreshBefore(worker);
    };
    // A worker that could not load or threw: no stamp, and nothing in the visitor's console.
    worker.onerror = (event) => event.preventDefault();
    stamps.push(worker);
  } catch {
    // No module workers in this browser: its messages go without a stamp.
  }
}

/** Asks for the next stamp a minute before `worker`'s may no longer be sent; none after a failed one. */
function refreshBefore(worker: Solving): void {
  if (worker.done?.stamp === undefined || refreshes >= MAX_REFRESHES) return;
  clearTimeout(refresh);
  refresh = setTimeout(
    () => {
      if (!stamps.includes(worker)) return;
      refreshes += 1;
      const now = Date.now();
      for (const stale of stamps.filter((one) => !fresh(one, now))) stale.terminate();
      stamps = stamps.filter((one) => fresh(one, now));
      launch();
    },
    Math.max(0, worker.done.sendBefore - REFRESH_AHEAD_MS - Date.now()),
  );
}

/** Starts the stamp worker, unless one is under way or ready. */
export function start(): void {
  if (stamps.length > 0) return;
  refreshes = 0;
  launch();
}

/** The oldest stamp still fresh, for one send only; workers still solving are stopped, so they cost the phone nothing more. */
export function take(): string | undefined {
  const now = Date.now();
  const ready = stamps.find((worker) => worker.done?.stamp !== undefined && fresh(worker, now));
  for (const worker of stamps) worker.terminate();
  stamps = [];
  clearTimeout(refresh);
  refresh = undefined;
  return ready?.done?.stamp;
}
