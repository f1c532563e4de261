/** Attacks by size: 1 MB bodies, and bodies just over and just under the limit. */
import fc from 'fast-check';
import { MAX_BODY_BYTES } from '@site/core/contract';
import { contentTypeHeaders, filledMessage, JSON_TYPE, post, type Body, type Draft } from './case';

/** 1 MB bodies: valid JSON with a huge message, and garbage. Built when sent. */
export const hugeBody = fc.constantFrom('json', 'garbage', 'no-content-type').map((variant): Draft => {
  const body: Body =
    variant === 'garbage' ? { prefix: '', fill: '\u00ff', bytes: 1024 * 1024, suffix: '' } : filledMessage('a', 1024 * 1024);
  return post({
    kind: '1MB',
    variant,
    body,
    headers: contentTypeHeaders(variant === 'no-content-type' ? null : JSON_TYPE),
    expect: variant === 'no-content-type' ? [413, 415] : [413],
  });
});

/** Just over and just under the body limit. */
export const nearTheLimit = fc.integer({ min: -64, max: 64 }).map((delta): Draft => {
  const bytes = MAX_BODY_BYTES + delta;
  const body = filledMessage('b', bytes);
  // Under the limit the text is far over its field's limit: 400 from validation.
  return post({
    kind: 'near-limit',
    variant: `${delta >= 0 ? '+' : ''}${delta} bytes`,
    body,
    expect: bytes > MAX_BODY_BYTES ? [413] : [400],
  });
});
