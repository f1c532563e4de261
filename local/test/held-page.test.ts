/**
 * The firm's page of held messages on the local stack, as `npm start` serves it (decision
 * 0048): messages held for the mail budget, the retry job's digest with its link to the
 * edge, the page behind that link with the site's security headers, a release and a spam
 * mark from the page's own forms, and a changed link that shows nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '@site/core/node/security-headers';
import { API_PATH, FORM_CONTENT_TYPE, HELD_LINK_PARAMETER } from '@site/core/contract';
import { HELD_PAGE_TEXT } from '@site/core/content/held-page';
import { fetchSentEmails } from '@site/emulators/servers';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';

/** A visitor's post without scripts, as the site's form sends it from the edge's own page. */
function post(stack: LocalStack, path: string, fields: Record<string, string>): Promise<Response> {
  const origin = stack.urls.site;
  return fetch(origin + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': FORM_CONTENT_TYPE, origin, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields).toString(),
  });
}

const message = (name: string, email: string) => ({
  name,
  email,
  phone: '',
  company: '',
  message: `Graag een gesprek over onze jaarafsluiting, groet ${name}.`,
});

const ids = (html: string) => [...html.matchAll(/id="bericht-([0-9A-Z]{26})"/g)].map((match) => match[1]!);

describe('the page of held messages on the local stack', () => {
  let stack: LocalStack;
  const siteDir = makeSiteDir();

  beforeAll(async () => {
    stack = await startLocalStack({
      ...EPHEMERAL_STACK,
      ...runStandIns(),
      siteDir,
      // One e-mail an hour: the second message on is held for the budget.
      mailBudgets: { mailBudget: { perHour: 1, perDay: 10 }, siteMailBudget: { perHour: 1, perDay: 10 } },
    });
  });
  afterAll(() => stack?.close());

  it('is linked from the digest, lists the held messages, releases one with its Reply-To and marks one spam', async () => {
    for (const [name, email] of [
      ['Eerste Bezoeker', 'eerste@voorbeeld.nl'],
      ['Tweede Bezoeker', 'tweede@voorbeeld.nl'],
      ['Derde Bezoeker', 'derde@voorbeeld.nl'],
    ] as const) {
      expect((await post(stack, API_PATH, message(name, email))).status).toBe(303);
    }
    await stack.retryJob({ minAgeMs: 0 });
    const digest = (await fetchSentEmails(stack.urls.ses)).at(-1)!;
    const link = digest.body.text!.match(/http:\/\/\S+\/api\/held\?\S+/)?.[0];
    expect(link, digest.body.text).toBeDefined();
    expect(link!.startsWith(`${stack.urls.site}/api/held?${HELD_LINK_PARAMETER}=`)).toBe(true);

    const page = await fetch(link!);
    expect(page.status).toBe(200);
    for (const [name, value] of Object.entries(securityHeaders(siteDir))) expect(page.headers.get(name), name).toBe(value);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const html = await page.text();
    expect(html).toContain('Tweede Bezoeker');
    expect(html).toContain('Derde Bezoeker');
    const [newest, older] = ids(html);

    const token = new URL(link!).searchParams.get(HELD_LINK_PARAMETER)!;
    const before = (await fetchSentEmails(stack.urls.ses)).length;
    const released = await post(stack, '/api/held', { [HELD_LINK_PARAMETER]: token, actie: 'doorsturen', id: newest! });
    expect(released.status).toBe(200);
    expect(await released.text()).toContain(HELD_PAGE_TEXT.released(newest!));
    const sent = (await fetchSentEmails(stack.urls.ses)).slice(before);
    expect(sent).toEqual([
      expect.objectContaining({ replyTo: ['derde@voorbeeld.nl'], subject: expect.stringContaining('Derde Bezoeker') }),
    ]);

    const marked = await post(stack, '/api/held', { [HELD_LINK_PARAMETER]: token, actie: 'spam', id: older! });
    const markedHtml = await marked.text();
    expect(markedHtml).toContain(HELD_PAGE_TEXT.markedSpam(older!, Number(stack.lambdaEnv.SPAM_RETENTION_DAYS)));
    expect(ids(markedHtml)).not.toContain(older);
    expect(ids(markedHtml)).not.toContain(newest);
  });

  it('shows nothing of any message for a link that was changed, and drops any other query parameter at the edge', async () => {
    const changed = await fetch(`${stack.urls.site}/api/held?${HELD_LINK_PARAMETER}=1999999999.${'A'.repeat(43)}`);
    expect(changed.status).toBe(403);
    const text = await changed.text();
    expect(text).toContain(HELD_PAGE_TEXT.linkInvalid.title);
    expect(text).not.toContain('Bezoeker');
    // Only the link's parameter passes CloudFront's origin request policy: another name is dropped, as if none was sent.
    expect((await fetch(`${stack.urls.site}/api/held?token=x`)).status).toBe(403);
  });
});
