/**
 * What the heaviest bodies a client can send cost the contact function against a normal
 * message: each at its format's size limit, built to make reading it as slow as it can be, sent
 * through the bundled handler one call at a time, in blocks alternating with a normal message's.
 * A form body of one name repeated once cost 77 s of CPU here (issue 27). The whole call is
 * compared: what a Lambda is held for, and what a flood of such bodies, refused before the
 * visitor limit counts them, takes from the account's concurrency.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FORM_CONTENT_TYPE, HONEYPOT_FIELD, MAX_BODY_BYTES, MAX_FORM_BODY_BYTES, fieldNames } from '@site/core/contract';
import type { LocalStack } from '@site/local/stack';
import { bundledHandler, contactBody, formRequest } from './handler';
import { median } from './stats';

type Request = { body: Buffer; contentType: string };

/** `prefix`, then `part(0)`, `part(1)`, … joined by `separator` as long as `limit` allows, then `suffix`. */
function filled(prefix: string, part: (i: number) => string, separator: string, suffix: string, limit: number): string {
  const parts: string[] = [];
  let length = prefix.length + suffix.length;
  for (let i = 0; length + part(i).length + separator.length <= limit; i += 1) {
    parts.push(part(i));
    length += part(i).length + separator.length;
  }
  return `${prefix}${parts.join(separator)}${suffix}`;
}

const form = (text: string): Request => ({ body: Buffer.from(text), contentType: FORM_CONTENT_TYPE });
const json = (text: string): Request => ({ body: Buffer.from(text), contentType: 'application/json' });

/** The heaviest bodies of each kind, each as large as its format allows. */
export function hostileBodies(): Record<string, Request> {
  const first = fieldNames(CONTACT_FIELDS)[0]!;
  const depth = Math.floor((MAX_BODY_BYTES - 32) / 2);
  const formMessage = new URLSearchParams({ ...contactBody(0) }).toString();
  // The page's message as JSON without its closing brace, so keys can follow.
  const openJson = JSON.stringify(contactBody(0)).slice(0, -1);
  return {
    'form: one name repeated': form(filled('', () => 'a', '&', '', MAX_FORM_BODY_BYTES)),
    'form: distinct names': form(filled('', (i) => `n${i}=`, '&', '', MAX_FORM_BODY_BYTES)),
    'form: bracketed names': form(filled('', (i) => `a[${i}][b]=x`, '&', '', MAX_FORM_BODY_BYTES)),
    'form: the message, then a name repeated': form(filled(`${formMessage}&`, () => 'a', '&', '', MAX_FORM_BODY_BYTES)),
    'form: one value of percent escapes': form(
      `${HONEYPOT_FIELD}=&${first}=${'%E2%82%AC'.repeat(Math.floor((MAX_FORM_BODY_BYTES - 64) / 9))}`,
    ),
    'JSON: arrays nested in a field': json(`{"${first}":${'['.repeat(depth - 8)}${']'.repeat(depth - 8)}}`),
    'JSON: the whole body nested': json(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    'JSON: the message and thousands of keys': json(filled(`${openJson},`, (i) => `"k${i}":0`, ',', '}', MAX_BODY_BYTES)),
    'JSON: one key repeated': json(filled(`${openJson},`, () => `"${first}":"x"`, ',', '}', MAX_BODY_BYTES)),
    'JSON: __proto__ repeated': json(filled(`${openJson},`, (i) => `"__proto__":{"a${i}":1}`, ',', '}', MAX_BODY_BYTES)),
  };
}

export interface HostileBodies {
  /** Each body's median call, ms, and what the handler answered; `a normal message` first. */
  bodies: { name: string; bytes: number; status: number; p50: number }[];
  /** The heaviest body's median ÷ the normal message's: the budget. */
  worst: { name: string; ratio: number };
}

export async function measureHostileBodies(stack: LocalStack, bundlePath: string, calls = 200): Promise<HostileBodies> {
  const { handle } = await bundledHandler(bundlePath, stack);
  const requests: Record<string, Request | undefined> = { 'a normal message': undefined, ...hostileBodies() };
  const durations = new Map(Object.keys(requests).map((name) => [name, [] as number[]]));
  const statuses = new Map<string, number>();
  const timed = async (name: string) => {
    const event = formRequest(requests[name]);
    const started = performance.now();
    const { statusCode } = await handle(event);
    statuses.set(name, statusCode ?? 0);
    return performance.now() - started;
  };
  // JIT, the SDK's lazy start, each body's path once.
  for (const name of Object.keys(requests)) for (let i = 0; i < 20; i++) await timed(name);
  for (let block = 0; block < 4; block++)
    for (const name of Object.keys(requests)) for (let i = 0; i < calls / 4; i++) durations.get(name)!.push(await timed(name));
  const bodies = Object.keys(requests).map((name) => ({
    name,
    bytes: requests[name]?.body.length ?? JSON.stringify(contactBody(0)).length,
    status: statuses.get(name)!,
    p50: median(durations.get(name)!),
  }));
  const [normal, ...hostile] = bodies;
  const worst = hostile.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  return { bodies, worst: { name: worst.name, ratio: worst.p50 / normal!.p50 } };
}
