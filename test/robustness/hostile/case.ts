/**
 * What one generated hostile request is, and the bytes it is built from: header lines and
 * bodies as raw bytes, so nothing can tidy them up before they reach the edge.
 */
import fc from 'fast-check';
import { API_PATH } from '@site/core/contract';
import { TEXT_FIELDS, validMessage } from '../contact-fields';

/** A body too big to keep 5,000 of in memory is described, and built only when sent. */
export type Body = Buffer | { prefix: string; fill: string; bytes: number; suffix: string };

/** How a request is framed on the wire; only 'raw' cases break the framing on purpose. */
export type Framing = 'content-length' | 'chunked' | 'raw';

export interface HostileCase {
  index: number;
  kind: string;
  /** Short words about the variant, for the failure list (no body content). */
  variant: string;
  method: string;
  path: string;
  /** Header lines as bytes: values may hold anything, CR and LF included. */
  headers: Buffer[];
  body: Body;
  framing: Framing;
  /** Statuses the contract allows for this input. */
  expect: number[];
  /** Set on filled-honeypot cases: this text must never reach the table or the outbox. */
  honeypotMarker?: string;
  /** Set when the case reuses one of a few fixed keys with the same body: same key → same id. */
  poolKey?: string;
}

/** A case as an attack family generates it, before it gets its index and its placeholders are filled. */
export type Draft = Omit<HostileCase, 'index'>;

export const enc = (text: string) => Buffer.from(text, 'utf8');
export const header = (name: string, value: string | Buffer) =>
  Buffer.concat([enc(`${name}: `), typeof value === 'string' ? enc(value) : value]);

export function buildBody(body: Body): Buffer {
  if (Buffer.isBuffer(body)) return body;
  const fillBytes = Math.max(0, body.bytes - Buffer.byteLength(body.prefix) - Buffer.byteLength(body.suffix));
  return Buffer.concat([enc(body.prefix), Buffer.alloc(fillBytes, body.fill), enc(body.suffix)]);
}

/** A JSON object written by hand, so `__proto__` stays a real key and keys may repeat. */
export function objectText(entries: [string, unknown][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value === undefined ? 'null' : JSON.stringify(value)}`).join(',')}}`;
}

export const JSON_TYPE = 'application/json';
export const contentTypeHeaders = (contentType: string | null) => (contentType === null ? [] : [header('Content-Type', contentType)]);

/** A JSON POST to the API, unless the draft says otherwise. */
export const post = (draft: Partial<Draft> & Pick<Draft, 'kind' | 'variant' | 'body' | 'expect'>): Draft => ({
  method: 'POST',
  path: API_PATH,
  headers: contentTypeHeaders(JSON_TYPE),
  framing: 'content-length',
  ...draft,
});

/**
 * Placeholders filled per case after sampling (see generate.ts): a marker and a UUID
 * unique to the case index. fast-check's own nat() and uuid() favour edge values and
 * repeat them, and two cases sharing a key would turn a 200 into a legitimate 422.
 */
export const MARK = '@@MARK@@';
export const UUID = '@@UUID@@';
export const UUID_UPPER = '@@UUID-UPPER@@';

/** The marker placeholder, as an arbitrary for the attack families to map over. */
export const marker = fc.constant(MARK);

/**
 * A valid message with `raw` in place of `field`'s value: JSON text written as it is, such as
 * nesting deeper than any parser should follow.
 */
export function withRawValue(field: string, raw: string, marker: string): string {
  const token = '@@RAW@@';
  const entries = validMessage(marker).map(([name, value]): [string, unknown] => [name, name === field ? token : value]);
  return objectText(entries).replace(JSON.stringify(token), raw);
}

/** A valid message `bytes` long, its text field filled with `fill`: described, and built when sent. */
export function filledMessage(fill: string, bytes: number): Body {
  const token = '@@FILL@@';
  const entries = validMessage('').map(([name, value]): [string, unknown] => [name, name === TEXT_FIELDS[0] ? token : value]);
  const [prefix = '', suffix = ''] = objectText(entries).split(token);
  return { prefix, fill, bytes, suffix };
}
