/**
 * The built site as the stack and the local edge see it: its file list decides which paths
 * are pages (the CloudFront Functions), which Cache-Control each file gets (the uploads), what
 * to invalidate, and which inline scripts the CSP must allow.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

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
