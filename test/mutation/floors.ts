/**
 * The mutation-score floor of each module that decides a refusal or a count (docs/design.md,
 * "Mutation testing", states them; this is their only copy in code, so change both together).
 * The score is the share of mutants the tests kill, of all but those recorded as equivalent
 * (equivalent-mutants.json). `npm run test:mutation` mutates these modules and fails when
 * one it measured is below its floor.
 */
export const FLOORS = {
  'lambda/src/contact/schema.ts': 90,
  'lambda/src/shared/characters.ts': 90,
  'lambda/src/contact/http.ts': 90,
  'lambda/src/contact/cross-site.ts': 90,
  'lambda/src/contact/origin-verify.ts': 90,
  'lambda/src/spam/visitor-limit.ts': 90,
  'lambda/src/spam/visitor-counter.ts': 90,
  'lambda/src/contact/idempotency.ts': 90,
  'lambda/src/store/store.ts': 90,
  'lambda/src/delivery-events/delivery-events.ts': 90,
  'lambda/src/spam/assessment.ts': 90,
  'lambda/src/spam/stamp.ts': 90,
  'lambda/src/spam/mail-budget.ts': 90,
  'lambda/src/spam/spam-signals.ts': 90,
  'lambda/src/shared/links.ts': 90,
} as const satisfies Record<string, number>;

export type MutatedModule = keyof typeof FLOORS;

export const MUTATED_MODULES = Object.keys(FLOORS) as MutatedModule[];
