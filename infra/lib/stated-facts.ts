/**
 * Facts the built site states that a deploy must make true. The privacy statement quotes
 * three settings of the stack (how long a message is kept, the AWS region it is kept in, the
 * visitor limit's window: the build reads them from cdk.json) and three facts the code
 * decides (the table's point-in-time recovery, the access logs' lifetime, the idempotency
 * records' lifetime); the page marks each as data-<fact> (data-retention-days="365"). Every
 * page also names the site's own address (canonical link, Open Graph URL, the sitemap and
 * robots.txt). A deploy whose settings differ (a `-c` override, an edit after the build, a
 * domainName the content does not know), or a build older than the code, would publish a site
 * that says something untrue, so the synth refuses it and says how to rebuild.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { FORM_RESULT_PAGES, IDEMPOTENCY_TTL_SECONDS } from '@site/core/contract';
import type { Config } from '@site/core/node/deploy-config';
import { listSiteFiles } from '@site/core/node/site-files';
import { MESSAGE_TABLE } from '@site/core/table';

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

type StatedConfig = Pick<Config, 'retentionDays' | 'region' | 'visitorLimit' | 'spamRetentionDays'>;

/** A fact a page states: the attribute it is marked with, the value the deploy makes true, and how to say it. */
interface StatedFact {
  attribute: string;
  actual: (config: StatedConfig) => string | number;
  /** '365 days of retention', for the value a page states. */
  stated: (value: string) => string;
  /** What this deploy does, and where that is decided. */
  truth: (config: StatedConfig) => string;
}

const SETTING = 'put the setting in the cdk.json context (the site build reads it there)';
const CODE = 'the build is older than the code: rebuild it';

const STATED_FACTS: readonly StatedFact[] = [
  {
    attribute: 'data-retention-days',
    actual: (config) => config.retentionDays,
    stated: (value) => `${value} days of retention`,
    truth: (config) => `this deploy keeps messages ${config.retentionDays} days (retentionDays): ${SETTING}`,
  },
  {
    attribute: 'data-aws-region',
    actual: (config) => config.region,
    stated: (value) => `region ${value}`,
    truth: (config) => `this deploy is in ${config.region} (region): ${SETTING}`,
  },
  {
    attribute: 'data-visitor-window-minutes',
    actual: (config) => config.visitorLimit.windowMinutes,
    stated: (value) => `a visitor limit window of ${value} minutes`,
    truth: (config) => `this deploy's window is ${config.visitorLimit.windowMinutes} minutes (visitorLimit.windowMinutes): ${SETTING}`,
  },
  {
    attribute: 'data-spam-retention-days',
    actual: (config) => config.spamRetentionDays,
    stated: (value) => `${value} days for a message marked as spam`,
    truth: (config) => `this deploy keeps them ${config.spamRetentionDays} days (spamRetentionDays): ${SETTING}`,
  },
  {
    attribute: 'data-backup-days',
    actual: () => MESSAGE_TABLE.pointInTimeRecoveryDays,
    stated: (value) => `${value} days of backups`,
    truth: () => `the table restores ${MESSAGE_TABLE.pointInTimeRecoveryDays} days back (MESSAGE_TABLE in core/src/table.ts): ${CODE}`,
  },
  {
    attribute: 'data-access-log-days',
    actual: () => ACCESS_LOG_RETENTION_DAYS,
    stated: (value) => `access logs kept ${value} days`,
    truth: () => `they are kept ${ACCESS_LOG_RETENTION_DAYS} days (core/src/access-logs.ts): ${CODE}`,
  },
  {
    attribute: 'data-idempotency-hours',
    actual: () => IDEMPOTENCY_TTL_SECONDS / 3600,
    stated: (value) => `idempotency records kept ${value} hours`,
    truth: () => `they are kept ${IDEMPOTENCY_TTL_SECONDS / 3600} hours (IDEMPOTENCY_TTL_SECONDS in core/src/contract.ts): ${CODE}`,
  },
];

/** Every fact a page states otherwise than this deploy makes true, one line each. */
function pageProblems(siteDir: string, page: string, config: StatedConfig): string[] {
  const path = join(siteDir, page);
  if (!existsSync(path)) return [];
  const html = readFileSync(path, 'utf8');
  return STATED_FACTS.flatMap((fact) => {
    const values = attribute(html, fact.attribute);
    const actual = String(fact.actual(config));
    if (values.every((value) => value === actual)) return [];
    return [`${page} states ${[...new Set(values)].map(fact.stated).join(', ')}; ${fact.truth(config)}.`];
  });
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

/** Throws when the built site states another fact (retention, region, visitor window, backups, logs) or address than this deploy. */
export function checkStatedFacts(siteDir: string, config: StatedConfig & Pick<Config, 'domainName'>): void {
  const problems = [
    ...pageProblems(siteDir, PRIVACY_PAGE, config),
    ...pageProblems(siteDir, LIMITED_PAGE, config),
    ...addressProblems(siteDir, config.domainName),
  ];
  if (problems.length > 0) throw new StatedFactsError(problems);
}
