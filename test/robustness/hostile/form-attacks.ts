/**
 * Form posts that are no post of the page's form: one name repeated up to the form limit
 * (the body that once cost 77 s of CPU), many distinct names, bracketed names (`a[]=`,
 * `a[b]=`) as other frameworks read them, each after a valid message, small, at the limit and
 * just over it. Every one is refused at once and sent on to the check page (303); nothing of
 * it is stored or sent (checks.ts). The valid message with the most names the form may carry
 * is abuse.ts's, which follows it to the table.
 */
import fc from 'fast-check';
import { FORM_CONTENT_TYPE, HONEYPOT_FIELD, MAX_FORM_BODY_BYTES } from '@site/core/contract';
import { validMessage } from '../contact-fields';
import { enc, header, marker, post, type Draft } from './case';

/** The names after the valid message, by shape. */
export const FORM_NAME_SHAPES: Record<string, (i: number) => string> = {
  repeated: () => 'a',
  'repeated field': () => 'name=Piet',
  distinct: (i) => `n${i}=`,
  'bracketed, indexed': (i) => `a[${i}]=x`,
  'bracketed, empty': () => 'a[]=x',
  'bracketed, nested': (i) => `a[b${i}][c]=x`,
};

/** The page's valid message, as a browser encodes it, then `part(0)&part(1)&…` until the body is `bytes` long. */
export function formBodyOf(messageMarker: string, part: (i: number) => string, bytes: number): Buffer {
  const parts = [new URLSearchParams([...validMessage(messageMarker), [HONEYPOT_FIELD, '']]).toString()];
  let length = parts[0]!.length;
  for (let i = 0; length + part(i).length + 1 <= bytes; i += 1) {
    parts.push(part(i));
    length += part(i).length + 1;
  }
  const text = parts.join('&');
  // Padding in the last value, so the body is exactly `bytes` long whatever the parts' lengths.
  return enc(`${text}${'x'.repeat(Math.max(0, bytes - text.length))}`);
}

export const FORM_HEADERS = [header('Content-Type', FORM_CONTENT_TYPE)];

/** Names past the form's, up to the form limit or just over it. */
export const formNames = fc
  .tuple(marker, fc.constantFrom(...Object.keys(FORM_NAME_SHAPES)), fc.constantFrom('at the limit', 'over the limit', 'small'))
  .map(([m, shape, size]): Draft => {
    const bytes = size === 'at the limit' ? MAX_FORM_BODY_BYTES : size === 'over the limit' ? MAX_FORM_BODY_BYTES + 1 : 2_000;
    return post({
      kind: 'form-names',
      variant: `${shape}, ${size}`,
      headers: FORM_HEADERS,
      body: formBodyOf(m, FORM_NAME_SHAPES[shape]!, bytes),
      // Past the form limit the body is not read at all; a form post is sent on to the check page all the same.
      expect: [303],
    });
  });
