/**
 * Posts made from another site's page (a hidden form, a script) are refused: JSON with a
 * Dutch 403, a form post sent on to its Dutch page; nothing stored, counted or e-mailed.
 * The site's own posts, and clients that are no browser, keep working. The events carry the
 * headers a browser sends, through the local edge's origin request (the API's CloudFront
 * Function and the origin request policy), as the function gets them behind CloudFront.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { VIEWER_HOST_HEADER } from '@site/core/api-origin';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { FORM_CONTENT_TYPE, FORM_RESULT_PAGES, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import { crossSiteSignal } from '../src/contact/cross-site';
import { answer, contactEvent, ownMessage, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

const SITE = 'www.example.nl';
const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': FORM_CONTENT_TYPE };
/** What a browser sends with a post from the site's own page. */
const OWN_PAGE = { host: SITE, origin: `https://${SITE}`, 'sec-fetch-site': 'same-origin' };
/** What a browser sends with a post another site's page makes it send. */
const OTHER_SITE = { host: SITE, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

describe('crossSiteSignal', () => {
  /** What CloudFront reports of the viewer behind it: the host asked for, over HTTPS. */
  const VIEWER = { viewerHost: SITE, viewerScheme: 'https' };

  it('refuses by Sec-Fetch-Site anything but the same origin', () => {
    for (const fetchSite of ['cross-site', 'same-site', 'none', 'CROSS-SITE', 'garbage']) {
      expect(crossSiteSignal({ ...VIEWER, fetchSite, origin: `https://${SITE}` }), fetchSite).toBe('sec-fetch-site');
    }
    expect(crossSiteSignal({ ...VIEWER, fetchSite: 'same-origin', origin: `https://${SITE}` })).toBeUndefined();
  });

  it('refuses an Origin that is not the origin the viewer asked for, scheme, host and port (older browsers send no Sec-Fetch-Site)', () => {
    const signal = (origin: string, viewer = VIEWER) => crossSiteSignal({ origin, ...viewer });
    expect(signal(`https://${SITE}`)).toBeUndefined();
    expect(signal(`https://${SITE.toUpperCase()}`)).toBeUndefined();
    expect(signal(`https://${SITE}`, { viewerHost: `${SITE}:443`, viewerScheme: 'https' })).toBeUndefined();
    expect(signal(`https://${SITE}:443`)).toBeUndefined();
    expect(signal('http://127.0.0.1:8080', { viewerHost: '127.0.0.1:8080', viewerScheme: 'http' })).toBeUndefined();
    for (const origin of [
      'https://evil.example',
      `https://${SITE}.evil.example`,
      'https://blog.example.nl',
      `https://${SITE}:8443`,
      // The same host over the other scheme: another origin, whose page another party may serve.
      `http://${SITE}`,
      'not a url',
    ]) {
      expect(signal(origin), origin).toBe('origin');
    }
    expect(signal(`https://127.0.0.1:8080`, { viewerHost: '127.0.0.1:8080', viewerScheme: 'http' })).toBe('origin');
  });

  it('refuses an opaque origin (null: a sandboxed frame, a data: URL) unless Sec-Fetch-Site says same-origin', () => {
    expect(crossSiteSignal({ ...VIEWER, origin: 'null' })).toBe('origin');
    expect(crossSiteSignal({ ...VIEWER, origin: 'null', fetchSite: 'same-origin' })).toBeUndefined();
  });

  it('reads the Referer when neither Origin nor Sec-Fetch-Site came: another site’s page, or no address, is refused', () => {
    const signal = (referer: string) => crossSiteSignal({ ...VIEWER, referer });
    expect(signal(`https://${SITE}/`)).toBeUndefined();
    expect(signal(`https://${SITE}/privacy?x=1#contact`)).toBeUndefined();
    for (const referer of ['https://evil.example/page', `http://${SITE}/`, `https://${SITE}.evil.example/`, 'not a url', 'about:blank']) {
      expect(signal(referer), referer).toBe('referer');
    }
    // A browser that says where it comes from in either other header is judged by it, not by its Referer.
    expect(crossSiteSignal({ ...VIEWER, fetchSite: 'same-origin', referer: 'https://evil.example/' })).toBeUndefined();
    expect(crossSiteSignal({ ...VIEWER, origin: `https://${SITE}`, referer: 'https://evil.example/' })).toBeUndefined();
  });

  it('lets a client that sends none of the three through: it is no browser, and no other site can make it post', () => {
    expect(crossSiteSignal(VIEWER)).toBeUndefined();
    expect(crossSiteSignal({})).toBeUndefined();
  });

  it('refuses an Origin or a Referer it cannot compare, because the viewer’s host or scheme did not reach the function', () => {
    expect(crossSiteSignal({ origin: `https://${SITE}` })).toBe('no-viewer');
    expect(crossSiteSignal({ origin: `https://${SITE}`, viewerHost: SITE })).toBe('no-viewer');
    expect(crossSiteSignal({ origin: `https://${SITE}`, viewerScheme: 'https' })).toBe('no-viewer');
    expect(crossSiteSignal({ referer: `https://${SITE}/`, viewerHost: SITE, viewerScheme: 'gopher' })).toBe('no-viewer');
  });
});

describe('through the handler', () => {
  const stack = useContactStack();
  beforeEach(async () => {
    await stack.aws.stopDynamoDb();
    await stack.aws.startDynamoDb();
    await stack.aws.clearEmails();
    stack.logs.clear();
  });

  const expectNothingKept = async () => {
    expect(await stack.aws.items()).toEqual([]);
    expect(await stack.aws.sentEmails()).toEqual([]);
  };

  it('refuses JSON from another site with a Dutch 403, and stores, counts and e-mails nothing', async () => {
    for (const headers of [OTHER_SITE, { ...OTHER_SITE, 'sec-fetch-site': undefined }, { ...OTHER_SITE, origin: undefined }]) {
      const response = answer(await stack.handler(contactEvent({ headers: { ...JSON_TYPE, ...clean(headers) }, body: VALID_BODY })));
      expect(response.statusCode).toBe(403);
      expect(response.json).toEqual({ error: ERROR_TEXT.notThroughSite });
    }
    await expectNothingKept();
    expect(stack.logs.entries()).toEqual([
      expect.objectContaining({ level: 'info', outcome: 'cross_site', crossSite: 'sec-fetch-site', status: 403 }),
      expect.objectContaining({ outcome: 'cross_site', crossSite: 'origin', status: 403 }),
      expect.objectContaining({ outcome: 'cross_site', crossSite: 'sec-fetch-site', status: 403 }),
    ]);
    expect(stack.logs.raw()).not.toContain('evil.example');
  });

  it('sends a hidden form post from another site on to its Dutch page, and keeps nothing', async () => {
    const result = await stack.handler(
      contactEvent({ headers: { ...FORM_TYPE, ...OTHER_SITE }, body: new URLSearchParams(VALID_BODY).toString() }),
    );
    expect(result).toMatchObject({ statusCode: 303, headers: { Location: FORM_RESULT_PAGES.crossSite } });
    await expectNothingKept();
    expect(stack.logs.entries()).toEqual([expect.objectContaining({ outcome: 'cross_site', format: 'form', status: 303 })]);
  });

  it('does not let another site use up a visitor’s allowance: after more posts than the limit, the visitor still sends', async () => {
    const viewer = '198.51.100.99';
    for (let i = 0; i <= TEST_VISITOR_LIMIT.messages; i += 1) {
      const event = contactEvent({ headers: { ...FORM_TYPE, ...OTHER_SITE }, body: new URLSearchParams(VALID_BODY).toString(), viewer });
      expect((await stack.handler(event)).statusCode).toBe(303);
    }
    const own = await stack.handler(contactEvent({ headers: { ...JSON_TYPE, ...OWN_PAGE }, body: VALID_BODY, viewer }));
    expect(own.statusCode).toBe(200);
  });

  it('accepts the site’s own JSON and form posts, and clients that send neither header', async () => {
    const own = answer(
      await stack.handler(contactEvent({ headers: { ...JSON_TYPE, ...OWN_PAGE, [IDEMPOTENCY_HEADER]: randomUUID() }, body: ownMessage() })),
    );
    expect(own.statusCode).toBe(200);
    const form = await stack.handler(
      contactEvent({ headers: { ...FORM_TYPE, ...OWN_PAGE }, body: new URLSearchParams(ownMessage({ name: 'Formulier' })).toString() }),
    );
    expect(form).toMatchObject({ statusCode: 303, headers: { Location: FORM_RESULT_PAGES.sent } });
    const curl = answer(await stack.handler(contactEvent({ headers: JSON_TYPE, body: ownMessage({ name: 'Zonder browser' }) })));
    expect(curl.statusCode).toBe(200);
    expect(await stack.aws.messages()).toHaveLength(3);
    expect(await stack.aws.sentEmails()).toHaveLength(3);
  });

  it('compares with the Host the viewer sent, whatever a viewer claims under the header the API function writes', async () => {
    const forged = { ...OTHER_SITE, 'sec-fetch-site': undefined, [VIEWER_HOST_HEADER]: 'evil.example' };
    const response = await stack.handler(contactEvent({ headers: { ...JSON_TYPE, ...clean(forged) }, body: VALID_BODY }));
    expect(response.statusCode).toBe(403);
    await expectNothingKept();
  });

  it('answers another method 405 whoever asks: only a post can send anything', async () => {
    const response = answer(await stack.handler(contactEvent({ method: 'GET', headers: OTHER_SITE })));
    expect(response.statusCode).toBe(405);
  });

  it('refuses a Referer from another site when the browser sent neither Origin nor Sec-Fetch-Site, and keeps nothing', async () => {
    const older = { host: SITE, referer: 'https://evil.example/form.html' };
    const result = await stack.handler(
      contactEvent({ headers: { ...FORM_TYPE, ...older }, body: new URLSearchParams(VALID_BODY).toString() }),
    );
    expect(result).toMatchObject({ statusCode: 303, headers: { Location: FORM_RESULT_PAGES.crossSite } });
    const sameHostOtherScheme = await stack.handler(
      contactEvent({ headers: { ...JSON_TYPE, host: SITE, origin: `http://${SITE}` }, body: VALID_BODY }),
    );
    expect(sameHostOtherScheme.statusCode).toBe(403);
    await expectNothingKept();
    expect(stack.logs.entries()).toEqual([
      expect.objectContaining({ outcome: 'cross_site', crossSite: 'referer', status: 303 }),
      expect.objectContaining({ outcome: 'cross_site', crossSite: 'origin', status: 403 }),
    ]);
    expect(stack.logs.raw()).not.toContain('evil.example');
  });

  it('accepts a post from an older browser on the site’s own page, by its Referer', async () => {
    const older = { host: SITE, referer: `https://${SITE}/` };
    const result = await stack.handler(
      contactEvent({ headers: { ...FORM_TYPE, ...older }, body: new URLSearchParams(VALID_BODY).toString() }),
    );
    expect(result).toMatchObject({ statusCode: 303, headers: { Location: FORM_RESULT_PAGES.sent } });
  });

  it('refuses an Origin with no viewer host to compare it with (the CloudFront Function missing), warning in the log', async () => {
    // Without a Host, the API's CloudFront Function writes no X-Viewer-Host: as when the function is not on the behaviour.
    const response = answer(await stack.handler(contactEvent({ headers: { ...JSON_TYPE, origin: `https://${SITE}` }, body: VALID_BODY })));
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual({ error: ERROR_TEXT.notThroughSite });
    await expectNothingKept();
    expect(stack.logs.entries().at(-1)).toMatchObject({ level: 'warn', outcome: 'cross_site', crossSite: 'no-viewer' });
  });
});

/** The headers without those set to undefined. */
function clean(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
