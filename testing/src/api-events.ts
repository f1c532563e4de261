/**
 * Contact requests as the handler receives them: an HTTP request (method, headers, body
 * bytes) as CloudFront passes it on to the API (cloudFrontOriginHeaders) and API Gateway hands
 * it to the function (the stand-in's payload format 2.0), so the handler is tested with the
 * events it gets behind the local edge and in AWS. The local edge's own origin request is
 * proven to match cloudFrontOriginHeaders in local/test/origin-request.test.ts.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  API_VIEWER_HEADERS,
  ORIGIN_VERIFY_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
  VIEWER_SCHEME_HEADER,
} from '@site/core/api-origin';
import { API_PATH, FORM_CONTENT_TYPE, HELD_LINK_PARAMETER, HELD_PATH } from '@site/core/contract';
import { CONTACT_ROUTE_KEY, HELD_ROUTE_KEY, toApiGatewayEvent } from '@site/emulators/api-gateway';
import { TEST_ORIGIN_SECRET } from './test-values';

/** Who sent a request to CloudFront: the address and port of the connection, and the scheme it used. */
export interface Viewer {
  address: string;
  port: number;
  scheme: 'http' | 'https';
}

/** Besides the listed viewer headers, what CloudFront's origin request always carries and API Gateway reads. */
const ALWAYS_FORWARDED = ['host', 'content-length'];

/**
 * The headers of CloudFront's request to the API for a viewer's request: the /api/*
 * behaviour's function passes the viewer's Host on as X-Viewer-Host (over anything the viewer
 * sent under that name); of the rest only what the origin request policy lists goes on; then
 * CloudFront adds the origin secret, the viewer's `ip:port` and its scheme.
 */
export function cloudFrontOriginHeaders(viewerHeaders: IncomingHttpHeaders, viewer: Viewer, originSecret: string): IncomingHttpHeaders {
  const forwarded = new Set([...ALWAYS_FORWARDED, ...API_VIEWER_HEADERS.map((name) => name.toLowerCase())]);
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(viewerHeaders)) {
    const lower = name.toLowerCase();
    if (value === undefined || !forwarded.has(lower) || lower === VIEWER_HOST_HEADER.toLowerCase()) continue;
    headers[lower] = Array.isArray(value) ? value.join(',') : value;
  }
  const host = viewerHeaders.host;
  if (host !== undefined) headers[VIEWER_HOST_HEADER.toLowerCase()] = Array.isArray(host) ? host.join(',') : host;
  headers[ORIGIN_VERIFY_HEADER.toLowerCase()] = originSecret;
  headers[VIEWER_ADDRESS_HEADER.toLowerCase()] = `${viewer.address}:${viewer.port}`;
  headers[VIEWER_SCHEME_HEADER.toLowerCase()] = viewer.scheme;
  return headers;
}

export interface EventParts {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string (sent as its UTF-8 bytes) or bytes. */
  body?: unknown;
  /**
   * `body` is a base64 string, handed over as API Gateway hands over a body it takes for
   * binary. The translation decides that by content type; the handler must read both forms
   * whatever the type says, and must refuse base64 that no gateway would send.
   */
  isBase64Encoded?: boolean;
  /**
   * The viewer CloudFront reports (`ip:port`'s ip). Default: a new visitor for every event,
   * so only the tests about the visitor limit ever meet it.
   */
  viewer?: string;
  /** Not through CloudFront: the headers reach the handler as sent, without the origin secret or a viewer address. */
  direct?: boolean;
}

/** Half a surrogate pair on its own: what no UTF-8 encoder can write. */
const LONE_SURROGATE = /\p{Cs}/u;

const surrogateBytes = (unit: number) => Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]);

/**
 * The bytes a client sends for `text`. Half a surrogate pair has no UTF-8 form; a broken
 * client sends the unit's own three bytes (as CESU-8 does), which are not UTF-8 either.
 */
function wireBytes(text: string): Buffer {
  const split = new RegExp(`(${LONE_SURROGATE.source})`, 'u');
  return Buffer.concat(
    text.split(split).map((part) => (LONE_SURROGATE.test(part) ? surrogateBytes(part.charCodeAt(0)) : Buffer.from(part))),
  );
}

function bodyBytes(parts: EventParts): Buffer {
  const { body } = parts;
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body !== 'string') return Buffer.from(JSON.stringify(body));
  return parts.isBase64Encoded ? Buffer.from(body, 'base64') : wireBytes(body);
}

let visitors = 0;

/** A different address each call, from the range set aside for benchmarks (198.18.0.0/15). */
function newVisitor(): string {
  visitors += 1;
  return `198.${18 + ((visitors >> 16) & 1)}.${(visitors >> 8) & 255}.${visitors & 255}`;
}

export function contactEvent(parts: EventParts = {}): APIGatewayProxyEventV2 {
  const sent = parts.headers ?? { 'content-type': 'application/json' };
  const headers = parts.direct
    ? sent
    : // Behind CloudFront, as in AWS: the viewer used HTTPS.
      cloudFrontOriginHeaders(sent, { address: parts.viewer ?? newVisitor(), port: 40_000, scheme: 'https' }, TEST_ORIGIN_SECRET);
  const event = toApiGatewayEvent(
    {
      method: parts.method ?? 'POST',
      url: API_PATH,
      headers,
      body: bodyBytes(parts),
      sourceIp: '203.0.113.7',
    },
    CONTACT_ROUTE_KEY,
  );
  return parts.isBase64Encoded && typeof parts.body === 'string' ? { ...event, body: parts.body, isBase64Encoded: true } : event;
}

/** The site's own host, as the viewer asks CloudFront for it; the page's forms post from it. */
export const SITE_HOST = 'www.firma.example';

/**
 * A request for the firm's page of held messages, behind CloudFront: a GET of the digest's
 * link (`token` in the query string, the one parameter CloudFront passes on), or a POST of
 * one of the page's forms, from the page itself unless `headers` say otherwise.
 */
export function heldEvent(
  parts: { token?: string; form?: Record<string, string> | URLSearchParams; headers?: Record<string, string>; method?: string } = {},
): APIGatewayProxyEventV2 {
  const posted = parts.form !== undefined;
  const sent = {
    host: SITE_HOST,
    ...(posted && { 'content-type': FORM_CONTENT_TYPE, origin: `https://${SITE_HOST}`, 'sec-fetch-site': 'same-origin' }),
    ...parts.headers,
  };
  const headers = cloudFrontOriginHeaders(sent, { address: newVisitor(), port: 40_000, scheme: 'https' }, TEST_ORIGIN_SECRET);
  const query = parts.token === undefined ? '' : `?${new URLSearchParams({ [HELD_LINK_PARAMETER]: parts.token })}`;
  return toApiGatewayEvent(
    {
      method: parts.method ?? (posted ? 'POST' : 'GET'),
      url: `${HELD_PATH}${query}`,
      headers,
      body: posted ? Buffer.from(new URLSearchParams(parts.form).toString()) : Buffer.alloc(0),
      sourceIp: '203.0.113.7',
    },
    HELD_ROUTE_KEY,
  );
}

let serial = 0;
const RUN = process.pid.toString(36);

/** Syllables of Dutch-looking words: two make one of 2,500 words, so two texts rarely share a word pair by chance. */
const SYLLABLES = (
  'ba be bo da de do ga ge go ha he ka ke ko la le lo ma me mo na ne no pa pe po ra re ro sa se so ta te to va ve vo ' +
  'wa we wo za ze zo ber del gen ker lin men'
).split(' ');

/**
 * A text no other seed's text is a near-copy of (lambda's nearCopyBands): sixteen words drawn
 * by a hash of the seed. Words from a small list would not do: thousands of such texts in a
 * day (the robustness suite's) share so many word pairs that three of them share a band.
 */
export function distinctText(seed: string): string {
  const drawn = createHash('sha256').update(seed).digest();
  const words = Array.from(
    { length: 16 },
    (_, i) => `${SYLLABLES[drawn[2 * i]! % SYLLABLES.length]}${SYLLABLES[drawn[2 * i + 1]! % SYLLABLES.length]}`,
  );
  return `${words.join(' ')}.`.replace(/^./, (first) => first.toUpperCase());
}

/**
 * VALID_BODY with a text of its own: the same text, or a near-copy, from several visitors in
 * a day is a spam wave's mark (core/src/spam.ts), which a test that sends many messages and
 * wants each e-mailed must not make.
 */
export function ownMessage(more: Record<string, string> = {}): Record<keyof typeof VALID_BODY, string> & Record<string, string> {
  serial += 1;
  return { ...VALID_BODY, message: distinctText(`${RUN}-${serial}`), ...more };
}

export const VALID_BODY = {
  name: 'Jan de Vries',
  email: 'jan@voorbeeld.nl',
  phone: '055 123 4567',
  company: 'De Vries B.V.',
  message: 'Graag een afspraak over interim management.',
} as const;

export interface JsonAnswer {
  statusCode: number;
  headers: Record<string, string>;
  /** `check` only for the outside check's marked post. */
  json: { id?: string; error?: string; fields?: Record<string, string>; check?: { stamp: string; emailed: boolean } };
}

/** The handler's answer with its body parsed; fails the test if the body is not JSON. */
export function answer(result: { statusCode?: number; headers?: Record<string, unknown>; body?: string }): JsonAnswer {
  return {
    statusCode: result.statusCode ?? 0,
    headers: (result.headers ?? {}) as Record<string, string>,
    json: JSON.parse(result.body ?? ''),
  };
}
