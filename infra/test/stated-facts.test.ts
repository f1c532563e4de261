/**
 * The privacy statement quotes the retention and the region, the page for a visitor over the
 * limit the limit's window; a deploy with other settings than the build read is refused
 * before anything is built.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../lib/app';
import { StatedFactsError } from '../lib/stated-facts';
import { CDK_JSON_CONTEXT, makeSiteDir, SITE_FILES, TEST_ADDRESSES } from './synth';

const statement = (days: number, region: string) =>
  `<!doctype html><html lang="nl"><main data-aws-region="${region}"><p>Wij bewaren uw bericht <strong data-retention-days="${days}">${days} dagen</strong>.</p></main></html>`;

const limitPage = (minutes: number) =>
  `<!doctype html><html lang="nl"><main><p data-visitor-window-minutes="${minutes}">U kunt uiterlijk over ${minutes} minuten weer een bericht sturen.</p></main></html>`;

function build(context: Record<string, unknown>, privacyHtml: string, limitHtml = limitPage(10)): () => unknown {
  const siteDir = makeSiteDir({ ...SITE_FILES, '/privacy.html': privacyHtml, '/niet-verzonden/limiet.html': limitHtml });
  return () => buildApp(new App({ context: { ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES, ...context } }), { siteDir });
}

describe('the privacy statement and the deploy', () => {
  it('agree: the stack is built', () => {
    expect(build({ retentionDays: 365, region: 'eu-west-1' }, statement(365, 'eu-west-1'))).not.toThrow();
  });

  it('differ in retention (a -c override after the build): the synth stops and says how to rebuild', () => {
    const attempt = build({ retentionDays: 90 }, statement(365, 'eu-west-1'));
    expect(attempt).toThrow(StatedFactsError);
    expect(attempt).toThrow('it states 365 days of retention; this deploy keeps messages 90 days (retentionDays)');
    expect(attempt).toThrow('run npm run build');
  });

  it('differ in region: the synth stops', () => {
    expect(build({ region: 'eu-central-1' }, statement(365, 'eu-west-1'))).toThrow(
      'it names region eu-west-1; this deploy is in eu-central-1 (region)',
    );
  });
});

describe('the page for a visitor over the limit and the deploy', () => {
  it('agree on the window: the stack is built', () => {
    expect(build({ visitorLimit: { messages: 3, windowMinutes: 10 } }, statement(365, 'eu-west-1'), limitPage(10))).not.toThrow();
  });

  it('differ in the window (the page would promise too short a wait): the synth stops', () => {
    const attempt = build({ visitorLimit: { messages: 5, windowMinutes: 60 } }, statement(365, 'eu-west-1'), limitPage(10));
    expect(attempt).toThrow(StatedFactsError);
    expect(attempt).toThrow(
      "niet-verzonden/limiet.html: it says a visitor over the limit waits at most 10 minutes; this deploy's window is 60 minutes",
    );
  });
});
