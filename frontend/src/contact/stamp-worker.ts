/**
 * The stamp worker: started by the form when it is first used (useStamp.ts), it asks the
 * site's own API for a challenge, solves it, posts what it found and closes. A chunk of its
 * own with altcha-lib, so none of it is in the page's first load.
 */
import { STAMP_DIFFICULTY } from '@site/core/spam';
import { requestStamp } from './stamp';

/** What the worker posts: the stamp, if it got one, and until when (the page's clock, in ms) it may be sent. */
export interface StampMessage {
  stamp?: string;
  sendBefore: number;
}

/**
 * A stamp is sent only while its challenge surely has not expired: its lifetime counted from
 * before it was asked for, less five minutes for the request and a send under way. On the
 * visitor's own clock, so a clock that is hours off does not matter; an expired stamp would
 * score worse than none.
 */
export const STAMP_SEND_WITHIN_MS = (STAMP_DIFFICULTY.expiresSeconds - 5 * 60) * 1000;

const scope = self as unknown as { location: Location; postMessage(message: StampMessage): void; close(): void };

const sendBefore = Date.now() + STAMP_SEND_WITHIN_MS;
void requestStamp(scope.location.origin).then((stamp) => {
  scope.postMessage({ stamp, sendBefore });
  // One stamp per worker: done, so nothing of it stays on the phone.
  scope.close();
});
