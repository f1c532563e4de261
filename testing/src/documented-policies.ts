/**
 * The IAM policies the guides give operators, as written: each JSON block marked
 * `<!-- policy:<name> -->` in docs/on-call.md, with the values an operator fills in. The tests
 * evaluate them with an IAM policy simulator, and the IAM gates enforce them on the commands
 * they are documented for (signed as `<name>`), so a guide that gives too little fails a test.
 */
import { readFileSync } from 'node:fs';
import type { NamedPolicy, PolicyDocument } from '@site/core/node/deployed-roles';

const GUIDE = new URL('../../docs/on-call.md', import.meta.url);

/** What an operator puts in for the guide's `<placeholders>`. */
export interface PolicyValues {
  region: string;
  account: string;
  stage: string;
  TableName: string;
}

/** Every policy the guide documents, by name, filled in with `values`; a placeholder left unfilled fails. */
export function documentedPolicies(values: PolicyValues): Record<string, NamedPolicy[]> {
  const guide = readFileSync(GUIDE, 'utf8');
  const policies: Record<string, NamedPolicy[]> = {};
  for (const [, name, body] of guide.matchAll(/<!-- policy:([\w-]+) -->\n```json\n([\s\S]*?)\n```/g)) {
    const filled = body!.replace(/<(\w+)>/g, (whole, key: string) => {
      if (!(key in values)) throw new Error(`docs/on-call.md's policy ${name} has a placeholder ${whole} no operator value fills.`);
      return values[key as keyof PolicyValues];
    });
    policies[name!] = [{ name: name!, policy: JSON.parse(filled) as PolicyDocument }];
  }
  if (Object.keys(policies).length === 0)
    throw new Error('docs/on-call.md documents no policy (<!-- policy:<name> --> above a json block).');
  return policies;
}
