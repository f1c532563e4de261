/**
 * The page's side of the stamp: starts the stamp worker (stamp-worker.ts) and keeps what it
 * posts until a send takes it. A chunk of its own, loaded when the form is first used
 * (stamp-loader.ts). One form, one stamp in the making at a time.
 */
import type { StampMessage } from './stamp-worker';

/** The stamp worker, and what it posted once it is done (it closes itself then). */
type Solving = Worker & { done?: StampMessage };

let solving: Solving | undefined;

/** Starts the stamp worker, unless one is under way; without module workers there is simply no stamp. */
export function start(): void {
  if (solving) return;
  try {
    const worker: Solving = new Worker(new URL('./stamp-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<StampMessage>) => (worker.done = data);
    // A worker that could not load or threw: no stamp, and nothing in the visitor's console.
    worker.onerror = (event) => event.preventDefault();
    solving = worker;
  } catch {
    // No module workers in this browser: its messages go without a stamp.
  }
}

/** The stamp if it is ready and still fresh, for one send only; a worker still solving is stopped, so it costs the phone nothing more. */
export function take(): string | undefined {
  const worker = solving;
  solving = undefined;
  worker?.terminate();
  const done = worker?.done;
  return done && Date.now() < done.sendBefore ? done.stamp : undefined;
}
