/**
 * A request the site accepts logs no misconfiguration: its one log line is at level info,
 * with neither the warning that the origin check was not applied nor the one that the
 * visitor limit was not. On-call reads a warning as "CloudFront is set up wrong"; one on
 * every genuine message would hide the real one. The events carry what a browser sends from
 * the site's own page, through the local edge's origin request, as CloudFront forwards it.
 */
import { describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, FORM_RESULT_PAGES } from '@site/core/contract';
import { contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const SITE = 'www.example.nl';
const JSON_TYPE = { 'content-type': 'application/json' };

/** Requests the site accepts: what current and older browsers send from its own page, and a client that is no browser. */
const ACCEPTED: [string, Record<string, string>][] = [
  ['a current browser', { ...JSON_TYPE, host: SITE, origin: `https://${SITE}`, 'sec-fetch-site': 'same-origin' }],
  ['an older browser (no Sec-Fetch-Site)', { ...JSON_TYPE, host: SITE, origin: `https://${SITE}` }],
  ['an opaque origin the browser vouches for', { ...JSON_TYPE, host: SITE, origin: 'null', 'sec-fetch-site': 'same-origin' }],
  ['a client that is no browser', JSON_TYPE],
];

describe('an accepted request', () => {
  const stack = useContactStack();

  /** The one log line of the handler's answer to `headers` and `body`, and its status. */
  const logOf = async (headers: Record<string, string>, body: unknown) => {
    stack.logs.clear();
    const result = await stack.handler(contactEvent({ headers, body }));
    const entries = stack.logs.entries();
    expect(entries).toHaveLength(1);
    return { status: result.statusCode, headers: result.headers, entry: entries[0]! };
  };

  const expectNoWarning = (entry: Record<string, unknown>) => {
    expect(entry).toMatchObject({ level: 'info', outcome: 'stored_and_emailed' });
    expect(entry).not.toHaveProperty('originCheck');
    expect(entry).not.toHaveProperty('visitorLimit');
  };

  it.each(ACCEPTED)('from %s logs no misconfiguration warning', async (_, headers) => {
    const { status, entry } = await logOf(headers, VALID_BODY);
    expect(status).toBe(200);
    expectNoWarning(entry);
  });

  it('as a form post from the site’s own page logs no misconfiguration warning', async () => {
    const headers = { 'content-type': FORM_CONTENT_TYPE, host: SITE, origin: `https://${SITE}`, 'sec-fetch-site': 'same-origin' };
    const { status, headers: answered, entry } = await logOf(headers, new URLSearchParams(VALID_BODY).toString());
    expect(status).toBe(303);
    expect(answered).toMatchObject({ Location: FORM_RESULT_PAGES.sent });
    expectNoWarning(entry);
  });
});
