/**
 * Least privilege, proven both ways over the whole run. The IAM gates in front of the stand-ins
 * (emulators/src/iam-gate.ts) evaluated every call any test's functions made, signed with the
 * function's role as the CDK app synthesizes it, and wrote each one down (test/setup/stand-ins.ts).
 * Run after every other project (root vitest.config.ts), this reads that record and each role:
 * - every grant of a role was used by some call of that function, allowed, on a resource it
 *   names; one no call used fails here, by name, unless the construct says why it stays
 *   (infra/lib/kept-grants.ts);
 * - no call of a function, or of an operator's documented policy, was denied: a function that
 *   tries what its role does not allow fails in AWS, even where the function survives it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { FUNCTION_NAMES } from '@site/core/names';
import type { PolicyStatement } from '@site/core/node/deployed-roles';
import type { GateCall } from '@site/emulators/iam-gate';
import '@site/testing/provided';

const roles = inject('deployedRoles');

/** Every call the run's gates evaluated, once each. */
function recordedCalls(): GateCall[] {
  const dir = inject('iamCallLog');
  const lines = readdirSync(dir).flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean));
  return [...new Set(lines)].map((line) => JSON.parse(line) as GateCall);
}

const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** An IAM resource pattern as a test of an ARN: `*` any run of characters, `?` one. */
function matches(pattern: string, arn: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`).test(arn);
}

const calls = recordedCalls();

describe.each(FUNCTION_NAMES)('the role of %s', (fn) => {
  const statements: PolicyStatement[] = roles.principals[fn]!.flatMap(({ policy }) => policy.Statement);
  const kept = new Set((roles.keptGrants[fn] ?? []).flatMap((grant) => grant.actions));
  const made = calls.filter((call) => call.principal === fn);

  // A role of nothing but kept grants (the outside check's: the runtime's log writes) belongs to
  // a function that calls no AWS API: it must make none, as any would be refused in AWS.
  const callsAws = statements.some((statement) => list(statement.Action).some((action) => !kept.has(action)));

  it(callsAws ? 'was used by the tests: some call of the function went through the gates' : 'made no call: its role allows none', () => {
    if (callsAws) expect(made.length).toBeGreaterThan(0);
    else expect(made).toEqual([]);
  });

  it('holds no grant that no call of the function used, but those its construct keeps with a reason', () => {
    const unused = statements.flatMap((statement) =>
      list(statement.Action)
        .filter((action) => !kept.has(action))
        .filter(
          (action) =>
            !made.some((call) => call.allowed && call.action === action && list(statement.Resource).some((r) => matches(r, call.resource))),
        )
        .map((action) => `${action} on ${list(statement.Resource).join(', ')}`),
    );
    expect(unused, `${fn}: granted, but no test's call of the function used it`).toEqual([]);
  });

  it('was never denied a call: what the function tries, its role allows', () => {
    expect(made.filter((call) => !call.allowed).map((call) => `${call.action} on ${call.resource}`)).toEqual([]);
  });

  it('keeps each unused grant with a reason', () => {
    for (const grant of roles.keptGrants[fn] ?? []) expect(grant.reason.length, grant.actions.join(', ')).toBeGreaterThan(20);
  });
});

describe('the operators’ documented policies', () => {
  const operators = Object.keys(roles.principals).filter((principal) => !(FUNCTION_NAMES as readonly string[]).includes(principal));

  it.each(operators)('%s was never denied a call by the commands it is documented for', (principal) => {
    const made = calls.filter((call) => call.principal === principal);
    expect(made.length, `no test ran a command signed as ${principal}`).toBeGreaterThan(0);
    expect(made.filter((call) => !call.allowed).map((call) => `${call.action} on ${call.resource}`)).toEqual([]);
  });
});
