/**
 * The mutation-score floor of each module that decides a refusal or a count (docs/design.md,
 * "Mutation testing", states them; this is their only copy in code, so change both together).
 * The score is the share of mutants the tests kill, of all but those recorded as equivalent
 * (equivalent-mutants.json). `npm run test:mutation` mutates these modules and fails when
 * one it measured is below its floor.
 */
export const FLOORS = {
  'lambda/src/schema.ts': 90,
  'lambda/src/characters.ts': 90,
  'lambda/src/http.ts': 90,
  'lambda/src/cross-site.ts': 90,
  'lambda/src/origin-verify.ts': 90,
  'lambda/src/visitor-limit.ts': 90,
  'lambda/src/visitor-counter.ts': 90,
  'lambda/src/idempotency.ts': 90,
  'lambda/src/store.ts': 90,
  'lambda/src/delivery-events.ts': 90,
} as const satisfies Record<string, number>;

export type MutatedModule = keyof typeof FLOORS;

export const MUTATED_MODULES = Object.keys(FLOORS) as MutatedModule[];
