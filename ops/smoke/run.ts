/**
 * The smoke check of a deployed (or local) stage: the checks in checks.ts run one after the
 * other against the site and, when given, the API's own address, then the outside check's own
 * steps up to the challenge (lambda/src/outside-check/outside-check.ts: the page, its asset, the challenge
 * solved as the page's worker solves it), and a table of what was checked.
 * `npm run smoke -- <site-url> [--api <execute-api-url>]` (ops/smoke.ts).
 */
import { randomBytes } from 'node:crypto';
import { CHALLENGE_PATH } from '@site/core/contract';
import { runOutsideCheck } from '@site/lambda/outside-check';
import {
  brandFileChecks,
  directCallCheck,
  hashedAssetCheck,
  hashedAssetPath,
  homeCheck,
  invalidMessageCheck,
  missingAssetCheck,
  unknownPageCheck,
  wrongMethodCheck,
  type SmokeCheck,
} from './checks';
import { NoAnswer, request } from './http';

export interface SmokeTarget {
  /** The site, as visitors reach it: CloudFront, or the local edge. */
  site: string;
  /** The API's own address (the ApiUrl output), to prove it refuses what skips CloudFront. */
  api?: string;
  /** Per request; the default suits a deployed stage. */
  timeoutMs?: number;
}

export interface SmokeResult {
  name: string;
  /** `GET /`, `POST https://…/api/…`: what was asked. */
  request: string;
  problems: string[];
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** `https://host/base/` → `https://host/base`, so paths join cleanly; refuses what is not an http(s) URL. */
export function baseUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} ${JSON.stringify(value)} is not a URL; give it as https://…`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${what} ${value} is not an http(s) URL.`);
  if (url.search || url.hash) throw new Error(`${what} ${value} must not have a query or fragment.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** No answer at all from the site: one line says so instead of a table of the same failure. */
export class Unreachable extends Error {
  override name = 'Unreachable';
}

async function runCheck(
  check: SmokeCheck,
  target: Required<Omit<SmokeTarget, 'api'>> & { api?: string },
): Promise<SmokeResult & { body?: string; noAnswer?: string }> {
  const base = check.request.target === 'api' ? target.api! : target.site;
  const url = `${base}${check.request.path}`;
  const shown = `${check.request.method} ${check.request.target === 'api' ? url : check.request.path}`;
  try {
    const answer = await request(
      { method: check.request.method, url, headers: check.request.headers, body: check.request.body },
      target.timeoutMs,
    );
    return { name: check.name, request: shown, problems: check.verify(answer), body: answer.body };
  } catch (error) {
    if (error instanceof NoAnswer) {
      return { name: check.name, request: shown, problems: [`no answer: ${error.reason}`], noAnswer: error.reason };
    }
    throw error;
  }
}

export async function runSmoke(options: SmokeTarget): Promise<SmokeResult[]> {
  const target = {
    site: baseUrl(options.site, 'The site URL'),
    api: options.api === undefined ? undefined : baseUrl(options.api, 'The API URL'),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  // New paths each run: a cached answer from an earlier run cannot pass for a fresh one.
  const run = randomBytes(6).toString('hex');
  const home = await runCheck(homeCheck, target);
  if (home.noAnswer !== undefined) throw new Unreachable(`Cannot reach ${target.site}: ${home.noAnswer}.`);
  const rest = [
    hashedAssetCheck(hashedAssetPath(home.body ?? '')),
    ...brandFileChecks(home.body ?? ''),
    unknownPageCheck(run),
    missingAssetCheck(run),
    invalidMessageCheck,
    wrongMethodCheck,
    ...(target.api ? [directCallCheck] : []),
  ];
  const results: SmokeResult[] = [home];
  for (const check of rest) results.push(await runCheck(check, target));
  // The outside check's steps, as its function takes them every five minutes, short of the post.
  const way = await runOutsideCheck({ site: target.site, until: 'challenge', timeoutMs: target.timeoutMs });
  results.push({
    name: 'challenge, as the check',
    request: `GET ${CHALLENGE_PATH}, solved`,
    problems: way.failed ? [`${way.failed.step}: ${way.failed.problem}`] : [],
  });
  return results.map(({ name, request: asked, problems }) => ({ name, request: asked, problems }));
}

/** The table: one row per check, its problems on lines of their own, and a last line that counts. */
export function formatReport(site: string, results: SmokeResult[]): string {
  const nameWidth = Math.max(...results.map((result) => result.name.length));
  const requestWidth = Math.max(...results.map((result) => result.request.length));
  const lines = [`Smoke check of ${site}`, ''];
  for (const result of results) {
    const mark = result.problems.length === 0 ? 'ok  ' : 'FAIL';
    lines.push(`  ${mark}  ${result.name.padEnd(nameWidth)}  ${result.request.padEnd(requestWidth)}`.trimEnd());
    for (const problem of result.problems) lines.push(`          ${problem}`);
  }
  const failed = results.filter((result) => result.problems.length > 0).length;
  lines.push('', failed === 0 ? `All ${results.length} checks passed.` : `${failed} of ${results.length} checks failed.`);
  return lines.join('\n');
}
