/** Attacks on the HTTP request around the body: content types, methods and paths, malformed header lines. */
import fc from 'fast-check';
import { validMessage } from '../contact-fields';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '@site/core/api-origin';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { contentTypeHeaders, enc, JSON_TYPE, marker, objectText, post, UUID, type Draft, type Framing } from './case';

/**
 * Content types: wrong ones get 415; spellings of JSON the contract allows get through; a
 * classic form post of this JSON text names none of the form's fields, so the form comes
 * back (400) with each required field marked, as for a visitor who sent it empty.
 */
export const contentType = fc
  .tuple(
    marker,
    fc.constantFrom(
      ['text/plain', [415]],
      ['text/plain;charset=UTF-8', [415]],
      ['multipart/form-data; boundary=x', [415]],
      // Read as a form, this JSON text names none of the fields: the form again, each required one marked.
      ['application/x-www-form-urlencoded', [400]],
      ['application/xml', [415]],
      ['application/jsonp', [415]],
      ['application/json-patch+json', [415]],
      ['application/json; charset=utf-16', [415]],
      ['application/json; charset=latin1', [415]],
      [null, [415]],
      ['', [415]],
      ['APPLICATION/JSON', [200]],
      ['application/json; charset=utf-8', [200]],
      ['application/json;charset="UTF-8"', [200]],
      ['application/json, text/plain', [415, 200]],
    ),
  )
  .map(([m, [type, expect]]): Draft =>
    post({
      kind: 'content-type',
      variant: String(type),
      headers: contentTypeHeaders(type as string | null),
      body: enc(objectText(validMessage(m))),
      expect: [...(expect as readonly number[])],
    }),
  );

/**
 * Methods and paths: anything but POST on the API path is 405; methods Node's parser does
 * not know are refused by Node itself (400); other paths are the edge's 404.
 */
export const methodAndPath = fc
  .tuple(
    marker,
    fc.constantFrom(
      ['GET', API_PATH, [405]],
      ['PUT', API_PATH, [405]],
      ['DELETE', API_PATH, [405]],
      ['PATCH', API_PATH, [405]],
      ['OPTIONS', API_PATH, [405]],
      ['HEAD', API_PATH, [405]],
      ['PROPFIND', API_PATH, [405]],
      ['PURGE', API_PATH, [405]],
      ['post', API_PATH, [400, 405]],
      ['P0ST', API_PATH, [400, 405]],
      ['POST', `${API_PATH}/`, [404]],
      // Paths are case-sensitive (CloudFront's too): this is a site path, where POST is 405.
      ['POST', API_PATH.toUpperCase(), [404, 405]],
      ['POST', `${API_PATH}%00`, [404]],
      ['POST', `/api/../api/send-contact-email`, [404]],
      ['POST', `${API_PATH}?__proto__[polluted]=1&constructor[prototype][x]=1`, [200]],
      ['POST', `${API_PATH}?${'q='.repeat(2000)}`, [200]],
      // Absolute form: Node hands the edge the whole URL, which is no path it serves.
      ['POST', `http://evil.test${API_PATH}`, [200, 400, 404, 405]],
    ),
  )
  .map(([m, [verb, path, expect]]): Draft => ({
    kind: 'method/path',
    variant: `${verb as string} ${path.slice(0, 50)}`,
    method: verb,
    path,
    headers: contentTypeHeaders(JSON_TYPE),
    framing: 'content-length',
    body: enc(objectText(validMessage(m))),
    expect: [...(expect as readonly number[])],
  }));

/** Header lines an HTTP parser must refuse or survive: bare CR/LF, NUL, folding, smuggling. */
export const rawHeaders = fc
  .tuple(
    marker,
    fc.constantFrom<[string, Buffer[], Framing, number[]]>(
      ['bare CR in a value', [enc('X-Test: a\rBcc: victim@evil.test')], 'content-length', [400]],
      ['bare LF in a value', [enc('X-Test: a\nBcc: victim@evil.test')], 'content-length', [200, 400]],
      ['NUL in a value', [Buffer.concat([enc('X-Test: a'), Buffer.from([0]), enc('b')])], 'content-length', [400]],
      ['obs-fold', [enc('X-Test: a\r\n folded')], 'content-length', [200, 400]],
      ['space before colon', [enc('Content-Type : application/json')], 'content-length', [400]],
      ['__proto__ header', [enc('__proto__: polluted'), enc('constructor: x')], 'content-length', [200]],
      ['header of 20 KB', [enc(`X-Big: ${'h'.repeat(20_000)}`)], 'content-length', [200, 431]],
      ['chunked body', [], 'chunked', [200]],
      ['chunked and content-length', [enc('Transfer-Encoding: chunked')], 'content-length', [400]],
      ['two content-lengths', [enc('Content-Length: 3')], 'content-length', [400]],
      ['CRLF in Idempotency-Key', [enc(`${IDEMPOTENCY_HEADER}: ${UUID}\r\nX-Injected: 1`)], 'content-length', [200]],
      // CloudFront sets these itself; what a viewer sends under their names never reaches the function.
      ['forged origin secret', [enc(`${ORIGIN_VERIFY_HEADER}: guessed`)], 'content-length', [200]],
      ['forged viewer address', [enc(`${VIEWER_ADDRESS_HEADER}: 203.0.113.1:1`)], 'content-length', [200]],
    ),
  )
  .map(([m, [variant, extra, framing, expect]]): Draft =>
    post({
      kind: 'raw-header',
      variant,
      headers: [...contentTypeHeaders(JSON_TYPE), ...extra],
      framing,
      body: enc(objectText(validMessage(m))),
      expect,
    }),
  );
