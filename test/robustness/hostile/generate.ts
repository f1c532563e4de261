/**
 * The hostile requests of a run: fast-check samples the attack families, by weight, from a
 * printed seed (same seed, same requests, in the same order), and each case gets its index,
 * a marker and a UUID of its own.
 *
 * Generation uses `fc.sample` rather than `fc.assert` so the requests can run 50 at a time:
 * the run is reproducible from the seed, and a failure prints the case's index and kind.
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { bodyFields, honeypot, prototypePollution } from './body-attacks';
import { MARK, UUID, UUID_UPPER, type Draft, type HostileCase } from './case';
import { formNames } from './form-attacks';
import { contentType, methodAndPath, rawHeaders } from './http-attacks';
import { oddKey, pooledKey } from './idempotency-attacks';
import { byteOrderMark, deepNesting, invalidJson, invalidUtf8 } from './json-attacks';
import { hugeBody, nearTheLimit } from './size-attacks';

/** Every attack family, with how often it is drawn. */
function attacks(runTag: string): { arbitrary: fc.Arbitrary<Draft>; weight: number }[] {
  return [
    { arbitrary: bodyFields, weight: 30 },
    { arbitrary: prototypePollution, weight: 8 },
    { arbitrary: invalidJson, weight: 7 },
    { arbitrary: byteOrderMark, weight: 1 },
    { arbitrary: deepNesting, weight: 5 },
    { arbitrary: hugeBody, weight: 2 },
    { arbitrary: nearTheLimit, weight: 3 },
    { arbitrary: invalidUtf8, weight: 6 },
    { arbitrary: contentType, weight: 8 },
    { arbitrary: methodAndPath, weight: 8 },
    { arbitrary: oddKey, weight: 8 },
    { arbitrary: pooledKey(runTag), weight: 4 },
    { arbitrary: honeypot, weight: 5 },
    { arbitrary: rawHeaders, weight: 5 },
    { arbitrary: formNames, weight: 3 },
  ];
}

/** A version-4 UUID from the seed and the case index: unique per case, the same on replay. */
function caseUuid(seed: number, index: number): string {
  const hex = createHash('sha256').update(`${seed}:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Fills the placeholders; bytes go through latin1 so invalid UTF-8 survives untouched. */
function fill(draft: Draft, index: number, seed: number, runTag: string): HostileCase {
  const marker = `RH${runTag}I${index}`;
  const uuid = caseUuid(seed, index);
  const text = (value: string) => value.replaceAll(MARK, marker).replaceAll(UUID_UPPER, uuid.toUpperCase()).replaceAll(UUID, uuid);
  const bytes = (value: Buffer) => (value.includes('@@') ? Buffer.from(text(value.toString('latin1')), 'latin1') : value);
  const body = Buffer.isBuffer(draft.body)
    ? bytes(draft.body)
    : { ...draft.body, prefix: text(draft.body.prefix), suffix: text(draft.body.suffix) };
  return { ...draft, index, headers: draft.headers.map(bytes), body, honeypotMarker: draft.honeypotMarker && text(draft.honeypotMarker) };
}

/** The same seed gives the same requests, in the same order. */
export function generateCases(seed: number, runs: number, runTag: string): HostileCase[] {
  const drafts = fc.sample(fc.oneof(...attacks(runTag)), { seed, numRuns: runs });
  return drafts.map((draft, index) => fill(draft, index, seed, runTag));
}
