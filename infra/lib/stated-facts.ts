/**
 * The privacy statement quotes two settings of the stack: how long a message is kept and the
 * AWS region it is kept in. The site build reads them from cdk.json and writes them on the
 * page (data-retention-days, data-aws-region); a deploy whose own settings differ (a `-c`
 * override, an edit after the build) would publish a statement that is no longer true, so
 * the synth refuses it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@site/core/deploy-config';

export const PRIVACY_PAGE = 'privacy.html';

export class StatedFactsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The built privacy statement (frontend/dist/${PRIVACY_PAGE}) does not match this deploy:\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        '\nPut the setting in the cdk.json context (the site build reads it there), run npm run build, then run the command again.',
    );
    this.name = 'StatedFactsError';
  }
}

function attribute(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => match[1]!);
}

/** Throws when the built privacy statement states another retention or region than `config`. */
export function checkStatedFacts(siteDir: string, config: Pick<Config, 'retentionDays' | 'region'>): void {
  const page = join(siteDir, PRIVACY_PAGE);
  if (!existsSync(page)) return;
  const html = readFileSync(page, 'utf8');
  const problems: string[] = [];
  const days = attribute(html, 'data-retention-days');
  if (days.some((value) => Number(value) !== config.retentionDays)) {
    problems.push(
      `it states ${[...new Set(days)].join(', ')} days of retention; this deploy keeps messages ${config.retentionDays} days (retentionDays).`,
    );
  }
  const regions = attribute(html, 'data-aws-region');
  if (regions.some((value) => value !== config.region)) {
    problems.push(`it names region ${[...new Set(regions)].join(', ')}; this deploy is in ${config.region} (region).`);
  }
  if (problems.length > 0) throw new StatedFactsError(problems);
}
