/**
 * The built site as the stack sees it at synth: its file list decides which paths are pages
 * (the CloudFront Functions), which Cache-Control each file gets (the uploads) and what to
 * invalidate.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { HASHED_ASSET_PREFIX } from './cache-control';

/** URL paths of every file in the build, such as `/index.html` and `/assets/index-3f2a.js`. */
export function listSiteFiles(siteDir: string): string[] {
  if (!existsSync(join(siteDir, 'index.html')) || !existsSync(join(siteDir, '404.html'))) {
    throw new Error(
      `No built site in ${siteDir} (index.html and 404.html are needed): run \`npm run build\` first, then synth or deploy again.`,
    );
  }
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files.push('/' + relative(siteDir, full).split(sep).join('/'));
    }
  };
  walk(siteDir);
  return files.sort();
}

/** CloudFront Functions take at most 10 KB of code; the file list is part of it. */
const MAX_FUNCTION_CODE_BYTES = 10 * 1024;

/**
 * The code of a CloudFront Function in ./edge, with the site's pages written in. The JS file
 * runs as is too (the tests execute the synthesized code), so the values are whole `var` lines.
 */
export function edgeFunctionCode(name: 'viewer-request' | 'viewer-response', siteFiles: readonly string[]): string {
  const pages = siteFiles.filter((path) => !path.startsWith(HASHED_ASSET_PREFIX));
  const values: Record<string, unknown> = {
    SITE_FILES: Object.fromEntries(pages.map((path) => [path, true])),
    HASHED_ASSET_PREFIX,
  };
  let code = readFileSync(join(import.meta.dirname, 'edge', `${name}.js`), 'utf8');
  for (const [variable, value] of Object.entries(values)) {
    const line = new RegExp(`^var ${variable} = .*;$`, 'm');
    if (!line.test(code)) throw new Error(`edge/${name}.js has no "var ${variable} = ...;" line to fill in.`);
    code = code.replace(line, () => `var ${variable} = ${JSON.stringify(value)};`);
  }
  const bytes = Buffer.byteLength(code);
  if (bytes > MAX_FUNCTION_CODE_BYTES) {
    throw new Error(
      `edge/${name}.js with ${pages.length} site files is ${bytes} bytes; CloudFront Functions allow ${MAX_FUNCTION_CODE_BYTES}. ` +
        'Move the file list to a CloudFront KeyValueStore.',
    );
  }
  return code;
}
