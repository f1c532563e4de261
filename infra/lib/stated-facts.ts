/**
 * The site quotes settings of the stack: the privacy statement how long a message is kept
 * and the AWS region it is kept in, the page for a visitor over the limit how long the
 * limit's window is. The site build reads them from cdk.json and writes them on the pages
 * (data-retention-days, data-aws-region, data-visitor-window-minutes); a deploy whose own
 * settings differ (a `-c` override, an edit after the build) would publish pages that are no
 * longer true, so the synth refuses it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import type { Config } from '@site/core/deploy-config';

export const PRIVACY_PAGE = 'privacy.html';
export const LIMITED_PAGE = `${FORM_RESULT_PAGES.limited.slice(1)}.html`;

export class StatedFactsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      'The built site (frontend/dist) states settings this deploy does not have:\n' +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        '\nPut the setting in the cdk.json context (the site build reads it there), run npm run build, then run the command again.',
    );
    this.name = 'StatedFactsError';
  }
}

/** Every value of a data attribute on a built page; none when the page is not there. */
function attribute(siteDir: string, page: string, name: string): string[] {
  const path = join(siteDir, page);
  if (!existsSync(path)) return [];
  return [...readFileSync(path, 'utf8').matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => match[1]!);
}

/** Throws when a built page states another retention, region or visitor window than `config`. */
export function checkStatedFacts(siteDir: string, config: Pick<Config, 'retentionDays' | 'region' | 'visitorLimit'>): void {
  const problems: string[] = [];
  const days = attribute(siteDir, PRIVACY_PAGE, 'data-retention-days');
  if (days.some((value) => Number(value) !== config.retentionDays)) {
    problems.push(
      `${PRIVACY_PAGE}: it states ${[...new Set(days)].join(', ')} days of retention; this deploy keeps messages ${config.retentionDays} days (retentionDays).`,
    );
  }
  const regions = attribute(siteDir, PRIVACY_PAGE, 'data-aws-region');
  if (regions.some((value) => value !== config.region)) {
    problems.push(`${PRIVACY_PAGE}: it names region ${[...new Set(regions)].join(', ')}; this deploy is in ${config.region} (region).`);
  }
  const window = attribute(siteDir, LIMITED_PAGE, 'data-visitor-window-minutes');
  if (window.some((value) => Number(value) !== config.visitorLimit.windowMinutes)) {
    problems.push(
      `${LIMITED_PAGE}: it says a visitor over the limit waits at most ${[...new Set(window)].join(', ')} minutes; ` +
        `this deploy's window is ${config.visitorLimit.windowMinutes} minutes (visitorLimit.windowMinutes).`,
    );
  }
  if (problems.length > 0) throw new StatedFactsError(problems);
}
