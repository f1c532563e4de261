/**
 * How a handler is bundled for Lambda: the one definition. The CDK stack maps these onto
 * NodejsFunction's `bundling` props (format → OutputFormat.ESM, target, minify,
 * sourcemap → sourceMap, mainFields, banner, external → externalModules plus
 * bundleAwsSDK: true); the benchmark and the tests call bundleHandler.
 */
import { build, type BuildOptions } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FunctionName } from '@site/core/names';

const bundling = (file: string) => join(import.meta.dirname, 'bundling', file);

/** The functions Lambda runs, by name, and the entry each is bundled from. */
export const HANDLER_ENTRIES = {
  'send-contact-email': join(import.meta.dirname, 'src/handlers/send-contact-email.ts'),
  'retry-undelivered': join(import.meta.dirname, 'src/handlers/retry-undelivered.ts'),
  'record-delivery-event': join(import.meta.dirname, 'src/handlers/record-delivery-event.ts'),
  'outside-check': join(import.meta.dirname, 'src/handlers/outside-check.ts'),
} as const satisfies Record<FunctionName, string>;
export type HandlerName = keyof typeof HANDLER_ENTRIES;

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

/** A position in a bundle, as errorLocation logs it (`index.mjs:1:204533`), and where it is in the TypeScript. */
export interface SourcePosition {
  logged: string;
  /** `lambda/src/contact/contact-handler.ts:123:45`, from the repository's root; undefined for a position the map does not cover. */
  source?: string;
  /** The name at that position in the source, when the map has one. */
  name?: string;
}

const REPO_ROOT = join(import.meta.dirname, '..');
const LOGGED_POSITION = /^(?:.*:)?(\d+):(\d+)$/;

/**
 * Maps positions a deployed function logged (errorLocation) back to the TypeScript. The
 * function ships without its source map, since Node reading the map on every cold start cost
 * more than the cold-start budget allows (docs/decisions/0027-settings-and-errors.md); this
 * builds the same bundle again with the map beside it. esbuild writes the same code with or
 * without a map, so built from the release's commit (git tag) the positions are the deployed ones.
 */
export async function sourcePositions(handler: HandlerName, logged: readonly string[]): Promise<SourcePosition[]> {
  const dir = mkdtempSync(join(tmpdir(), 'where-'));
  try {
    const outfile = join(dir, 'index.mjs');
    const { banner, mainFields, ...options } = HANDLER_BUNDLE;
    await build({
      ...options,
      sourcemap: 'external',
      mainFields: [...mainFields],
      banner: { js: banner },
      entryPoints: [HANDLER_ENTRIES[handler]],
      outfile,
      logLevel: 'warning',
    });
    const map = new SourceMap(JSON.parse(readFileSync(`${outfile}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    return logged.map((position) => {
      const match = LOGGED_POSITION.exec(position.trim());
      if (!match) return { logged: position };
      const origin = map.findOrigin(Number(match[1]), Number(match[2]));
      if (!('fileName' in origin)) return { logged: position };
      const file = relative(REPO_ROOT, join(dir, origin.fileName));
      return { logged: position, source: `${file}:${origin.lineNumber}:${origin.columnNumber}`, name: origin.name || undefined };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
