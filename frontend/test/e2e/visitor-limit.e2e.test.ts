/**
 * The visitor limit as a visitor meets it, in Chromium against the local stack with a limit
 * of one message: the form shows its error toast and keeps what was typed; without scripts
 * the post is sent on to the page that says to try again later. Nothing more is stored.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/cdk-context';
import { visitorLimitFrom } from '@site/core/deploy-config';
import { API_PATH, FORM_RESULT_PAGES } from '@site/core/contract';
import { secondsLeft, windowAt } from '@site/lambda/visitor-limit';
import { contactForm, formResults } from '../../src/content/site';
import { startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite({ visitorLimit: 1 });
});
afterAll(() => site?.close());

/** Every test starts well inside a window: one that ends between two sends would count afresh. */
beforeEach(async () => {
  const windowSeconds = visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes * 60;
  const left = secondsLeft(windowAt(new Date(), windowSeconds), new Date());
  if (left < 30) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
});

const storedCount = async () => (await site.storedMessages()).length;

async function fill(page: Page, message: string) {
  await page.locator('#contact-name').fill('Vera Vaker');
  await page.locator('#contact-email').fill('vera@vaker.nl');
  await page.locator('#contact-message').fill(message);
}

describe('a visitor over the limit (1 message here)', () => {
  it('gets the form’s error toast with the fields kept, and the message is not stored', async () => {
    const { page } = await site.open('/');
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fill(page, 'Eerste bericht.');
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByText(contactForm.messages.success).waitFor();
    expect(await storedCount()).toBe(1);

    await fill(page, 'Tweede bericht, kort daarna.');
    const answer = page.waitForResponse((response) => response.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();
    expect((await answer).status()).toBe(429);
    const failure = page.getByRole('alert');
    await failure.waitFor();
    expect(await failure.textContent()).toBe(contactForm.messages.failure);
    expect(await page.locator('#contact-message').inputValue()).toBe('Tweede bericht, kort daarna.');
    expect(await storedCount()).toBe(1);
  });

  it('without scripts is sent on to the page that says to try again in a few minutes', async () => {
    const { page } = await site.open('/', { javaScriptEnabled: false });
    const before = await storedCount();
    // However the earlier test ended, this visitor has used up its one message after this post.
    for (const message of ['Zonder scripts, eerste.', 'Zonder scripts, tweede.']) {
      await page.goto(site.url('/'));
      await fill(page, message);
      const posted = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
      await page.getByRole('button', { name: contactForm.submit }).click();
      expect((await posted).status()).toBe(303);
      await page.waitForLoadState('load');
    }
    expect(page.url()).toBe(site.url(FORM_RESULT_PAGES.failed));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(formResults.failed.headline);
    expect(await page.getByText(formResults.failed.text).count()).toBe(1);
    expect(await storedCount()).toBeLessThanOrEqual(before + 1);
  });
});
