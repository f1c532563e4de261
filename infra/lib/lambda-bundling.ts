/**
 * lambda/bundle.ts holds the one definition of how a handler is bundled (the lambda
 * workspace's tests and benchmarks build with it); this maps it onto NodejsFunction's
 * bundling props so the deployed bundle is built the same way. An option the mapping does
 * not carry stops the synth instead of being silently dropped.
 */
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { HANDLER_BUNDLE } from '@site/lambda/bundle';

/** Options NodejsFunction always sets itself: it bundles, for Node.js. */
const IMPLIED = { bundle: true, platform: 'node' } as const;
const CARRIED = new Set([
  'format',
  'target',
  'minify',
  'sourcemap',
  'treeShaking',
  'mainFields',
  'external',
  'banner',
  'legalComments',
  'alias',
]);

function toBundling(options: typeof HANDLER_BUNDLE): BundlingOptions {
  const problems = Object.entries(options)
    .filter(([key, value]) => !CARRIED.has(key) && IMPLIED[key as keyof typeof IMPLIED] !== value)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  if (options.format !== 'esm') problems.push(`format: ${JSON.stringify(options.format)} (the stack deploys ESM)`);
  if (problems.length > 0) {
    throw new Error(`lambda/bundle.ts sets ${problems.join(', ')}, which infra/lib/lambda-bundling.ts does not carry over to the stack.`);
  }
  const external = [...options.external];
  return {
    format: OutputFormat.ESM,
    target: options.target,
    minify: options.minify,
    sourceMap: options.sourcemap,
    mainFields: [...options.mainFields],
    externalModules: external,
    // The SDK loads much faster on a cold start from the bundle than from the runtime's copy.
    bundleAwsSDK: !external.some((module) => module.startsWith('@aws-sdk/')),
    banner: options.banner,
    esbuildArgs: {
      '--tree-shaking': String(options.treeShaking),
      '--legal-comments': options.legalComments,
      '--alias': Object.entries(options.alias).map(([module, substitute]) => `${module}=${substitute}`),
    },
  };
}

export const LAMBDA_BUNDLING = toBundling(HANDLER_BUNDLE);

/** Stack traces point into the TypeScript only with source maps and this flag. */
export const LAMBDA_ENVIRONMENT: Record<string, string> = LAMBDA_BUNDLING.sourceMap ? { NODE_OPTIONS: '--enable-source-maps' } : {};
