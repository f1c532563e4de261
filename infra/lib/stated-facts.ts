/**
 * Facts the built site states that a deploy must make true. The privacy statement quotes two
 * settings of the stack: how long a message is kept and the AWS region it is kept in (the
 * build reads them from cdk.json and writes them on the page as data-retention-days and
 * data-aws-region); the page for a visitor over the limit quotes the limit's window
 * (data-visitor-window-minutes). Every page also names the site's own address (canonical
 * link, Open Graph URL, the sitemap and robots.txt). A deploy whose settings differ (a `-c` override, an edit
 * after the build, a domainName the content does not know) would publish a site that says
 * something untrue, so the synth refuses it and says how to rebuild.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import type { Config } from '@site/core/node/deploy-config';
import { listSiteFiles } from '@site/core/node/site-files';

export const PRIVACY_PAGE = 'privacy.html';
export const LIMITED_PAGE = `${FORM_RESULT_PAGES.limited.slice(1)}.html`;

export class StatedFactsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The built site (frontend/dist) does not match this deploy:\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        '\nFix the setting or the content as each line says, run npm run build, then run the command again.',
    );
    this.name = 'StatedFactsError';
  }
}

function attribute(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => match[1]!);
}

function privacyProblems(siteDir: string, config: Pick<Config, 'retentionDays' | 'region'>): string[] {
  const page = join(siteDir, PRIVACY_PAGE);
  if (!existsSync(page)) return [];
  const html = readFileSync(page, 'utf8');
  const problems: string[] = [];
  const howToFix = 'put the setting in the cdk.json context (the site build reads it there)';
  const days = attribute(html, 'data-retention-days');
  if (days.some((value) => Number(value) !== config.retentionDays)) {
    problems.push(
      `${PRIVACY_PAGE} states ${[...new Set(days)].join(', ')} days of retention; this deploy keeps messages ${config.retentionDays} days (retentionDays): ${howToFix}.`,
    );
  }
  const regions = attribute(html, 'data-aws-region');
  if (regions.some((value) => value !== config.region)) {
    problems.push(
      `${PRIVACY_PAGE} names region ${[...new Set(regions)].join(', ')}; this deploy is in ${config.region} (region): ${howToFix}.`,
    );
  }
  return problems;
}

/** Where the built site names its own address: canonical links, og:url, the sitemap and robots.txt. */
function advertisedOrigins(siteDir: string): Set<string> {
  const origins = new Set<string>();
  const add = (url: string) => {
    if (URL.canParse(url)) origins.add(new URL(url).origin);
  };
  for (const path of listSiteFiles(siteDir)) {
    const text = readFileSync(join(siteDir, ...path.split('/')), 'utf8');
    if (path.endsWith('.html')) {
      for (const [, href] of text.matchAll(/<link\b[^>]*\brel="canonical"[^>]*\bhref="([^"]+)"/g)) add(href!);
      for (const [, url] of text.matchAll(/<meta\b[^>]*\bproperty="og:url"[^>]*\bcontent="([^"]+)"/g)) add(url!);
    } else if (path === '/sitemap.xml') {
      for (const [, loc] of text.matchAll(/<loc>([^<]+)<\/loc>/g)) add(loc!);
    } else if (path === '/robots.txt') {
      for (const [, url] of text.matchAll(/^Sitemap:\s*(\S+)/gm)) add(url!);
    }
  }
  return origins;
}

/** The page a visitor over the limit reaches without scripts states the longest wait: one window. */
function windowProblems(siteDir: string, config: Pick<Config, 'visitorLimit'>): string[] {
  const page = join(siteDir, LIMITED_PAGE);
  if (!existsSync(page)) return [];
  const minutes = attribute(readFileSync(page, 'utf8'), 'data-visitor-window-minutes');
  if (minutes.every((value) => Number(value) === config.visitorLimit.windowMinutes)) return [];
  return [
    `${LIMITED_PAGE} says a visitor over the limit waits at most ${[...new Set(minutes)].join(', ')} minutes; ` +
      `this deploy's window is ${config.visitorLimit.windowMinutes} minutes (visitorLimit.windowMinutes): ` +
      'put the setting in the cdk.json context (the site build reads it there).',
  ];
}

function addressProblems(siteDir: string, domainName: string | undefined): string[] {
  if (domainName === undefined) return [];
  const served = `https://${domainName}`;
  const others = [...advertisedOrigins(siteDir)].filter((origin) => origin !== served);
  if (others.length === 0) return [];
  return [
    `the pages, sitemap and robots.txt name ${others.join(', ')} as the site's address; this deploy serves ${served} (domainName): ` +
      `set SITE_ORIGIN in core/src/content/firm.ts to '${served}'.`,
  ];
}

/** Throws when the built site states another retention, region, visitor window or address than this deploy. */
export function checkStatedFacts(siteDir: string, config: Pick<Config, 'retentionDays' | 'region' | 'visitorLimit' | 'domainName'>): void {
  const problems = [
    ...privacyProblems(siteDir, config),
    ...windowProblems(siteDir, config),
    ...addressProblems(siteDir, config.domainName),
  ];
  if (problems.length > 0) throw new StatedFactsError(problems);
}
