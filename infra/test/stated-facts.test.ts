/**
 * The privacy statement quotes the retention and the region; a deploy with other settings
 * than the build read is refused before anything is built.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../lib/app';
import { StatedFactsError } from '../lib/stated-facts';
import { CDK_JSON_CONTEXT, makeSiteDir, SITE_FILES, TEST_ADDRESSES } from './synth';

const statement = (days: number, region: string) =>
  `<!doctype html><html lang="nl"><main data-aws-region="${region}"><p>Wij bewaren uw bericht <strong data-retention-days="${days}">${days} dagen</strong>.</p></main></html>`;

function build(context: Record<string, unknown>, privacyHtml: string): () => unknown {
  const siteDir = makeSiteDir({ ...SITE_FILES, '/privacy.html': privacyHtml });
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
