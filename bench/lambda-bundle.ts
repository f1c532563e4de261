/**
 * The Lambda bundle exactly as the stack ships it: built by lambda/bundle.ts, the one
 * definition of the esbuild options, so a change there shows up here in the next run.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleHandler } from '@site/lambda/bundle';

export const HANDLER_ENTRY = join(dirname(fileURLToPath(import.meta.url)), '../lambda/src/handlers/send-contact-email.ts');

export interface LambdaBundle {
  outfile: string;
  /** Minified bytes: what the budget is about (parse and compile time scale with it). */
  bytes: number;
  /** Roughly the deployment zip: what is fetched on a cold start. */
  gzipBytes: number;
}

export async function buildLambdaBundle(outDir: string): Promise<LambdaBundle> {
  const { outfile, bytes } = await bundleHandler(HANDLER_ENTRY, join(outDir, 'send-contact-email.mjs'));
  return { outfile, bytes, gzipBytes: gzipSync(readFileSync(outfile)).length };
}

/**
 * The same handler with the AWS SDK left in node_modules and none of the bundle's cold-start
 * substitutions, as a function that relies on the runtime's SDK would load it: the anchor of
 * the cold-start budget. Only for comparison; nothing ships this way. Written under the
 * repository, so that Node finds the SDK in its node_modules.
 */
export async function buildUnbundledSdkHandler(outDir: string): Promise<string> {
  const { outfile } = await bundleHandler(HANDLER_ENTRY, join(outDir, 'send-contact-email.sdk-from-node_modules.mjs'), {
    external: ['@aws-sdk/*'],
    alias: {},
  });
  return outfile;
}
