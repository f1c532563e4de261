/** Attacks on the JSON text itself: syntax, a byte order mark, deep nesting, bytes that are not UTF-8. */
import fc from 'fast-check';
import { MAX_BODY_BYTES } from '@site/core/contract';
import { FIELDS, REQUIRED_FIELDS, validMessage } from '../contact-fields';
import { enc, marker, objectText, post, withRawValue, type Draft } from './case';

/** Syntax errors, and JSON that is not an object. */
export const invalidJson = fc
  .oneof(
    fc.constantFrom(
      '',
      '{',
      '{"name":',
      '{"name":"a",}',
      "{'name':'a'}",
      'null',
      'true',
      '42',
      '"string"',
      '[]',
      '[{"name":"a"}]',
      'NaN',
      '{"name":"a"}{"name":"b"}',
      '{"name":"\\ud800"}',
      '{"a":1e999999}',
      '{"name":"\u0000"}',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).filter((text) => {
      try {
        const parsed = JSON.parse(text) as unknown;
        return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
      } catch {
        return true;
      }
    }),
  )
  .map((text): Draft => post({ kind: 'invalid-json', variant: 'syntax or not an object', body: enc(text), expect: [400] }));

/** RFC 8259 lets a parser ignore a leading byte order mark or refuse it: both are allowed. */
export const byteOrderMark = marker.map((m): Draft =>
  post({
    kind: 'invalid-json',
    variant: 'BOM before valid JSON',
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enc(objectText(validMessage(m)))]),
    expect: [200, 400],
  }),
);

/** Deep nesting: inside a field and as the whole body, under and over the body limit. */
export const deepNesting = fc
  .tuple(fc.integer({ min: 500, max: 60_000 }), fc.constantFrom('array-in-field', 'object-in-field', 'whole-body'))
  .map(([depth, shape]): Draft => {
    const open = shape === 'object-in-field' ? '{"a":' : '[';
    const close = shape === 'object-in-field' ? '}' : ']';
    const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
    const text = shape === 'whole-body' ? nested : withRawValue(FIELDS[0]!, nested, 'diep');
    const bytes = Buffer.byteLength(text);
    return post({ kind: 'deep', variant: `${shape} depth ${depth}`, body: enc(text), expect: bytes > MAX_BODY_BYTES ? [413] : [400] });
  });

/** Bytes that are not UTF-8, inside otherwise valid JSON. */
export const invalidUtf8 = fc
  .tuple(
    marker,
    fc.constantFrom(...REQUIRED_FIELDS),
    fc.constantFrom([0xc3, 0x28], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]),
  )
  .map(([m, field, bytes]): Draft => {
    const entries = validMessage(m).map(([k, v]): [string, unknown] => [k, k === field ? `${v}@@BAD@@` : v]);
    const [before, after] = objectText(entries).split('@@BAD@@') as [string, string];
    return post({
      kind: 'invalid-utf8',
      variant: `${field} ${bytes.map((b) => b.toString(16)).join(' ')}`,
      body: Buffer.concat([enc(before), Buffer.from(bytes), enc(after)]),
      expect: [400],
    });
  });
