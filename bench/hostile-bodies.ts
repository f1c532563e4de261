/**
 * What the heaviest bodies a client can send cost the contact function, against a normal
 * message: each body at its format's size limit, built to make reading it as slow as it can
 * be (one form name repeated, tens of thousands of names, bracketed names, one value of
 * percent escapes; JSON nested thousands deep, thousands of keys, a key repeated), sent
 * through the bundled handler as the page's messages are in handler-latency.ts, one call at
 * a time. A form body of one name repeated once cost 77 s of CPU here (issue 27).
 *
 * What is compared is the whole handler call, its time from the event to the answer: that is
 * what a Lambda is held for, and what a flood of such bodies takes from the account's
 * concurrency, where the visitor limit cannot count them (they are refused before it). The
 * normal message's call includes its round trips to the local emulators, which are quicker
 * than DynamoDB's and SES's: in AWS a message costs more, and the ratio is smaller.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FORM_CONTENT_TYPE, HONEYPOT_FIELD, MAX_BODY_BYTES, MAX_FORM_BODY_BYTES, fieldNames } from '@site/core/contract';
import type { LocalStack } from '@site/local/stack';
import { bundledHandler, captureHandlerLogs, contactBody, contactEvent } from './handler-latency';
import { percentile } from './stats';

export interface BodyCost {
  name: string;
  bytes: number;
  /** What the handler answered (the same for every call). */
  status: number;
  p50: number;
  p99: number;
}

export interface HostileBodies {
  calls: number;
  /** The page's typical message, stored and e-mailed. */
  normal: BodyCost;
  bodies: BodyCost[];
  /** The body with the highest median, and its median ÷ the normal message's. */
  worst: { name: string; ratio: number };
}

type Request = { body: Buffer; contentType: string };

/** `prefix` then `part(0)&part(1)&…` (or `,` for JSON), as long as `limit` allows, then `suffix`. */
function filled(prefix: string, part: (i: number) => string, separator: string, suffix: string, limit: number): string {
  const parts: string[] = [];
  let length = prefix.length + suffix.length;
  for (let i = 0; length + part(i).length + separator.length <= limit; i += 1) {
    parts.push(part(i));
    length += part(i).length + separator.length;
  }
  return `${prefix}${parts.join(separator)}${suffix}`;
}

/** The page's message as a form post: every field and the honeypot, as a browser encodes them. */
const formMessage = () => new URLSearchParams({ ...contactBody(0) }).toString();
/** The page's message as JSON, without its closing brace, so keys can follow. */
const openJson = () => JSON.stringify(contactBody(0)).slice(0, -1);

const form = (text: string): Request => ({ body: Buffer.from(text), contentType: FORM_CONTENT_TYPE });
const json = (text: string): Request => ({ body: Buffer.from(text), contentType: 'application/json' });

/** The heaviest bodies of each kind, each as large as its format allows. */
export function hostileBodies(): Record<string, Request> {
  const firstField = fieldNames(CONTACT_FIELDS)[0]!;
  const depth = Math.floor((MAX_BODY_BYTES - 32) / 2);
  return {
    'form: one name repeated': form(filled('', () => 'a', '&', '', MAX_FORM_BODY_BYTES)),
    'form: distinct names': form(filled('', (i) => `n${i}=`, '&', '', MAX_FORM_BODY_BYTES)),
    'form: bracketed names': form(filled('', (i) => `a[${i}][b]=x`, '&', '', MAX_FORM_BODY_BYTES)),
    'form: the message, then a name repeated': form(filled(`${formMessage()}&`, () => 'a', '&', '', MAX_FORM_BODY_BYTES)),
    'form: one value of percent escapes': form(
      `${HONEYPOT_FIELD}=&${firstField}=${'%E2%82%AC'.repeat(Math.floor((MAX_FORM_BODY_BYTES - 64) / 9))}`,
    ),
    'JSON: arrays nested in a field': json(`{"${firstField}":${'['.repeat(depth - 8)}${']'.repeat(depth - 8)}}`),
    'JSON: the whole body nested': json(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    'JSON: the message and thousands of keys': json(filled(`${openJson()},`, (i) => `"k${i}":0`, ',', '}', MAX_BODY_BYTES)),
    'JSON: one key repeated': json(filled(`${openJson()},`, () => `"${firstField}":"x"`, ',', '}', MAX_BODY_BYTES)),
    'JSON: __proto__ repeated': json(filled(`${openJson()},`, (i) => `"__proto__":{"a${i}":1}`, ',', '}', MAX_BODY_BYTES)),
  };
}

/** Blocks of calls, the normal message's alternating with each body's, so a slow spell lands on both. */
const BLOCKS = 4;

export async function measureHostileBodies(options: {
  stack: LocalStack;
  bundlePath: string;
  /** Where the handler's log lines go (see captureHandlerLogs). */
  logPath: string;
  calls: number;
}): Promise<HostileBodies> {
  const { handle, settings, siteHost } = await bundledHandler(options.bundlePath, options.stack);
  const restore = captureHandlerLogs(options.logPath, {});
  try {
    return await measure(handle, settings.origin.current, siteHost, options.calls);
  } finally {
    await restore();
  }
}

async function measure(
  handle: Awaited<ReturnType<typeof bundledHandler>>['handle'],
  originSecret: string,
  siteHost: string,
  calls: number,
): Promise<HostileBodies> {
  let sequence = 1_000_000;
  const timed = async (request?: Request) => {
    const event = contactEvent((sequence += 1), siteHost, originSecret, request);
    const started = performance.now();
    const result = await handle(event);
    return { ms: performance.now() - started, status: result.statusCode ?? 0 };
  };
  const bodies = { normal: undefined, ...hostileBodies() } as Record<string, Request | undefined>;
  const durations = new Map<string, number[]>(Object.keys(bodies).map((name) => [name, []]));
  const statuses = new Map<string, number>();
  // Warm-up: JIT, the SDK's lazy initialisation, each body's path once.
  for (const request of Object.values(bodies)) for (let i = 0; i < 20; i += 1) await timed(request);
  for (let block = 0; block < BLOCKS; block += 1) {
    for (const [name, request] of Object.entries(bodies)) {
      for (let i = 0; i < Math.ceil(calls / BLOCKS); i += 1) {
        const { ms, status } = await timed(request);
        durations.get(name)!.push(ms);
        statuses.set(name, status);
      }
    }
  }
  const cost = (name: string): BodyCost => ({
    name,
    bytes: bodies[name]?.body.length ?? JSON.stringify(contactBody(0)).length,
    status: statuses.get(name)!,
    p50: percentile(durations.get(name)!, 50),
    p99: percentile(durations.get(name)!, 99),
  });
  const normal = cost('normal');
  const hostile = Object.keys(hostileBodies()).map(cost);
  const worst = hostile.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  return { calls, normal, bodies: hostile, worst: { name: worst.name, ratio: worst.p50 / normal.p50 } };
}
