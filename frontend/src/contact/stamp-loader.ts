/**
 * The form's proof-of-work stamp (core/src/spam.ts), solved in a worker while the visitor
 * types. This is all of it in the page's first-load script, on purpose (85 KB budget): the
 * form calls `startStamp` when it gets the focus (which typing, pasting and autofill all
 * need), and only then are the page's side (stamp-solving.ts), the worker and altcha-lib
 * loaded, so a visitor who never writes costs no byte, request or CPU. `takeStamp` never
 * waits: a send takes the stamp if one is ready, and a message without one is only scored
 * higher. After a send that failed the form calls `startStamp` again, so the next try has a
 * stamp of its own.
 */
import type * as Solving from './stamp-solving';

let solving: typeof Solving | undefined;

export function startStamp(): void {
  // Once loaded, at once: a dynamic import settles a task later, after the send button's
  // focus would have started a worker behind the send that just took the stamp.
  if (solving) return solving.start();
  // A chunk that fails to load (offline, a deploy in between) means no stamp, nothing more.
  import('./stamp-solving').then(
    (loaded) => (solving = loaded).start(),
    () => undefined,
  );
}

export function takeStamp(): string | undefined {
  return solving?.take();
}
