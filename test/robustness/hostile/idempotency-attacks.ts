/**
 * Attacks with the Idempotency-Key: odd values, and a few fixed keys reused with the same
 * body (the same id) or another (422).
 */
import fc from 'fast-check';
import { validMessage } from '../contact-fields';
import { IDEMPOTENCY_HEADER } from '@site/core/contract';
import {
  contentTypeHeaders,
  enc,
  header,
  JSON_TYPE,
  marker,
  objectText,
  post,
  UUID,
  UUID_UPPER,
  type Draft,
  type HostileCase,
} from './case';

const UUID_POOL = ['3b241101-e2bb-4255-8caf-4136c566a962', '0f8fad5b-d9cb-469f-a165-70867728950e', '7c9e6679-7425-40de-944b-e07fc1f90ae7'];

const poolBody = (runTag: string, slot: number) => objectText(validMessage(`RH${runTag}POOL${slot}`));

/** The canonical request of each pooled key, sent before the generated ones. */
export function poolPrimers(runTag: string): HostileCase[] {
  return UUID_POOL.map((key, slot) => ({
    ...post({
      kind: 'idempotency-key',
      variant: 'pool primer',
      headers: [...contentTypeHeaders(JSON_TYPE), header(IDEMPOTENCY_HEADER, key)],
      body: enc(poolBody(runTag, slot)),
      expect: [200],
    }),
    index: -1 - slot,
    poolKey: key,
  }));
}

/** Odd Idempotency-Keys; and a few fixed keys reused, to check same key → same id. */
export const oddKey = fc
  .tuple(
    marker,
    fc.constantFrom<[string, Buffer | string | string[], number[]]>(
      ['empty', '', [400]],
      ['not-a-uuid', 'abc', [400]],
      ['nil-uuid', '00000000-0000-0000-0000-000000000000', [400]],
      ['max-uuid', 'ffffffff-ffff-ffff-ffff-ffffffffffff', [400]],
      ['braces', '{3b241101-e2bb-4255-8caf-4136c566a962}', [400]],
      ['no-dashes', '3b241101e2bb42558caf4136c566a962', [400]],
      ['sql', "' OR 1=1 --", [400]],
      ['key-injection', 'x#idempotency#y', [400]],
      ['long', 'a'.repeat(8000), [400]],
      ['latin1-bytes', Buffer.from([0x33, 0xe9, 0xff, 0x2d]), [400]],
      ['two-headers', ['3b241101-e2bb-4255-8caf-4136c566a962', '0f8fad5b-d9cb-469f-a165-70867728950e'], [400]],
      ['uppercase-uuid', UUID_UPPER, [200]],
      ['padded-uuid', `  ${UUID}  `, [200]],
    ),
  )
  .map(([m, [variant, value, expect]]): Draft => {
    const keyHeaders = Array.isArray(value) ? value.map((v) => header(IDEMPOTENCY_HEADER, v)) : [header(IDEMPOTENCY_HEADER, value)];
    return post({
      kind: 'idempotency-key',
      variant,
      headers: [...contentTypeHeaders(JSON_TYPE), ...keyHeaders],
      body: enc(objectText(validMessage(m))),
      expect,
    });
  });

/**
 * The same key with the same body must answer the same id; with another body 422. The
 * phase claims every pooled key with its canonical body first (poolPrimers), so the
 * order in which generated cases arrive cannot change the expected answer.
 */
export const pooledKey = (runTag: string) =>
  fc.tuple(fc.integer({ min: 0, max: UUID_POOL.length - 1 }), fc.boolean(), marker).map(([slot, same, m]): Draft => {
    const key = UUID_POOL[slot]!;
    const body = same ? poolBody(runTag, slot) : objectText(validMessage(m));
    return post({
      kind: 'idempotency-key',
      variant: same ? 'pooled key, same body' : 'pooled key, other body',
      headers: [...contentTypeHeaders(JSON_TYPE), header(IDEMPOTENCY_HEADER, key)],
      body: enc(body),
      expect: same ? [200] : [422],
      poolKey: same ? key : undefined,
    });
  });
