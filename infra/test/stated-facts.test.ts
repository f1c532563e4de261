/**
 * The privacy statement quotes the retention, the region and the limit's window, and facts
 * the code decides (the backups, the access logs); every page names the site's address; a
 * deploy with other settings than the build stated, or with a build older than the code, is
 * refused before anything is built.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { MESSAGE_TABLE } from '@site/core/table';
import { buildApp } from '../lib/app';
import { StatedFactsError } from '../lib/stated-facts';
import { CDK_JSON_CONTEXT, makeSiteDir, SITE_FILES, TEST_ADDRESSES, UNBUNDLED } from './synth';

const statement = (days: number, region: string) =>
  `<!doctype html><html lang="nl"><main data-aws-region="${region}"><p>Wij bewaren uw bericht <strong data-retention-days="${days}">${days} dagen</strong>.</p></main></html>`;

function build(context: Record<string, unknown>, privacyHtml: string, files: Record<string, string> = {}): () => unknown {
  const siteDir = makeSiteDir({ ...SITE_FILES, '/privacy.html': privacyHtml, ...files });
  return () => buildApp(new App({ context: { ...CDK_JSON_CONTEXT, ...UNBUNDLED, ...TEST_ADDRESSES, ...context } }), { siteDir });
}

describe('the privacy statement and the deploy', () => {
  it('agree: the stack is built', () => {
    expect(build({ retentionDays: 365, region: 'eu-west-1' }, statement(365, 'eu-west-1'))).not.toThrow();
  });

  it('differ in retention (a -c override after the build): the synth stops and says how to rebuild', () => {
    const attempt = build({ retentionDays: 90 }, statement(365, 'eu-west-1'));
    expect(attempt).toThrow(StatedFactsError);
    expect(attempt).toThrow('privacy.html states 365 days of retention; this deploy keeps messages 90 days (retentionDays)');
    expect(attempt).toThrow('run npm run build');
  });

  it('differ in region: the synth stops', () => {
    expect(build({ region: 'eu-central-1' }, statement(365, 'eu-west-1'))).toThrow(
      'privacy.html states region eu-west-1; this deploy is in eu-central-1 (region)',
    );
  });

  it('differ in a fact the code decides (a build older than the code): the synth stops and names where it is decided', () => {
    const older = (facts: string) =>
      `<!doctype html><html lang="nl"><main><p><strong data-retention-days="365" data-aws-region="eu-west-1">365</strong> ${facts}</p></main></html>`;
    const agreeing = older(
      `<strong data-backup-days="${MESSAGE_TABLE.pointInTimeRecoveryDays}">x</strong><strong data-access-log-days="${ACCESS_LOG_RETENTION_DAYS}">y</strong>`,
    );
    expect(build({ retentionDays: 365, region: 'eu-west-1' }, agreeing)).not.toThrow();
    const backups = build({}, older('<strong data-backup-days="7">7 dagen</strong>'));
    expect(backups).toThrow(
      `privacy.html states 7 days of backups; the table restores ${MESSAGE_TABLE.pointInTimeRecoveryDays} days back (MESSAGE_TABLE in core/src/table.ts)`,
    );
    expect(build({}, older('<strong data-access-log-days="30">30 dagen</strong>'))).toThrow(
      `privacy.html states access logs kept 30 days; they are kept ${ACCESS_LOG_RETENTION_DAYS} days (core/src/access-logs.ts)`,
    );
  });

  it('differ in the visitor limit’s window, which the statement names for the counters: the synth stops', () => {
    const page = `<!doctype html><html lang="nl"><main><p><strong data-visitor-window-minutes="10">10 minuten</strong></p></main></html>`;
    expect(build({ visitorLimit: { messages: 5, windowMinutes: 10 } }, page)).not.toThrow();
    expect(build({ visitorLimit: { messages: 5, windowMinutes: 60 } }, page)).toThrow(
      "privacy.html states a visitor limit window of 10 minutes; this deploy's window is 60 minutes (visitorLimit.windowMinutes)",
    );
  });
});

describe('the page for a visitor over the limit and the deploy', () => {
  const limitPage = (minutes: number) => ({
    '/niet-verzonden/limiet.html': `<!doctype html><html lang="nl"><main><p data-visitor-window-minutes="${minutes}">U kunt uiterlijk over ${minutes} minuten weer een bericht sturen.</p></main></html>`,
  });

  it('agree on the window: the stack is built', () => {
    expect(build({ visitorLimit: { messages: 3, windowMinutes: 10 } }, statement(365, 'eu-west-1'), limitPage(10))).not.toThrow();
  });

  it('differ in the window (the page would promise too short a wait): the synth stops', () => {
    const attempt = build({ visitorLimit: { messages: 5, windowMinutes: 60 } }, statement(365, 'eu-west-1'), limitPage(10));
    expect(attempt).toThrow(StatedFactsError);
    expect(attempt).toThrow(
      "niet-verzonden/limiet.html states a visitor limit window of 10 minutes; this deploy's window is 60 minutes (visitorLimit.windowMinutes)",
    );
  });
});

describe("the site's own address and the deploy's domain", () => {
  const domain = {
    domainName: 'www.streepjevoorfinance.nl',
    hostedZoneName: 'streepjevoorfinance.nl',
    hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  };
  const advertising = (origin: string) => ({
    '/index.html': `<!doctype html><html lang="nl"><head><link rel="canonical" href="${origin}/" /><meta property="og:url" content="${origin}/" /></head></html>`,
    '/sitemap.xml': `<?xml version="1.0"?><urlset><url><loc>${origin}/</loc></url><url><loc>${origin}/privacy</loc></url></urlset>`,
    '/robots.txt': `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`,
  });

  it('agree: the stack is built', () => {
    expect(build(domain, statement(365, 'eu-west-1'), advertising('https://www.streepjevoorfinance.nl'))).not.toThrow();
  });

  it('differ (another address in the content): the synth stops, names both and says what to set', () => {
    const attempt = build(domain, statement(365, 'eu-west-1'), advertising('https://www.jansen-advies.nl'));
    expect(attempt).toThrow(StatedFactsError);
    expect(attempt).toThrow(
      "the pages, sitemap and robots.txt name https://www.jansen-advies.nl as the site's address; this deploy serves https://www.streepjevoorfinance.nl (domainName)",
    );
    expect(attempt).toThrow("set SITE_ORIGIN in core/src/content/firm.ts to 'https://www.streepjevoorfinance.nl'");
    expect(attempt).toThrow('run npm run build');
  });

  it('differ in the sitemap alone: still refused', () => {
    const files = {
      ...advertising('https://www.streepjevoorfinance.nl'),
      '/sitemap.xml': '<urlset><url><loc>https://streepjevoorfinance.nl/</loc></url></urlset>',
    };
    expect(build(domain, statement(365, 'eu-west-1'), files)).toThrow('name https://streepjevoorfinance.nl as');
  });

  it('without domainName (the *.cloudfront.net address) nothing is compared', () => {
    expect(build({}, statement(365, 'eu-west-1'), advertising('https://www.jansen-advies.nl'))).not.toThrow();
  });
});
