/**
 * The form with JavaScript off, in Chromium against the local stack: a classic form post,
 * 303 to a prerendered result page, the message stored and e-mailed once however often it
 * is sent again; a refused post answered with the form again, as typed, to send again; and
 * nothing the visitor typed in any URL. The throttle's busy page: contact-no-script-busy.spec.ts.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { API_PATH, FORM_RESULT_PAGES } from '@site/core/contract';
import { INVALID_EMAIL_MESSAGE } from '@site/core/content/contact-fields';
import { refusedPost } from '@site/core/content/refused-post';
import { firm, phoneHref, contactForm } from '@site/frontend/content/site';
import { formResults } from '@site/frontend/content/form-results';
import { expect, open, test } from './fixtures';
import { expectValues, fill, MESSAGE, send } from './no-script-form';
import { on } from './viewports';

/** Opens `path` without scripts and records every request's URL from then on. */
async function openWithoutScripts(page: Page, path = '/') {
  await page.goto(path);
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/**
 * What a URL could carry of the form past the host: its path, query and fragment. The local
 * stack's port is a free one, and a port such as 45555 holds a typed phone number's "5555".
 */
const pastTheHost = (url: string) => {
  const { pathname, search, hash } = new URL(url);
  return decodeURIComponent(`${pathname}${search}${hash}`.replace(/\+/g, ' '));
};

function expectNothingTypedInUrls(requests: Request[], page: Page, typed: Record<string, string>) {
  const urls = [...requests.map((request) => request.url()), page.url()];
  for (const value of Object.values(typed)
    .flatMap((text) => text.split(/\s+/))
    .filter((word) => word.length > 3)) {
    for (const url of urls) expect(pastTheHost(url), url).not.toContain(value);
  }
  for (const url of urls) expect(new URL(url).search).toBe('');
}

test.describe('the contact form without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test(
    'posts the form, gets 303 to the confirmation page, and the message is stored and e-mailed once',
    { tag: on('phone') },
    async ({ page, site }) => {
      const requests = await openWithoutScripts(page);
      await fill(page, MESSAGE);
      const answer = await send(page);

      expect(answer.status()).toBe(303);
      expect(answer.headers().location).toBe(FORM_RESULT_PAGES.sent);
      expect(answer.request().headers()['content-type']).toBe('application/x-www-form-urlencoded');
      await expect(page).toHaveURL(FORM_RESULT_PAGES.sent);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(formResults.sent.headline);
      await expect(page.getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.')).toHaveCount(1);
      // One promise of when a reply comes, as the confirmation in the form's place says it with scripts.
      await expect(page.getByRole('main')).not.toContainText('werkdag');
      await expect(page.getByRole('main').getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);

      const stored = await site.storedMessages();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ ...MESSAGE, status: 'emailed' });
      const emails = await site.sentEmails();
      expect(emails).toHaveLength(1);
      expect(emails[0]!.subject).toBe(`Nieuw contactbericht van ${MESSAGE.name} (${MESSAGE.company})`);
      expectNothingTypedInUrls(requests, page, MESSAGE);

      // Back keeps what was typed; sending it again is the same message, not a second e-mail.
      await page.goBack();
      await expectValues(page, MESSAGE);
      expect((await send(page)).headers().location).toBe(FORM_RESULT_PAGES.sent);
      expect(await site.storedMessages()).toHaveLength(1);
      expect(await site.sentEmails()).toHaveLength(1);

      // A reload of the confirmation page is a GET: nothing is posted again.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(formResults.sent.headline);
      expect(await site.sentEmails()).toHaveLength(1);
      expectNothingTypedInUrls(requests, page, MESSAGE);
    },
  );

  test(
    'answers an address the server refuses with the form again, as typed, the field named at the field; it sends again',
    { tag: on('phone') },
    async ({ page, site }) => {
      const requests = await openWithoutScripts(page);
      const typed = { ...MESSAGE, name: 'Petra Controleer', email: 'petra@localhost', message: 'Zie <b>dit</b> & </textarea><i>dat</i>' };
      await fill(page, typed);
      const answer = await send(page);

      expect(answer.status()).toBe(400);
      expect(answer.headers()['cache-control']).toBe('no-store');
      await expect(page).toHaveURL(API_PATH);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(refusedPost.headline);
      // What was typed, markup as text, in every field.
      await expectValues(page, typed);
      await expect(page.locator('b, i')).toHaveCount(0);
      const email = page.locator('#contact-email');
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator(`#${await email.getAttribute('aria-describedby')}`)).toHaveText(INVALID_EMAIL_MESSAGE);
      await expect(page.locator('[aria-invalid]')).toHaveCount(1);
      expect(await site.storedMessages()).toEqual([]);
      expect(await site.sentEmails()).toEqual([]);

      // Corrected at the field and sent again with the page's own button: stored and e-mailed once.
      await email.fill('petra@controleer.example');
      const again = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
      await page.getByRole('button', { name: refusedPost.submit }).click();
      expect((await again).headers().location).toBe(FORM_RESULT_PAGES.sent);
      await page.waitForLoadState('load');
      expect(await site.storedMessages()).toMatchObject([{ ...typed, email: 'petra@controleer.example' }]);
      expect(await site.sentEmails()).toHaveLength(1);
      expectNothingTypedInUrls(requests, page, typed);
    },
  );

  test(
    'names every refused field at its field, in the form’s order, keeps the rest, and looks right',
    { tag: on('phone', 'desktop') },
    async ({ page, site, newPage }, testInfo) => {
      const requests = await openWithoutScripts(page);
      // The browser lets these through (no maxlength, by design); the server refuses them.
      const typed = { ...MESSAGE, name: `Karel ${'Langenaam'.repeat(12)}`, company: `Bedrijf ${'Groot'.repeat(40)}` };
      await fill(page, typed);
      await send(page);

      await expect(page.getByText(refusedPost.refused(2))).toHaveCount(1);
      await expect(page.locator('.form-result-rules a')).toHaveText(['Naam', 'Bedrijf']);
      expect(await page.locator('[aria-invalid="true"]').evaluateAll((fields) => fields.map((field) => field.id))).toEqual([
        'contact-name',
        'contact-company',
      ]);
      await expectValues(page, typed);
      // axe runs as a script, which this page may not: it judges the same document, as served
      // to the post, in a page of the same origin that runs scripts (the answer has none of its own).
      const served = await page.content();
      // To be looked at in the report. Taken after the page's markup is read: the screenshot
      // leaves marks in the fields (empty style attributes) that the served page does not have.
      await testInfo.attach('refused post', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
      const judged = await newPage({ javaScriptEnabled: true, reducedMotion: 'reduce' });
      await open(judged, '/');
      await judged.setContent(served, { waitUntil: 'load' });
      const { violations } = await new AxeBuilder({ page: judged }).analyze();
      expect(violations.map((violation) => violation.id)).toEqual([]);
      // The page wears the site's stylesheet: the button is the site's.
      await expect(page.locator('.btn-primary')).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
      expectNothingTypedInUrls(requests, page, typed);
      expect(await site.storedMessages()).toEqual([]);
    },
  );

  test('leaves empty required fields to the browser’s own check: nothing is posted', { tag: on('phone') }, async ({ page }) => {
    const requests = await openWithoutScripts(page);
    await fill(page, { ...MESSAGE, message: '' });
    // A post would have started with the click, which waits for a navigation it starts.
    await page.getByRole('button', { name: contactForm.submit }).click();
    await expect(page.locator('#contact-message:invalid')).toHaveCount(1);
    await expect(page).toHaveURL('/');
    expect(requests.filter((request) => request.url().endsWith(API_PATH))).toEqual([]);
  });
});

test.describe('the form’s result pages', () => {
  for (const path of [...Object.values(FORM_RESULT_PAGES), `${FORM_RESULT_PAGES.check}/email-message`]) {
    test(`${path} is a Dutch page with status 200, kept out of search results and the sitemap`, async ({ site }) => {
      const response = await fetch(site.url(path));
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>\s*<html lang="nl">/);
      expect(html).toContain('<meta name="robots" content="noindex" />');
      expect(await (await fetch(site.url('/sitemap.xml'))).text()).not.toContain(path);
    });
  }

  test('are only the pages the function sends a post on to: other field names or orders are the 404 page', async ({ site }) => {
    for (const path of ['/controleer-bericht/message-email', '/controleer-bericht/website', '/controleer-bericht/', '/niet-verzonden/5']) {
      expect((await fetch(site.url(path))).status, path).toBe(404);
    }
  });

  // One test per page and screen: seven pages with axe in one test outran its time on a busy machine.
  for (const path of [...Object.values(FORM_RESULT_PAGES), `${FORM_RESULT_PAGES.check}/name-email-phone-company-message`]) {
    test(`${path} has no accessibility violations and hydrates without errors`, { tag: on('phone', 'desktop') }, async ({ page }) => {
      await open(page, path);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${path} ${v.id}`)).toEqual([]);
    });
  }
});
