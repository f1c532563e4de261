/**
 * The edge functions in ./edge, the site's with the built site's pages written in: what the
 * stack deploys and what the local edge runs on every request. Three CloudFront Functions,
 * and one Lambda@Edge function (api-origin-response.js), which alone sees an origin's 4xx and 5xx.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VIEWER_HOST_HEADER } from '@site/core/api-origin';
import { HASHED_ASSET_PREFIX } from '@site/core/cache-control';
import { FORM_CONTENT_TYPE, FORM_RESULT_PAGES } from '@site/core/contract';

/** CloudFront Functions take at most 10 KB of code; the file list is part of it. */
const MAX_FUNCTION_CODE_BYTES = 10 * 1024;

/**
 * The code of a CloudFront Function in ./edge with `values` written in. The JS file runs as
 * is too (the tests execute the synthesized code), so the values are whole `var` lines.
 */
function withValues(name: string, values: Record<string, unknown>): string {
  let code = readFileSync(join(import.meta.dirname, 'edge', `${name}.js`), 'utf8');
  for (const [variable, value] of Object.entries(values)) {
    const line = new RegExp(`^var ${variable} = .*;$`, 'm');
    if (!line.test(code)) throw new Error(`edge/${name}.js has no "var ${variable} = ...;" line to fill in.`);
    code = code.replace(line, () => `var ${variable} = ${JSON.stringify(value)};`);
  }
  return code;
}

/** The site behaviour's function, with the site's pages written in. */
export function edgeFunctionCode(name: 'viewer-request' | 'viewer-response', siteFiles: readonly string[]): string {
  const pages = siteFiles.filter((path) => !path.startsWith(HASHED_ASSET_PREFIX));
  const code = withValues(name, { SITE_FILES: Object.fromEntries(pages.map((path) => [path, true])), HASHED_ASSET_PREFIX });
  const bytes = Buffer.byteLength(code);
  if (bytes > MAX_FUNCTION_CODE_BYTES) {
    throw new Error(
      `edge/${name}.js with ${pages.length} site files is ${bytes} bytes; CloudFront Functions allow ${MAX_FUNCTION_CODE_BYTES}. ` +
        'Move the file list to a CloudFront KeyValueStore.',
    );
  }
  return code;
}

/** The /api/* behaviour's function: the viewer's Host passed on as VIEWER_HOST_HEADER (core/src/api-origin.ts). */
export function apiFunctionCode(): string {
  return withValues('api-request', { VIEWER_HOST_HEADER: VIEWER_HOST_HEADER.toLowerCase() });
}

/**
 * The /api/* behaviour's Lambda@Edge function on the origin's response: API Gateway's own
 * answer to a form post (its throttle, a failed function) sent on to the result page that
 * says it. Lambda@Edge has no environment variables, so the pages are written in.
 */
export function apiOriginResponseCode(): string {
  return withValues('api-origin-response', {
    BUSY_PAGE: FORM_RESULT_PAGES.busy,
    FAILED_PAGE: FORM_RESULT_PAGES.failed,
    FORM_CONTENT_TYPE,
  });
}
