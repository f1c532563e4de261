/**
 * The suite's clients are visitors of their own, so the function's per-visitor limit holds
 * for every real visitor and still never refuses a load test. Linux routes all of
 * 127.0.0.0/8 to the loopback interface: a client bound to 127.x.y.z reaches the edge from
 * that address, and the edge reports it as the viewer address, as CloudFront would. Each
 * submission gets an address of its own (its retries and copies keep it, as one visitor's
 * would); a raw hostile request gets one too.
 *
 * Where only 127.0.0.1 answers (macOS by default), the suite runs the stack with the limit
 * off instead and says so.
 */
import { createServer, connect } from 'node:net';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import { secondsLeft, windowAt } from '@site/lambda/visitor-limit';

let enabled = false;
let next = 0;

/** A loopback address no other client of this run has had; undefined when the suite cannot bind one. */
export function newVisitor(): string | undefined {
  if (!enabled) return undefined;
  const n = next++;
  return `127.${1 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/** Tries one connection from 127.1.0.1; from then on newVisitor hands out addresses if it worked. */
export async function enableVisitors(): Promise<boolean> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  enabled = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.1.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return enabled;
}

/**
 * Waits for the next visitor window when the current one ends within `seconds`: a check that
 * counts a visitor to the limit and expects 429 would see the count start afresh mid-check.
 */
export async function wellInsideAWindow(seconds: number): Promise<void> {
  const { windowMinutes } = visitorLimitFrom(CDK_JSON_CONTEXT);
  const left = secondsLeft(windowAt(new Date(), windowMinutes * 60), new Date());
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}
