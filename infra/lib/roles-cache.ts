/**
 * The functions' roles for the local stack, synthesized once per version of the app and kept in
 * node_modules/.cache: a synth (deployed-roles.ts) takes seconds, and `npm start` must be ready
 * within its budget (docs/design.md). The key is a hash of everything the roles can depend on, so
 * a change to the app, core, cdk.json or a locked version makes a new synth.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeployedRoles } from '@site/core/node/deployed-roles';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** What a synth's roles can depend on: the app's code and the code below it, cdk.json, and the locked versions (aws-cdk-lib's among them). */
const ROLE_INPUTS = ['infra/lib', 'infra/bin', 'core/src', 'core/node', 'cdk.json', 'package-lock.json'];

function hashInputs(hash: ReturnType<typeof createHash>, path: string): void {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashInputs(hash, join(path, entry));
    return;
  }
  hash.update(path.slice(REPO_ROOT.length)).update(readFileSync(path));
}

/** The roles as synthesizeDeployedRoles makes them, from the cache when the app is unchanged. */
export async function cachedDeployedRoles(): Promise<DeployedRoles> {
  const hash = createHash('sha256');
  for (const input of ROLE_INPUTS) hashInputs(hash, join(REPO_ROOT, input));
  const dir = join(REPO_ROOT, 'node_modules', '.cache', 'deployed-roles');
  const file = join(dir, `${hash.digest('hex').slice(0, 32)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DeployedRoles;
  // Loaded only for a synth: aws-cdk-lib alone takes seconds to import.
  const { synthesizeDeployedRoles } = await import('./deployed-roles');
  const roles = synthesizeDeployedRoles();
  mkdirSync(dir, { recursive: true });
  // Written whole, then renamed: two starts at once never read half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(roles));
  renameSync(partial, file);
  return roles;
}
