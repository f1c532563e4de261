/**
 * The `context` block of cdk.json: the settings a plain `cdk synth` uses, read in one place
 * for the other tools that must agree with it (the site build, the local stack, the tests).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CDK_JSON_PATH = join(import.meta.dirname, '..', '..', 'cdk.json');

export const CDK_JSON_CONTEXT: Readonly<Record<string, unknown>> =
  (JSON.parse(readFileSync(CDK_JSON_PATH, 'utf8')) as { context?: Record<string, unknown> }).context ?? {};
