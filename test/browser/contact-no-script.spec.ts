/**
 * The form with JavaScript off, in Chromium against the local stack: a classic form post,
 * 303 to a prerendered result page, the message stored and e-mailed once however often it
 * is sent again; a refused post answered with the form again, as typed, to send again; a
 * post API Gateway's throttle refuses sent on to the busy page; and nothing the visitor typed
 * in any URL.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { API_PATH, FORM_RESULT_PAGES } from '@site/core/contract';
import { INVALID_EMAIL_MESSAGE } from '@site/core/content/contact-fields';
import { refusedPost } from '@site/core/content/refused-post';
import { clearSentEmails, fetchSentEmails } from '@site/emulators/servers';
import { firm, phoneHref, sentConfirmation, contactForm } from '@site/frontend/content/site';
import { startSite, type Site } from './support';
import { formResults } from '@site/frontend/content/form-results';
import { asRead } from '@site/testing/as-read';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());
beforeEach(() => clearSentEmails(site.stack.urls.ses));

/** Where the refused-post page's screenshots go, to be looked at. */
const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/site-screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

const MESSAGE = {
  name: 'Joost Zonderscript',
  email: 'joost@zonderscript.nl',
  phone: '+31 6 5555 1234',
  company: 'Zonderscript & Zn',
  message: 'Graag een gesprek over interim management.\nBij voorkeur op dinsdag.',
};

/** A page without scripts that records every request's URL. */
async function openWithoutScripts(path = '/', width = 390) {
  const { page } = await site.open(path, { javaScriptEnabled: false, viewport: { width, height: 844 } });
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return { page, requests };
}

async function fill(page: Page, values: Record<string, string>) {
  for (const [field, value] of Object.entries(values)) await page.locator(`#contact-${field}`).fill(value);
}

const values = (page: Page) => Promise.all(Object.keys(MESSAGE).map((field) => page.locator(`#contact-${field}`).inputValue()));

/** Sends the form and waits for the page it is sent on to; returns the POST's own answer. */
async function send(page: Page) {
  const posted = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
  await page.getByRole('button', { name: contactForm.submit }).click();
  const answer = await posted;
  await page.waitForLoadState('load');
  return answer;
}

function expectNothingTypedInUrls(requests: Request[], page: Page, typed: Record<string, string>) {
  const urls = [...requests.map((request) => request.url()), page.url()].map((url) => decodeURIComponent(url.replace(/\+/g, ' ')));
  for (const value of Object.values(typed)
    .flatMap((text) => text.split(/\s+/))
    .filter((word) => word.length > 3)) {
    for (const url of urls) expect(url).not.toContain(value);
  }
  for (const url of urls) expect(new URL(url).search).toBe('');
}

describe('the contact form without JavaScript', () => {
  it('posts the form, gets 303 to the confirmation page, and the message is stored and e-mailed once', async () => {
    const { page, requests } = await openWithoutScripts();
    await fill(page, MESSAGE);
    const answer = await send(page);

    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe(FORM_RESULT_PAGES.sent);
    expect(answer.request().headers()['content-type']).toBe('application/x-www-form-urlencoded');
    expect(page.url()).toBe(site.url(FORM_RESULT_PAGES.sent));
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe(formResults.sent.headline);
    expect(await page.getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.').count()).toBe(1);
    // As the confirmation in the form's place says it with scripts.
    expect(await page.getByText(sentConfirmation.reply).count()).toBe(1);
    expect(await page.getByRole('main').getByRole('link', { name: firm.phone }).getAttribute('href')).toBe(phoneHref);

    const stored = await site.storedMessages();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ ...MESSAGE, status: 'emailed' });
    const emails = await fetchSentEmails(site.stack.urls.ses);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe(`Nieuw contactbericht van ${MESSAGE.name} (${MESSAGE.company})`);
    expectNothingTypedInUrls(requests, page, MESSAGE);

    // Back keeps what was typed; sending it again is the same message, not a second e-mail.
    await page.goBack();
    expect(await values(page)).toEqual(Object.values(MESSAGE));
    expect((await send(page)).headers().location).toBe(FORM_RESULT_PAGES.sent);
    expect(await site.storedMessages()).toHaveLength(1);
    expect(await fetchSentEmails(site.stack.urls.ses)).toHaveLength(1);

    // A reload of the confirmation page is a GET: nothing is posted again.
    await page.reload();
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe(formResults.sent.headline);
    expect(await fetchSentEmails(site.stack.urls.ses)).toHaveLength(1);
    expectNothingTypedInUrls(requests, page, MESSAGE);
  });

  it('answers an address the server refuses with the form again, as typed, the field named at the field; it sends again', async () => {
    const { page, requests } = await openWithoutScripts();
    const typed = { ...MESSAGE, name: 'Petra Controleer', email: 'petra@localhost', message: 'Zie <b>dit</b> & </textarea><i>dat</i>' };
    await fill(page, typed);
    const answer = await send(page);

    expect(answer.status()).toBe(400);
    expect(answer.headers()['cache-control']).toBe('no-store');
    expect(page.url()).toBe(site.url(API_PATH));
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe(refusedPost.headline);
    // What was typed, markup as text, in every field.
    expect(await values(page)).toEqual(Object.values(typed));
    expect(await page.locator('b, i').count()).toBe(0);
    const email = page.locator('#contact-email');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const problem = page.locator(`#${await email.getAttribute('aria-describedby')}`);
    expect(await problem.textContent()).toBe(INVALID_EMAIL_MESSAGE);
    expect(await page.locator('[aria-invalid]').count()).toBe(1);
    expect((await site.storedMessages()).filter((item) => item.name === typed.name)).toEqual([]);
    expect(await fetchSentEmails(site.stack.urls.ses)).toEqual([]);

    // Corrected at the field and sent again with the page's own button: stored and e-mailed once.
    await email.fill('petra@controleer.example');
    const again = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
    await page.getByRole('button', { name: refusedPost.submit }).click();
    expect((await again).headers().location).toBe(FORM_RESULT_PAGES.sent);
    await page.waitForLoadState('load');
    expect((await site.storedMessages()).filter((item) => item.name === typed.name)).toMatchObject([
      { ...typed, email: 'petra@controleer.example' },
    ]);
    expectNothingTypedInUrls(requests, page, typed);
  });

  it.each([390, 1440])(
    'names every refused field at its field, in the form’s order, keeps the rest, and looks right at %i px',
    async (width) => {
      const { page, requests } = await openWithoutScripts('/', width);
      // The browser lets these through (no maxlength, by design); the server refuses them.
      const typed = { ...MESSAGE, name: `Karel ${'Langenaam'.repeat(12)}`, company: `Bedrijf ${'Groot'.repeat(40)}` };
      await fill(page, typed);
      await send(page);

      expect(await page.getByText(refusedPost.refused(2)).count()).toBe(1);
      expect(await page.locator('.form-result-rules a').allTextContents()).toEqual(['Naam', 'Bedrijf']);
      expect(await page.locator('[aria-invalid="true"]').evaluateAll((fields) => fields.map((field) => field.id))).toEqual([
        'contact-name',
        'contact-company',
      ]);
      expect(await values(page)).toEqual(Object.values(typed));
      await page.screenshot({ path: `${SCREENSHOTS}/refused-post-${width}.png`, fullPage: true });
      // axe runs as a script, which this page may not: it judges the same document, as served
      // to the post, in a page of the same origin that runs scripts (the answer has none of its own).
      const served = await page.content();
      const { page: judged } = await site.open('/', { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
      await judged.setContent(served, { waitUntil: 'load' });
      const { violations } = await new AxeBuilder({ page: judged }).analyze();
      expect(violations.map((violation) => violation.id)).toEqual([]);
      // The page wears the site's stylesheet: the button is the site's.
      expect(await page.locator('.btn-primary').evaluate((button) => getComputedStyle(button).backgroundColor)).not.toBe(
        'rgba(0, 0, 0, 0)',
      );
      expectNothingTypedInUrls(requests, page, typed);
      expect((await site.storedMessages()).filter((item) => item.name === typed.name)).toEqual([]);
    },
  );

  it('leaves empty required fields to the browser’s own check: nothing is posted', async () => {
    const { page, requests } = await openWithoutScripts();
    await fill(page, { ...MESSAGE, message: '' });
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.waitForTimeout(500);
    expect(requests.filter((request) => request.url().endsWith(API_PATH))).toEqual([]);
    expect(page.url()).toBe(site.url('/'));
    expect(await page.locator('#contact-message:invalid').count()).toBe(1);
  });
});

describe('the contact form without JavaScript at the site’s rate limit', () => {
  // A stage that lets no request through: API Gateway answers every post itself, before the function.
  let busy: Site;
  beforeAll(async () => {
    busy = await startSite({ stageThrottle: { rate: 0.001, burst: 0 } });
  });
  afterAll(() => busy?.close());

  it('lands on the busy page, not API Gateway’s JSON, nothing stored; Back keeps what was typed', async () => {
    const { page } = await busy.open('/', { javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await fill(page, MESSAGE);
    const answer = await send(page);
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe(FORM_RESULT_PAGES.busy);
    expect(new URL(page.url()).pathname).toBe(FORM_RESULT_PAGES.busy);
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe(formResults.busy.headline);
    expect(asRead(await page.getByRole('main').textContent())).toContain(asRead(formResults.busy.text));
    expect(await page.content()).not.toContain('Too Many Requests');
    expect(await busy.storedMessages()).toEqual([]);

    await page.goBack();
    expect(await values(page)).toEqual(Object.values(MESSAGE));
  });
});

describe('the form’s result pages', () => {
  it.each([...Object.values(FORM_RESULT_PAGES), `${FORM_RESULT_PAGES.check}/email-message`])(
    '%s is a Dutch page with status 200, kept out of search results and the sitemap',
    async (path) => {
      const response = await fetch(site.url(path));
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>\s*<html lang="nl">/);
      expect(html).toContain('<meta name="robots" content="noindex" />');
      expect(await (await fetch(site.url('/sitemap.xml'))).text()).not.toContain(path);
    },
  );

  it('are only the pages the function sends a post on to: other field names or orders are the 404 page', async () => {
    for (const path of ['/controleer-bericht/message-email', '/controleer-bericht/website', '/controleer-bericht/', '/niet-verzonden/5']) {
      expect((await fetch(site.url(path))).status, path).toBe(404);
    }
  });

  // One test per page and width: seven pages with axe in one test outran its minute on a busy machine.
  it.each(
    [...Object.values(FORM_RESULT_PAGES), `${FORM_RESULT_PAGES.check}/name-email-phone-company-message`].flatMap((path) =>
      [390, 1440].map((width) => [path, width] as const),
    ),
  )('%s has no accessibility violations and hydrates without errors at %i px', async (path, width) => {
    const watched = await site.open(path, { viewport: { width, height: 900 } });
    const { violations } = await new AxeBuilder({ page: watched.page }).analyze();
    expect(violations.map((v) => `${path} ${v.id}`)).toEqual([]);
    expect(watched.errors).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });
});
