/**
 * How a handler is bundled for Lambda: the one definition. The CDK stack maps these onto
 * NodejsFunction's `bundling` props (format → OutputFormat.ESM, target, minify,
 * sourcemap → sourceMap, mainFields, banner, external → externalModules plus
 * bundleAwsSDK: true); the benchmark and the tests call bundleHandler.
 */
import { build, type BuildOptions } from 'esbuild';
import { statSync } from 'node:fs';
import { join } from 'node:path';

const bundling = (file: string) => join(import.meta.dirname, 'bundling', file);

export const HANDLER_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  minify: true,
  sourcemap: false,
  treeShaking: true,
  // The ES module builds of the AWS SDK tree-shake better than the CommonJS ones.
  mainFields: ['module', 'main'],
  // The AWS SDK is bundled rather than taken from the runtime: a pinned version, and a
  // cold start that does not read hundreds of files from the runtime's node_modules.
  external: [] as string[],
  // An ES module has no `require`; CommonJS code inside the bundle still calls it for
  // Node built-ins. Aliased so it cannot clash with names in the bundled code.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  legalComments: 'none',
  // Cold-start cuts, each explained in its file: modules the function imports but never
  // runs are swapped for what Lambda actually uses.
  alias: {
    'node:http': bundling('node-http.cjs'),
    '@aws-sdk/credential-provider-node': bundling('env-credentials.ts'),
  },
} as const satisfies Omit<BuildOptions, 'banner' | 'external' | 'mainFields' | 'alias'> & {
  banner: string;
  external: string[];
  mainFields: readonly string[];
  alias: Record<string, string>;
};

/**
 * Bundles one handler entry into `outfile` (an .mjs file) and returns its size in bytes.
 * `external` and `alias` replace the shipped ones, only for comparisons (the benchmark's
 * SDK-from-node_modules anchor).
 */
export async function bundleHandler(
  entry: string,
  outfile: string,
  comparison: { external?: string[]; alias?: Record<string, string> } = {},
): Promise<{ outfile: string; bytes: number }> {
  const { banner, mainFields, ...options } = HANDLER_BUNDLE;
  await build({
    ...options,
    ...comparison,
    mainFields: [...mainFields],
    banner: { js: banner },
    entryPoints: [entry],
    outfile,
    logLevel: 'warning',
  });
  return { outfile, bytes: statSync(outfile).size };
}
